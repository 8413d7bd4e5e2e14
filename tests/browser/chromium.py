"""Which chromium the browser tests drive, with which arguments, and how it names itself.

A module of its own, light to import: the root conftest.py names the
browser in the report's header even on runs without browser tests.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Playwright stays unimported for the report's header
    from playwright.sync_api import Browser, Playwright

HEADLESS_SHELL = Path(
    os.environ.get("CONNECT_FOUR_HEADLESS_SHELL", "/usr/bin/chromium-headless-shell")
)
"""Debian's chromium-headless-shell (apt package ``chromium-headless-shell``), built from
chromium's sources with the same Blink and V8, without the browser around the page (what
Playwright's own headless runs use): the page's tests drive it. A page costs it 0.19 s of
CPU where chromium takes 0.33 s (measured on 2026-11-26, Chromium 156)."""

CHROMIUM = Path(os.environ.get("CONNECT_FOUR_CHROMIUM", "/usr/bin/chromium"))
"""Debian's chromium (apt package ``chromium``), the browser users run: the tests marked
``both_browsers`` (isolation, a game of each kind, the docs) drive it too. Playwright's own
downloads are never used."""

SHELL_NAME, FULL_NAME = "headless-shell", "chromium"
"""The names a test's id gives the two browsers: every test drives the first."""

BROWSERS = {SHELL_NAME: HEADLESS_SHELL, FULL_NAME: CHROMIUM}
"""The browsers the tests drive, by name."""

CHROMIUM_ARGUMENTS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # One renderer for all of a context's pages, whatever their site, so
    # that each test's new page takes over the last one's renderer
    # (tests/browser/context_pool.py): site isolation would give each
    # test's origin a process of its own, compiled from scratch.
    "--disable-site-isolation-trials",
    "--renderer-process-limit=1",
    # Chromium 156 preloads the address bar's popup as a WebUI page in a
    # renderer of its own for every window, headless too, so every new
    # context cost half a second of CPU more (3.6 s for ten, 1.0 s without,
    # measured on 2026-11-26); no test looks at the address bar. Older
    # chromiums ignore the names they do not know.
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
]

LAUNCHER = Path(__file__).with_name("launch_chromium.sh")
"""Starts a browser with Playwright's --disable-features and ours merged: chromium obeys only
the last one given, and Playwright gives its own first (HTTPS upgrades off, among others)."""


def launch(driver: Playwright, executable: Path = HEADLESS_SHELL) -> Browser:
    """``executable`` (one of BROWSERS), headless, with CHROMIUM_ARGUMENTS and a fresh profile."""
    return driver.chromium.launch(
        executable_path=str(LAUNCHER),
        args=CHROMIUM_ARGUMENTS,
        env={**os.environ, "CONNECT_FOUR_CHROMIUM": str(executable)},
    )


VERSION_SECONDS = 30
"""The longest ``chromium --version`` may take (it takes 0.1 s)."""


def chromium_header(executable: Path) -> str:
    """One line for the test report: the executable and the version it gives, or what is wrong.

    Never raises: a machine without the browser still runs every other test.
    """
    package = executable.name
    if not executable.exists():
        return (
            f"chromium: {executable} is missing (the browser tests fail: apt-get install {package})"
        )
    try:
        answer = subprocess.run(
            [str(executable), "--version"],
            capture_output=True,
            text=True,
            timeout=VERSION_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"chromium: {executable} does not run: {error}"
    # Debian's launcher script may complain on stderr; the version is stdout's one line.
    version = answer.stdout.strip()
    if answer.returncode != 0 or not version:
        return f"chromium: {executable} --version failed with {answer.returncode}"
    return f"chromium: {executable}, {version}"


def browsers_header() -> list[str]:
    """The report's header lines: each browser the tests drive, and its version."""
    return [chromium_header(executable) for executable in BROWSERS.values()]
