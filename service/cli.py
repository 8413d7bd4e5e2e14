"""The service's command line: ``python -m connect_four.service [--host H] [--port P] [--db FILE_OR_URL]``.

Also the ``connect-four-service`` command's entry point (:func:`main`). The
settings are :class:`connect_four.service.settings.Settings`'s; serving is
:mod:`connect_four.service.serving`'s. Importing this module needs no extra.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from .install_hint import install_command

if TYPE_CHECKING:
    from .settings import Settings


def main(argv: list[str] | None = None) -> None:
    """Parse the flags and the environment, then serve until interrupted.

    Installed without the service extra, say what to install in one line
    (exit status 1) instead of a traceback.
    """
    serve = _serve()
    from .settings import Settings

    serve(Settings.from_command_line(argv))


def _serve() -> Callable[[Settings], None]:
    """What serves, or the end of the program when the service extra is missing."""
    try:
        from . import serving
    except ModuleNotFoundError as missing:
        print(
            f"connect-four-service: {missing.name} is not installed; the web service "
            f"needs the service extra: {install_command('service')}",
            file=sys.stderr,
        )
        sys.exit(1)
    return serving.serve
