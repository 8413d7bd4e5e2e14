"""Helpers shared by the tests that run connect.py as a program."""

from __future__ import annotations

import os
import runpy
import signal
import subprocess
import sys
from pathlib import Path

# The dialog format is read in one place, tools/dialogs.py (the release check reads it too).
from tools.dialogs import dialog_inputs as dialog_inputs
from tools.dialogs import harness_transcript as harness_transcript
from tools.dialogs import piped_transcript as piped_transcript

ROOT = Path(__file__).resolve().parent.parent
CONNECT = ROOT / "connect.py"
TEST_FILES = ROOT / "test_files"


def read_dialog(path: Path) -> str:
    """A dialog file's text with any carriage returns in it kept as written."""
    with open(path, encoding="utf-8", newline="") as file:
        return file.read()


def dialog_arguments(dialog: Path) -> list[str]:
    """The command-line arguments of an option dialog: its .args file, one a line."""
    return dialog.with_suffix(".args").read_text(encoding="utf-8").split("\n")[:-1]


def run_piped(stdin: bytes, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """Run connect.py with ``stdin`` piped in; capture both streams.

    NO_COLOR is left out of its environment: the --color dialogs show
    colours whatever the machine running the tests has set.
    """
    return subprocess.run(
        [sys.executable, str(CONNECT), *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        cwd=ROOT,
        env=without_no_color(),
    )


def without_no_color() -> dict[str, str]:
    """This process's environment without NO_COLOR."""
    return {name: value for name, value in os.environ.items() if name != "NO_COLOR"}


def run_like_the_harness(inputs, *arguments, on_line=None, errors=None):
    """Run connect.py with print/input replaced, as byu-pytest-utils does; return what it showed.

    ``on_line``, when given, is called with each line printed to standard
    output as it is printed (a network test's friend reads the join command);
    ``errors``, a list, gets each line printed to another file (stderr).
    """
    shown = []
    pending = list(inputs)

    def fake_input(prompt=""):
        shown.append(prompt)
        text = pending.pop(0)
        shown.append(text.rstrip("\r") + "\n")
        return text

    def strict_print(*values, **options):
        assert len(values) == 1 and isinstance(values[0], str), values
        assert set(options) <= {"file"}, options
        if "file" not in options:
            shown.append(values[0] + "\n")
            if on_line is not None:
                on_line(values[0])
        elif errors is not None:
            errors.append(values[0])

    saved = sys.argv
    sys.argv = [str(CONNECT), *arguments]
    try:
        runpy.run_path(str(CONNECT), {"print": strict_print, "input": fake_input}, "__main__")
    finally:
        sys.argv = saved
    assert pending == []
    return "".join(shown)


def default_sigint() -> None:
    """Give a child the default Ctrl-C (``preexec_fn``), for tests that interrupt it.

    A shell without job control starts its background jobs ignoring SIGINT,
    and a program started so rightly keeps ignoring it; a test run from such
    a job would otherwise see its Ctrl-C ignored.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
