"""Loopback addresses handed out once each: no two browser tests' servers share an origin.

A browser context keeps what a page stored for its origin (local storage,
IndexedDB, Cache Storage, service workers, permissions, cached responses)
and cookies for its host, whatever the port. The browser tests keep their
contexts from test to test (tests/browser/context_pool.py); what keeps a
test from finding another's state is that every server a browser test
starts listens on an address this process (with its one chromium) never
handed out before. Linux answers on every address of 127.0.0.0/8, and
chromium counts each of them a secure context, as it does 127.0.0.1.
"""

from __future__ import annotations

import itertools

FIRST = 1 << 16
"""127.1.0.0: the addresses handed out start above 127.0.0.x, which other tests' servers use."""

LAST = (1 << 24) - 1
"""127.255.255.255, the end of 127.0.0.0/8."""

_numbers = itertools.count(FIRST)


def fresh_host() -> str:
    """An address of 127.0.0.0/8 that this process has not handed out before."""
    number = next(_numbers)
    while number & 0xFF in (0, 0xFF):  # no network or broadcast look-alikes
        number = next(_numbers)
    assert number < LAST, "16 million servers in one session"
    return f"127.{number >> 16}.{(number >> 8) & 0xFF}.{number & 0xFF}"
