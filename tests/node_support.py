"""Node, for the tests that run the page's scripts outside the browser (tests/*.mjs)."""

from __future__ import annotations

import shutil

from ci_support import unavailable


def node_program() -> str:
    """Node's path; a test without it skips on a developer's machine and fails in CI."""
    node = shutil.which("node")
    if node is None:
        unavailable(
            "node is not installed: the page's scripts cannot be run (apt-get install nodejs)"
        )
    return node
