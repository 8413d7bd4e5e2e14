"""The name this program goes by: ``connect-four`` installed, ``connect.py`` in a checkout.

Its messages, ``--version``, ``--help`` and the commands it prints for a
friend all name it the way the player started it.
"""

from __future__ import annotations

import os
import sys

__all__ = ["CHECKOUT_SCRIPT", "INSTALLED_COMMAND", "program_name", "program_words"]

INSTALLED_COMMAND = "connect-four"
"""The game's command when installed with pip (pyproject.toml's [project.scripts])."""

CHECKOUT_SCRIPT = "connect.py"
"""The game's file in a checkout, run as ``python3 connect.py`` (and by the course's grader)."""


def program_name(argv0: str | None = None) -> str:
    """``connect-four`` when started as the installed command, else ``connect.py``.

    >>> program_name("/home/ann/.local/bin/connect-four"), program_name("connect.py")
    ('connect-four', 'connect.py')
    """
    if argv0 is None:
        argv0 = sys.argv[0] if sys.argv else ""
    name = os.path.basename(argv0)
    return INSTALLED_COMMAND if name == INSTALLED_COMMAND else CHECKOUT_SCRIPT


def program_words(argv0: str | None = None) -> list[str]:
    """The words a shell runs this program with: ``connect-four``, or ``python3 connect.py``.

    >>> program_words("connect-four"), program_words("connect.py")
    (['connect-four'], ['python3', 'connect.py'])
    """
    name = program_name(argv0)
    return [name] if name == INSTALLED_COMMAND else ["python3", name]
