"""The CPU a browser spends on one page of the game, for each browser the browser tests drive.

For each of ``tests/browser/chromium.py``'s BROWSERS, launched as the tests
launch it: one browser context, then ``--pages`` times a new page opened
before the last one closes (as the tests' context pool lends them), sent to
the service's page at a loopback address it has not seen (each page a service
of its own, as each test has), and waited for until the network is idle. It prints the CPU
each kind of process below this one used per page (the browser's own, its
renderer, its GPU and network processes, Playwright's driver, the service),
from /proc, Linux only. A figure, never a check: read it with the load.

    python -m bench.browser_pages              # 12 pages on each browser
    python -m bench.browser_pages --pages 30
"""

from __future__ import annotations

import argparse
import collections
import importlib
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

REPOSITORY = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def _process_kind(stat: str, command: bytes) -> str:
    """What a process is: chromium's --type (and utility sub-type), "browser", else its name."""
    kind = re.search(rb"--type=(\S+)", command)
    sub_type = re.search(rb"--utility-sub-type=([a-z_]+)", command)
    name = stat[stat.find("(") + 1 : stat.rfind(")")]
    if kind is None:
        return "browser" if name.startswith("chromium") else name
    return kind.group(1).decode() + (f" {sub_type.group(1).decode()}" if sub_type else "")


def cpu_below(root: int) -> dict[str, float]:
    """The CPU seconds each kind of process below ``root`` has used so far (the living ones)."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    used: dict[int, tuple[str, float]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            command = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue  # ended meanwhile
        fields = stat[stat.rfind(")") + 2 :].split()
        children[int(fields[1])].append(int(name))
        used[int(name)] = (
            _process_kind(stat, command),
            (int(fields[11]) + int(fields[12])) / TICKS,
        )
    totals: dict[str, float] = collections.defaultdict(float)
    waiting = list(children[root])
    while waiting:
        pid = waiting.pop()
        kind, seconds = used[pid]
        totals[kind] += seconds
        waiting.extend(children[pid])
    return totals


def measure(browser_name: str, executable: Path, addresses: list[str]) -> str:
    """Open a page at each address in ``executable`` as the tests do; the CPU a page, by process."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = _tests_module("browser.chromium").launch(driver, executable)
        context = browser.new_context()
        last = context.new_page()
        last.goto("about:blank")
        before, started = cpu_below(os.getpid()), time.process_time()
        for address in addresses:
            page = context.new_page()
            last.close()
            page.goto(address + "/")
            page.wait_for_load_state("networkidle")
            last = page
        after, ended = cpu_below(os.getpid()), time.process_time()
        browser.close()
    pages = len(addresses)
    spent = {kind: (after[kind] - before.get(kind, 0.0)) / pages * 1000 for kind in after}
    spent["this process"] = (ended - started) / pages * 1000
    shown = sorted(((ms, kind) for kind, ms in spent.items() if ms >= 0.5), reverse=True)
    total = sum(ms for ms, _ in shown)
    return f"{browser_name} ({executable}): {total:.0f} ms of CPU a page: " + ", ".join(
        f"{kind} {ms:.0f}" for ms, kind in shown
    )


def _tests_module(name: str) -> ModuleType:
    """A module of the tests' helpers, tests/ put on the path: the browsers, their arguments
    and the servers measured are the browser tests' own."""
    if str(REPOSITORY / "tests") not in sys.path:
        sys.path.insert(0, str(REPOSITORY / "tests"))
    return importlib.import_module(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=12, help="pages on each browser (12)")
    options = parser.parse_args()
    if not 1 <= options.pages <= 50:
        parser.error("--pages: from 1 to 50 (each on an address of its own)")
    browsers: dict[str, Path] = _tests_module("browser.chromium").BROWSERS
    fresh_host = _tests_module("browser.fresh_hosts").fresh_host
    server_class = _tests_module("server_support").Server

    print(
        time.strftime("%Y-%m-%d %H:%M %Z"), "load", *Path("/proc/loadavg").read_text().split()[:3]
    )
    with tempfile.TemporaryDirectory() as folder:
        servers = [
            server_class(Path(folder) / f"games-{number}.db", host=fresh_host())
            for number in range(options.pages * len(browsers))
        ]
        try:
            for server in servers:
                server.start()
            addresses = iter([server.url for server in servers])
            for browser_name, executable in browsers.items():
                ours = [next(addresses) for _ in range(options.pages)]
                print(measure(browser_name, executable, ours), flush=True)
        finally:
            for server in servers:
                server.stop()


if __name__ == "__main__":
    main()
