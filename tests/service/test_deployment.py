"""docs/deployment.md, run: its shell commands in order, its nginx configuration as written.

The guide's ```sh blocks run in one bash (``set -euo pipefail``) in a
temporary folder, its ```nginx block saved where it says; the example
database URL and ports (8080 to 8082) are replaced by a throw-away
PostgreSQL database and free ports, and nothing else is changed. The
commands themselves check the result (a whole game through nginx ending
with alice's win); this test checks that they ran to the end. Without
nginx it skips on a developer's machine and fails on CI (``CI=true``).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from ci_support import unavailable

from bench.nginx_proxy import find_nginx, nginx_config
from bench.postgres_cluster import Cluster

pytestmark = pytest.mark.slow  # PostgreSQL, service processes, nginx

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "deployment.md"

EXAMPLE_DB = "postgresql://c4@db.internal:5432/games"
EXAMPLE_PORTS = ("8080", "8081", "8082")


def blocks(text: str, language: str) -> list[str]:
    """The guide's fenced blocks of ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


EPHEMERAL_PORTS = Path("/proc/sys/net/ipv4/ip_local_port_range")
"""Where Linux picks the port of a bind to port 0 and of an outgoing connection."""

PORTS_PER_WORKER = 500
"""Each xdist worker's own block of ports for the guide, from :data:`FIRST_GUIDE_PORT` up."""

FIRST_GUIDE_PORT = 20000


def _ephemeral_start() -> int:
    """The lowest port the kernel hands out by itself (32768 unless the machine says other)."""
    try:
        return int(EPHEMERAL_PORTS.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_ports(count: int) -> list[int]:
    """``count`` ports free on every interface, that no other test can take before the guide binds them.

    The guide's commands bind the ports they are given, a moment after
    they are picked. A port the kernel handed out (a bind to port 0) could
    meanwhile go to any other test's server or connection: once one did,
    a service of the guide's exited with "address already in use" and its
    curl waited on whatever held the port until the test's 240 s ran out.
    So the ports come from below the kernel's own range, where every other
    test's port comes from, in a block of this worker's own.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    first = FIRST_GUIDE_PORT + PORTS_PER_WORKER * (int(worker) if worker.isdigit() else 0)
    last = min(first + PORTS_PER_WORKER, _ephemeral_start())
    ports: list[int] = []
    for port in range(first, last):
        with socket.socket() as probe:
            try:
                probe.bind(("", port))  # every interface: the guide's nginx listens on all
            except OSError:
                continue  # in use by a program outside the suite
        ports.append(port)
        if len(ports) == count:
            return ports
    raise AssertionError(f"{count} free ports between {first} and {last}: found {ports}")


def test_the_guide_has_commands_and_a_configuration() -> None:
    text = GUIDE.read_text()
    assert len(blocks(text, "sh")) >= 5
    assert len(blocks(text, "nginx")) == 1
    assert "Save this as `c4-proxy/nginx.conf`" in text


def test_the_guide_s_commands_run(postgres_cluster: Cluster, tmp_path: Path) -> None:
    nginx = find_nginx()
    if nginx is None:
        unavailable(
            "nginx is not installed (CI installs it and runs this test)",
            "the guide's commands cannot run on CI: nginx is not installed",
        )
    database = postgres_cluster.empty_database(f"guide_{os.environ.get('PYTEST_XDIST_WORKER')}")
    ports = [str(port) for port in free_ports(3)]

    def ours(text: str) -> str:
        text = text.replace(EXAMPLE_DB, database)
        for example, port in zip(EXAMPLE_PORTS, ports, strict=True):
            text = text.replace(example, port)
        return text

    guide = GUIDE.read_text()
    (tmp_path / "c4-proxy").mkdir()
    (tmp_path / "c4-proxy" / "nginx.conf").write_text(ours(blocks(guide, "nginx")[0]))
    script = "set -euo pipefail\n" + "\n".join(ours(block) for block in blocks(guide, "sh"))
    environment = dict(os.environ)
    # `python` and `nginx` as a reader's shell finds them: this interpreter, Debian's nginx.
    folders = [os.path.dirname(sys.executable), os.path.dirname(nginx)]
    environment["PATH"] = os.pathsep.join([*folders, environment.get("PATH", "")])
    for name in ("CONNECT_FOUR_DB", "CONNECT_FOUR_TRUSTED_PROXIES"):
        environment.pop(name, None)
    shell = subprocess.Popen(
        ["bash", "-c", script],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        printed, _ = shell.communicate(timeout=240)
    finally:
        # Whatever the commands left running (they stop everything themselves).
        try:
            os.killpg(shell.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    output = printed.decode(errors="replace")
    assert shell.returncode == 0, output
    assert '"winner":"alice"' in output
    assert output.count('{"move":') == 7


def test_the_tests_proxy_is_configured_as_the_guide_says() -> None:
    """bench/nginx_proxy.py's configuration holds every line of the guide's but its addresses."""
    guide = blocks(GUIDE.read_text(), "nginx")[0]
    ours = {
        line.strip()
        for line in nginx_config(8080, ["127.0.0.1:8081", "127.0.0.1:8082"]).splitlines()
    }
    # Ports, addresses and the worker count are the test's own; every other line is the guide's.
    own = ("listen ", "server 127.0.0.1:", "worker_processes ")
    missing = [
        line.strip()
        for line in guide.splitlines()
        if line.strip() and not line.strip().startswith(own) and line.strip() not in ours
    ]
    assert missing == []
