"""The RECON_* switches: environment variables that take one of a few words (RECON_OPENALEX, RECON_CROSSREF,
RECON_GROQ, RECON_KG_SOURCE). A word outside them is an error naming the variable, never a silent default."""

from __future__ import annotations

from recon_assets.shared.credentials import shown_setting

ONLINE, OFFLINE = "online", "offline"


def checked_switch(name: str, setting: str, allowed: tuple[str, ...] = (ONLINE, OFFLINE)) -> str:
    """`setting` (the variable's value, '' when unset) when it is '' or one of `allowed`.

    Raises:
        ValueError: another value, e.g. "RECON_CROSSREF must be 'online', 'offline' or unset, got 'yes'" (the value
            quoted by `credentials.shown_setting`: never a key).
    """
    if setting not in ("", *allowed):
        words = ", ".join(f"'{word}'" for word in allowed)
        raise ValueError(f"{name} must be {words} or unset, got {shown_setting(setting)}")
    return setting
