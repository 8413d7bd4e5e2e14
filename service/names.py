"""Which player names a game may have: each is a path segment of its move URLs.

A name travels in ``POST /drop_token/{gameId}/{playerId}``: "/" would split
it in two, "." and ".." are dropped or climbed out of by every URL parser on
the way (browsers, curl, proxies), even percent-encoded as ``%2e``, and a
control character (NUL, escape, the C1 range) is no text a person types and
may act on a log or a terminal that shows it. Everything else, ``?``, ``#``,
``%``, spaces and all of Unicode, travels percent-encoded, as the page and
the terminal game send it.
"""

from __future__ import annotations

import re

__all__ = ["DOT_NAMES", "NAME_PATTERN", "name_problem"]

_REFUSED_CHARACTERS = r"/\x00-\x1f\x7f-\x9f"
"""The characters no name holds, as a regular expression's class: "/" and the C0 and C1 controls."""

NAME_PATTERN = rf"^[^{_REFUSED_CHARACTERS}]+$"
"""The characters a name may hold (the OpenAPI document states it; ``.`` and ``..`` aside)."""

DOT_NAMES = (".", "..")
"""The names the pattern lets through that a URL's path drops or climbs out of."""

_REFUSED = re.compile(f"[{_REFUSED_CHARACTERS}]")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None if it can.

    >>> name_problem("ann"), name_problem("a?b#c%d")
    (None, None)
    >>> name_problem("..")
    "cannot be '..': a URL's path drops it"
    >>> name_problem("a\\x00b")
    "holds the control character U+0000 at 1: a name holds no control character and no '/'"
    """
    if name in DOT_NAMES:
        return f"cannot be {name!r}: a URL's path drops it"
    refused = _REFUSED.search(name)
    if refused is not None:
        character = refused.group()
        what = "'/'" if character == "/" else f"the control character U+{ord(character):04X}"
        return f"holds {what} at {refused.start()}: a name holds no control character and no '/'"
    return None
