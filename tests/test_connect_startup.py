"""The assignment's game starts lean: what only options need is not loaded without them."""

from __future__ import annotations

import subprocess
import sys

from connect_support import CONNECT, ROOT

# Loaded on first use only: the parser, signals, the solver and every extra.
NOT_ON_THE_DEFAULT_PATH = (
    "argparse",
    "connect_four.terminal.options",
    "signal",
    "connect_four.engine.solver",
    "connect_four.engine.bitboard",
    "connect_four.terminal.computer",
    "connect_four.terminal.commands",
    "connect_four.terminal.match",
    "connect_four.terminal.pacing",
    "connect_four.terminal.streams",
    # The network game's client and everything it speaks with.
    "connect_four.terminal.network",
    "connect_four.terminal.network_game",
    # What cuts a network prompt short when the friend quits.
    "connect_four.terminal.news",
    "threading",
    "urllib.request",
    "http.client",
    "json",
    "socket",
)


def test_default_game_loads_no_option_machinery():
    script = (
        "import runpy, sys\n"
        f"runpy.run_path({str(CONNECT)!r}, run_name='__main__')\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        input=b"0\n7\n0\n6\n0\n5\n0\n",
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(b"Game finished.\n")
    loaded = set(result.stderr.decode().split())
    assert "connect_four.terminal.session" in loaded  # the check sees the game's modules at all
    assert loaded.isdisjoint(NOT_ON_THE_DEFAULT_PATH), loaded & set(NOT_ON_THE_DEFAULT_PATH)
