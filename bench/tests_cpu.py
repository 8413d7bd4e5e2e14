"""The CPU time of a pytest run, with every process it started: servers, Chromium, its renderers.

``/usr/bin/time`` counts only the processes that their parents waited for;
Chromium's renderers and zygote outlive theirs and are reaped by init, so a
browser test run shows half its CPU there. This bench makes itself the
reaper of every orphan below it (``PR_SET_CHILD_SUBREAPER``, Linux) and
waits for them all before it reads the children's CPU time.

    python -m bench.tests_cpu                          # tests/browser -n 2, three runs
    python -m bench.tests_cpu --runs 1 -- tests/service -n 2 -q

It prints, for each run, the CPU time (user and system), the wall time and
the load average before and after: on a shared machine, read the figures
with the load.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
PR_SET_CHILD_SUBREAPER = 36
"""prctl(2)'s option that makes orphans below this process its children, not init's."""

DEFAULT_ARGUMENTS = ["tests/browser", "-n", "2", "-q"]


def _load() -> str:
    """The load average over 1, 5 and 15 minutes."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _reap_everything() -> None:
    """Wait for every process below this one, orphans included, until none is left."""
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def measure(pytest_arguments: list[str]) -> str:
    """Run pytest once; its CPU (all its processes'), wall time and the load, in one line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = _load()
    start = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *pytest_arguments],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=False,
    )
    _reap_everything()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    lines = run.stdout.strip().splitlines()
    outcome = lines[-1] if lines else f"pytest exited with {run.returncode}"
    return (
        f"CPU {user + system:.1f} s (user {user:.1f}, system {system:.1f}), wall {wall:.1f} s, "
        f"load {load} before, {_load()} after: {outcome}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs, one after the other (3)")
    parser.add_argument(
        "pytest_arguments", nargs="*", help=f"pytest's arguments ({' '.join(DEFAULT_ARGUMENTS)})"
    )
    options = parser.parse_args()
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit(f"prctl(PR_SET_CHILD_SUBREAPER) failed: {os.strerror(ctypes.get_errno())}")
    arguments = options.pytest_arguments or DEFAULT_ARGUMENTS
    print(time.strftime("%Y-%m-%d %H:%M %Z"), "pytest", " ".join(arguments))
    for _ in range(options.runs):
        print(measure(arguments), flush=True)


if __name__ == "__main__":
    main()
