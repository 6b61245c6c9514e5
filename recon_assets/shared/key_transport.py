"""Where a key may be sent: over HTTPS, or over plain HTTP to this machine only (issue 24).

A base URL setting points a client at a compatible server or a proxy: GROQ_BASE_URL (the Groq judge), OPENALEX_URL
(OpenAlex) and HF_ENDPOINT (read by huggingface_hub itself). Over plain `http://` to another host, the key each client
sends (`Authorization: Bearer <key>`) would cross the network unencrypted. `check_key_transport` refuses that in one
line naming the setting, unless RECON_ALLOW_PLAIN_HTTP=1 says the user means it. Loopback (127.0.0.0/8, ::1,
localhost) never leaves the machine and stays allowed, unless a proxy from the environment (HTTP_PROXY or ALL_PROXY,
upper or lower case, not bypassed by NO_PROXY: what httpx and requests honour) would carry the plain request to
another machine. CROSSREF_URL carries no key and is not checked.

`recon run` checks before any run; each resource that sends a key checks again when it starts (`setup_for_execution`),
so a run launched from the UI or a schedule fails with the same line. No Dagster import.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from urllib.parse import urlsplit
from urllib.request import proxy_bypass_environment

from recon_assets.shared.switches import checked_switch

ALLOW_PLAIN_HTTP = "RECON_ALLOW_PLAIN_HTTP"


class PlainHttpRefused(ValueError):
    """A key would be sent over plain HTTP to another machine; the message names the setting and the host, never the key."""


def plain_http_allowed(setting: str) -> bool:
    """Whether RECON_ALLOW_PLAIN_HTTP `setting` ('1' allows; '0' or '' when unset does not) lets a key go over plain
    HTTP to another machine.

    Raises:
        ValueError: another value, named as the other RECON_* switches name theirs (`switches.checked_switch`).
    """
    return checked_switch(ALLOW_PLAIN_HTTP, setting, ("0", "1")) == "1"


def is_loopback(host: str | None) -> bool:
    """Whether `host` (a URL's host name, no brackets) is this machine: 'localhost', an address of 127.0.0.0/8 or ::1
    (RFC 6890 loopback). Any other name is taken to be another machine, even one that resolves to loopback."""
    if not host:
        return False
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_key_transport(url_setting: str, url: str, key_variable: str, environ: Mapping[str, str] | None = None) -> None:
    """Refuse sending `key_variable`'s key to `url` (the value of the setting `url_setting`) over plain HTTP to another
    machine, unless RECON_ALLOW_PLAIN_HTTP in `environ` (default os.environ) is '1'. Call it only when the key would
    be sent.

    Raises:
        PlainHttpRefused: `url` is `http://` to a host that is not loopback (one line: the setting, the host, the way out).
        ValueError: RECON_ALLOW_PLAIN_HTTP is neither '1', '0' nor unset; `url` is not a URL urllib can split, or
            has no http:// or https:// scheme ('example.com:80').
    """
    environ = os.environ if environ is None else environ
    allowed = plain_http_allowed(environ.get(ALLOW_PLAIN_HTTP) or "")
    parts = urlsplit(url.strip())
    if url.strip() and parts.scheme not in ("http", "https"):  # 'example.com:80' reads as scheme 'example.com'
        raise ValueError(f"{url_setting} must start with https:// (or http://), and this value does not (not shown: it may hold a key)")
    if parts.scheme != "http" or allowed:
        return
    way_out = f"use https://, or set {ALLOW_PLAIN_HTTP}=1 to send it anyway"
    if not is_loopback(parts.hostname):
        raise PlainHttpRefused(
            f"{url_setting} is plain http:// to {parts.hostname or 'no host'}, which would send {key_variable} unencrypted: {way_out}"
        )
    proxy_variable, proxy_host = _http_proxy(environ, parts.hostname)
    if proxy_host is not None and not is_loopback(proxy_host):
        raise PlainHttpRefused(
            f"{url_setting} is plain http:// and {proxy_variable} sends it through the proxy {proxy_host}, which would "
            f"carry {key_variable} unencrypted: {way_out}, or add {parts.hostname} to NO_PROXY"
        )


def _http_proxy(environ: Mapping[str, str], host: str | None) -> tuple[str | None, str | None]:
    """(the variable, the proxy's host) of the proxy a plain-http request to `host` would go through: HTTP_PROXY, else
    ALL_PROXY (either case), unless NO_PROXY bypasses `host` (`urllib.request.proxy_bypass_environment`); (None, None)
    without one."""
    found = {name.lower(): (name, value) for name, value in environ.items() if name.lower().endswith("_proxy") and value}
    proxies = {name[: -len("_proxy")]: value for name, (_, value) in found.items()}
    if host and proxy_bypass_environment(host, proxies):
        return None, None
    for scheme in ("http", "all"):
        if scheme in proxies:
            return found[f"{scheme}_proxy"][0], urlsplit(proxies[scheme] if "://" in proxies[scheme] else f"http://{proxies[scheme]}").hostname
    return None, None
