"""The secrets recon_assets reads from the environment: checked once at start-up, and kept out of every error text.

Four secrets exist, each only ever read from its environment variable (`SECRET_VARIABLES`): OPENALEX_API_KEY,
GROQ_API_KEY, HF_TOKEN and MOTHERDUCK_TOKEN (a MotherDuck database's, `storage.duckdb_store`). No Dagster import: `recon explain` uses `redact` too.

- `usable_secrets` strips the whitespace a copy-paste or a `$(cat keyfile)` leaves around a value and refuses one
  that still holds a space or a control character: an HTTP library refuses such a header value and its error text
  (holding `Bearer <key>`) used to land in tables, the event log and the terminal.
- `redact` is the one place error texts pass through before they are stored or printed, whatever their source
  (an HTTP library, the hub client, a server's answer): it removes the configured secret values themselves, whatever
  their shape (those of SECRET_VARIABLES as set, and every key a client was handed: `remember_secret`), as typed and
  as a URL, a repr, JSON or HTML spells them, and anything shaped like a credential (a bearer token, an `api_key=`
  parameter, a Hugging Face `hf_...` or Groq `gsk_...` token).
- `redacted_causes` keeps them out of an exception's chain: where a client turns a library exception (its text may
  echo a key a server was sent) into the project's own error, the whole chain leaves redacted, since Dagster stores
  every cause of a failed step in its event log.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from urllib.parse import quote, quote_plus

SECRET_VARIABLES = ("OPENALEX_API_KEY", "GROQ_API_KEY", "HF_TOKEN", "MOTHERDUCK_TOKEN")
REDACTED = "[redacted]"
# Credential shapes redacted even when the value is not in this process's environment (a key echoed back by a
# server, another process's token in a library message, a KG source's URL): RFC 6750 bearer tokens, `api_key`/`api-key`/`token` query
# or form parameters, Hugging Face user access tokens (`hf_` + 30 or more letters and digits,
# https://huggingface.co/docs/hub/security-tokens) and Groq API keys (`gsk_` + letters and digits).
_CREDENTIAL_SHAPES = (
    (re.compile(r"(?i)(\bbearer\s+)[^\s'\"]+"), r"\1" + REDACTED),
    (re.compile(r"(?i)(\b(?:api[_-]?key|token|access_token)=)[^&\s'\"]+"), r"\1" + REDACTED),
    (re.compile(r"\bhf_[A-Za-z0-9]{30,}"), REDACTED),
    (re.compile(r"\bgsk_[A-Za-z0-9]{20,}"), REDACTED),
    # A URL's user information (RFC 3986 section 3.2.1, `https://user:password@host`, deprecated there for the password
    # it carries); one slash too, as a path made absolute spells a URL (`/work/https:/user:password@host/graph.json`).
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*:/{1,2})[^/\s@'\"]+@"), r"\1" + REDACTED + "@"),
    # A query parameter whose name is a credential's, with a prefix (`motherduck_token`, S3's presigned `X-Amz-Signature`
    # and `X-Amz-Credential`, `sig`, `password`).
    (re.compile(r"(?i)([?&;](?:[\w.-]*[_.-])?(?:api[_-]?key|apikey|key|token|secret|password|passwd|pwd|signature|sig|credential|auth)=)[^&\s'\"#]+"),
     r"\1" + REDACTED),
)
# How a configured secret value is found in a text, by its length (`redact`). Real keys are far longer than 8
# characters (OpenAlex, Groq and Hugging Face issue 20 and more), but whatever value is configured is what a client sends
# and what a server can echo, so every value is redacted; a short one only where it cannot be part of an ordinary word.
SUBSTRING_CHARACTERS = 8  # this long or longer: every occurrence, glued to other text or not
TOKEN_CHARACTERS = 4  # 4-7: every occurrence standing alone (no letter or digit right before or after it)
# 1-3 characters: a standalone occurrence right after a credential's name and a space, colon, equals sign or quote
# (or one word and a colon: "API key provided: ab"), or as the value of a query or form parameter (`?k=ab&`): such a
# value alone is an ordinary word ("a", "an", "key") or part of one, and redacting it everywhere would destroy the text
# around it.
_CREDENTIAL_NAME = r"(?i:\b(?:api[_-]?keys?|access[_-]?tokens?|keys?|tokens?|bearer|authorization|passwords?|secrets?|credentials?)\b)"
# Keys handed to a client in this process (`remember_secret`), e.g. through Dagster's {env: NAME} from a variable
# other than SECRET_VARIABLES: redacted like the environment's.
_REMEMBERED: set[str] = set()
# A usable key is visible ASCII only (RFC 9110 token68 characters are a subset): no space, no control character.
_USABLE = re.compile(r"[\x21-\x7e]+")


class UnusableSecretError(ValueError):
    """A secret's environment variable holds a value no HTTP header can carry; the message never holds the value."""


def secret_is_set(variable: str) -> bool:
    """Whether the environment variable `variable` holds more than whitespace: a blank key is no key (hostile pass:
    OPENALEX_API_KEY set to a tab turned OpenAlex online, every request then sent without a usable key)."""
    return bool((os.environ.get(variable) or "").strip())


def usable_secrets(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The secrets set in `environ` (default os.environ), each stripped of surrounding whitespace.

    Returns:
        {variable: stripped value} for each of SECRET_VARIABLES set to a non-blank value.

    Raises:
        UnusableSecretError: a value holds a space, a control character or a non-ASCII character inside it; the
            message names the variable and the position of the first bad character, never the value.
    """
    environ = os.environ if environ is None else environ
    usable = {}
    for variable in SECRET_VARIABLES:
        value = (environ.get(variable) or "").strip()
        if not value:
            continue
        if not _USABLE.fullmatch(value):
            position = next(i for i, char in enumerate(value) if not _USABLE.fullmatch(char))
            raise UnusableSecretError(
                f"{variable} is not usable: character {position + 1} of its {len(value)} (after stripping surrounding "
                f"whitespace) is a space, a control or a non-ASCII character, which no HTTP header can carry; set it "
                f"to the key exactly as issued"
            )
        usable[variable] = value
    return usable


# A setting's value an error message quotes is at most this long (shown_setting); every switch word and date is shorter.
SHOWN_SETTING_CHARACTERS = 20


def shown_setting(value: str) -> str:
    """`value` (a setting as typed: RECON_*, --as-of) as an error message may quote it: the repr of its `redact`ed
    text when at most SHOWN_SETTING_CHARACTERS long, else only its length. A long value typed into a setting is as
    likely a key pasted into the wrong variable (OpenAlex keys have no shape `redact` could recognise) as anything
    else, and the message stays one short line."""
    if len(value) > SHOWN_SETTING_CHARACTERS:
        return f"a value of {len(value):,} characters (not shown: it may be a key)"
    return repr(redact(value))


def remember_secret(value: str | None) -> None:
    """Have `redact` remove `value` (a key a client was handed, wherever it came from) from now on in this process."""
    if value and value.strip():
        _REMEMBERED.add(value.strip())


def spellings(value: str) -> set[str]:
    """The ways an error text can spell `value`: as typed; percent-encoded (RFC 3986 `quote`, and `quote_plus` as
    requests encodes a query parameter); inside a Python repr (a quote escaped, as `str(error)` of an SDK error shows
    the parsed body: `{'error': {'message': '... api key ab\\'c ...'}}`), a JSON string and HTML text."""
    escaped = value.replace("\\", "\\\\")
    return {
        value, quote(value, safe=""), quote(value), quote_plus(value, safe=""), json.dumps(value)[1:-1], html.escape(value),
        escaped.replace("'", "\\'"), escaped.replace('"', '\\"'), escaped.replace("'", "\\'").replace('"', '\\"'),
    }


def redact(text: object, environ: Mapping[str, str] | None = None) -> str:
    """`text` as a string with every secret removed: the configured secret values (those of SECRET_VARIABLES in
    `environ`, default os.environ, raw and stripped, and every `remember_secret`ed key), each in every `spellings`
    form, and every credential-shaped substring become '[redacted]'.

    Every configured value is redacted, whatever its length (a key is what a client sends and a server may echo), but
    a short value is also an ordinary word or part of one, so where it is looked for depends on its length:
    SUBSTRING_CHARACTERS (8) or more, every occurrence; TOKEN_CHARACTERS (4) to 7, every occurrence that is not part of
    a longer run of letters and digits ("k3y5" in "key k3y5." but not in "k3y5x"); 1 to 3, only such an occurrence
    right after a credential's name (api key, token, bearer, authorization, password, secret, credentials) and a
    space, colon, equals sign or quote, or one word and a colon ("Incorrect API key provided: ab"), or as a query or
    form parameter's value ("?key=ab&"). A
    1-3 character value anywhere else is left: it is an article, a unit or a syllable far more often than a key, and
    no issued key is that short.

    Use it on every error text before it is stored (a table, metadata, a failure) or printed.
    """
    environ = os.environ if environ is None else environ
    result = str(text)
    values = set()
    for raw in [environ.get(variable) or "" for variable in SECRET_VARIABLES] + sorted(_REMEMBERED):
        for value in (raw, raw.strip()):
            if value.strip():
                values |= spellings(value)
    for value in sorted(values, key=len, reverse=True):
        result = _value_pattern(value).sub(lambda match: (match.group("before") or "") + REDACTED, result)
    for pattern, replacement in _CREDENTIAL_SHAPES:
        result = pattern.sub(replacement, result)
    return result


def error_line(error: BaseException) -> str:
    """'<type>: <first line of its message>' (the type alone when the message is empty), without secrets (`redact`: a
    library's error may quote a URL with its key)."""
    first = next((line.strip() for line in str(error).splitlines() if line.strip()), "")
    return redact(f"{type(error).__name__}: {first}" if first else type(error).__name__)


def _value_pattern(value: str) -> re.Pattern[str]:
    """Where `redact` looks for one spelling of a configured value, by its length (its docstring); group `before` is
    the credential's name or parameter before a 1-3 character value, kept."""
    escaped = re.escape(value)
    if len(value) >= SUBSTRING_CHARACTERS:
        return re.compile(f"(?P<before>){escaped}")
    alone = rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])"
    if len(value) >= TOKEN_CHARACTERS:
        return re.compile(f"(?P<before>){alone}")
    return re.compile(rf"(?P<before>{_CREDENTIAL_NAME}(?:\s+\w+\s*[:=]\s*|[\s:='\"]{{1,4}})|[?&;][^\s=&;]*=){alone}")


class RedactedCause(Exception):
    """Stands in an exception's chain for an exception whose text may hold a secret (`redacted_causes`): its text is
    that exception's qualified type name and `redact`ed text, its traceback (code locations, no values) is kept."""


@contextmanager
def redacted_causes() -> Iterator[None]:
    """A context manager and decorator: an exception leaving it has every exception of its chain (`__cause__` and
    `__context__`, recursively) replaced by a `RedactedCause` copy, whether the chain is shown or suppressed.

    The exception itself is left as raised: it is the project's own error, its text already `redact`ed where it was
    written. Put it where a client turns a library exception into that error (`raise ... from error`): the library
    exception, e.g. huggingface_hub's error quoting a server's answer that echoes the token it was sent, no longer
    reaches Dagster's event log or a printed traceback in clear, and its type, redacted text and traceback stay for
    whoever reads the failure.
    """
    try:
        yield
    except BaseException as error:
        copies: dict[int, RedactedCause] = {}
        suppressed = error.__suppress_context__
        error.__cause__ = _redacted_copy(error.__cause__, copies)
        error.__context__ = _redacted_copy(error.__context__, copies)
        error.__suppress_context__ = suppressed
        raise


def _redacted_copy(error: BaseException | None, copies: dict[int, RedactedCause]) -> RedactedCause | None:
    """`error` and its chain as `RedactedCause`s (`copies`: those made so far, so an exception that is both a cause
    and a context is copied once); None for None."""
    if error is None or isinstance(error, RedactedCause):
        return error
    if id(error) not in copies:
        kind = type(error)
        copy = copies[id(error)] = RedactedCause(f"{kind.__module__}.{kind.__qualname__}: {redact(error)}").with_traceback(error.__traceback__)
        for note in getattr(error, "__notes__", ()):
            copy.add_note(redact(note))
        copy.__cause__ = _redacted_copy(error.__cause__, copies)
        copy.__context__ = _redacted_copy(error.__context__, copies)
        copy.__suppress_context__ = error.__suppress_context__
    return copies[id(error)]
