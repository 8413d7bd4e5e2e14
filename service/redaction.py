"""Database names with their secrets masked, for every message and log line.

``--db`` may carry a password in any form libpq reads: a URL's user part
(``postgresql://c4:secret@host/games``), a query parameter
(``?password=secret``, its name or value percent-encoded, ``%70assword=``),
or a ``key=value`` connection string (``host=db password='se cret'``);
``sslpassword`` likewise. :func:`redacted` masks each of them, and
:func:`scrub` also masks them wherever they reappear in another text (a
driver's message quoting the connection string). Clients never see even
the redacted name (:mod:`connect_four.service.error_table` answers storage
faults with a generic sentence); the server's log and its start-up line do.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

__all__ = ["MASK", "redacted", "scrub", "secrets_in"]

MASK = "***"
"""What a secret is replaced with."""

_SECRET_KEYS = frozenset({"password", "sslpassword"})
"""libpq's parameters whose values are secrets."""

_URL = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<rest>.*)$", re.DOTALL)

# key = value in a connection string: a value is quoted ('...', \' and \\
# escaped) or runs to the next blank. Generous: a key anywhere in the text.
_KEY_VALUE = re.compile(
    r"(?P<key>\b(?:ssl)?password\s*=\s*)(?P<value>'(?:[^'\\]|\\.)*'?|[^\s&]*)",
    re.IGNORECASE | re.DOTALL,
)


def redacted(db: str) -> str:
    """``db`` with every password masked, in every form libpq accepts.

    >>> redacted("postgresql://c4:pw@db/games?sslmode=require&password=pw2")
    'postgresql://c4:***@db/games?sslmode=require&password=***'
    >>> redacted("host=db password='a b' dbname=games")
    'host=db password=*** dbname=games'
    >>> redacted("games.db")
    'games.db'
    """
    return _redact(db)[0]


def secrets_in(db: str) -> frozenset[str]:
    """The secrets ``db`` holds, as written and percent-decoded.

    >>> sorted(secrets_in("postgresql://c4:p%40ss@db/games"))
    ['p%40ss', 'p@ss']
    """
    return _redact(db)[1]


def scrub(text: str, db: str) -> str:
    """``text`` with ``db`` redacted and every secret of ``db`` masked wherever it appears.

    >>> scrub('bad password "hunter22" for postgresql://u:hunter22@h/d', "postgresql://u:hunter22@h/d")
    'bad password "***" for postgresql://u:***@h/d'
    """
    text = text.replace(db, redacted(db)) if db else text
    # Longest first: a secret that contains another is masked whole. A
    # secret of one or two characters would mask half the text; its
    # structured forms are masked above and below all the same.
    for secret in sorted(secrets_in(db), key=len, reverse=True):
        if len(secret) >= 3:
            text = text.replace(secret, MASK)
    return _KEY_VALUE.sub(lambda match: match["key"] + MASK, text)


def _redact(db: str) -> tuple[str, frozenset[str]]:
    """``db`` redacted, and the secrets taken out of it."""
    secrets: set[str] = set()
    url = _URL.match(db)
    if url is None:
        return _redact_key_values(db, secrets), _found(secrets)
    scheme, rest = url["scheme"], url["rest"]
    # The user part ends at the last "@" (generous: a password with an
    # unencoded "@" or "/" is masked whole); a password follows its first ":".
    at = rest.rfind("@")
    if at >= 0:
        user, _, password = rest[:at].partition(":")
        if password:
            secrets.add(password)
            rest = f"{user}:{MASK}{rest[at:]}"
    query_at = rest.find("?", max(at, 0))
    if query_at >= 0:
        head, query = rest[: query_at + 1], rest[query_at + 1 :]
        rest = head + "&".join(_redact_parameter(part, secrets) for part in query.split("&"))
    return _redact_key_values(scheme + rest, secrets), _found(secrets)


def _redact_parameter(parameter: str, secrets: set[str]) -> str:
    """One ``key=value`` of a URL's query, its value masked if the key names a secret."""
    key, equals, value = parameter.partition("=")
    if equals and unquote(key).strip().lower() in _SECRET_KEYS:
        if value:
            secrets.add(value)
        return f"{key}={MASK}"
    return parameter


def _redact_key_values(text: str, secrets: set[str]) -> str:
    """``text`` with the values of ``password=`` and ``sslpassword=`` masked."""

    def mask(match: re.Match[str]) -> str:
        value = match["value"]
        if value and value != MASK:
            secrets.add(value)
            if value.startswith("'"):
                secrets.add(re.sub(r"\\(.)", r"\1", value.strip("'")))
        return match["key"] + MASK

    return _KEY_VALUE.sub(mask, text)


def _found(secrets: set[str]) -> frozenset[str]:
    """The secrets, each also percent-decoded; none empty."""
    return frozenset(form for secret in secrets for form in (secret, unquote(secret)) if form)
