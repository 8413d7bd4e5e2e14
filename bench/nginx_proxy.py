"""A throw-away nginx in front of service processes, for the load benchmark and the tests.

:func:`start_proxy` writes a configuration into a new temporary folder
(its pid file, logs and buffers all there: no root needed, nothing of the
system's nginx touched), starts ``nginx -p FOLDER`` in the foreground
(``daemon off``) on a free port of 127.0.0.1, and waits until it answers.
The configuration is the one docs/deployment.md gives, with the ports
filled in: round robin over the service processes, keep-alive connections
to them, the client's address in ``X-Forwarded-For``, a read timeout
above the service's longest wait (300 s), and a bound on the requests one
client address has in progress over all the processes, refused in the
service's JSON shape.

Where nginx is not installed, :func:`start_proxy` raises
:class:`ProxyUnavailable` saying why (the tests skip then, except on CI).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = [
    "CLIENT_REQUESTS",
    "TOO_MANY_REQUESTS",
    "Proxy",
    "ProxyUnavailable",
    "find_nginx",
    "nginx_config",
    "start_proxy",
]

READ_TIMEOUT = 310
"""nginx's ``proxy_read_timeout`` here, in seconds: above the service's 300 s waits."""

CLIENT_REQUESTS = 100
"""The requests one client address may have in progress through the proxy, over every
process (``limit_conn``): the service's own per-process ``--max-client-waits``."""


TOO_MANY_REQUESTS = (
    '{"error":"too_many_connections","detail":"this client address has as many requests '
    "in progress through the proxy as one address may; try again after Retry-After "
    'seconds"}'
)
"""The proxy's answer to a request beyond ``limit_conn``: the service's JSON refusal."""


class ProxyUnavailable(Exception):
    """No nginx can be run here; the message says why."""


def find_nginx() -> str | None:
    """The path of nginx: on PATH, or where Debian installs it."""
    return shutil.which("nginx") or (
        "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None
    )


def nginx_config(
    port: int,
    upstreams: list[str],
    bind: str | None = None,
    client_requests: int = CLIENT_REQUESTS,
) -> str:
    """nginx's configuration: listen on 127.0.0.1:``port``, balance over ``upstreams``.

    ``upstreams`` are ``host:port`` of service processes; ``bind``, the
    address nginx connects to them from (a test tells the proxy apart from
    direct clients by it); ``client_requests``, the requests one client
    address may have in progress. Paths are relative to nginx's ``-p`` prefix.
    """
    servers = "".join(f"        server {upstream};\n" for upstream in upstreams)
    # As root, nginx runs its workers as "nobody", who could not write the
    # temporary folder: keep them as the user who started it.
    user = "user root;\n" if os.geteuid() == 0 else ""
    source = f"        proxy_bind {bind};\n" if bind else ""
    return f"""{user}daemon off;
worker_processes 1;
pid nginx.pid;
error_log error.log warn;
events {{
    worker_connections 4096;
}}
http {{
    access_log off;
    client_body_temp_path tmp/body;
    proxy_temp_path tmp/proxy;
    fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi;
    scgi_temp_path tmp/scgi;
    limit_conn_zone $binary_remote_addr zone=per_client:10m;
    limit_conn_status 429;
    limit_conn_log_level warn;
    upstream connect_four {{
{servers}        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{port};
        limit_conn per_client {client_requests};
        error_page 429 @too_many_requests;
        location @too_many_requests {{
            default_type application/json;
            add_header Retry-After 1 always;
            add_header X-Content-Type-Options nosniff always;
            return 429 '{TOO_MANY_REQUESTS}';
        }}
        location / {{
            proxy_pass http://connect_four;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_read_timeout {READ_TIMEOUT}s;
{source}        }}
    }}
}}
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Proxy:
    """A running nginx: its URL, its folder, its process."""

    def __init__(self, folder: Path, process: subprocess.Popen[bytes], port: int) -> None:
        self.folder = folder
        self.process = process
        self.port = port
        self.url = f"http://127.0.0.1:{port}"

    @property
    def pid(self) -> int:
        """The master process's id (its worker is its child)."""
        return self.process.pid

    def error_log(self) -> str:
        """What nginx wrote in its error log."""
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """Stop nginx (its fast shutdown) and delete its folder."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def start_proxy(
    upstreams: list[str],
    *,
    bind: str | None = None,
    client_requests: int = CLIENT_REQUESTS,
    attempts: int = 5,
) -> Proxy:
    """nginx on a free port of 127.0.0.1 in front of ``upstreams``, answering
    (``bind`` and ``client_requests`` as :func:`nginx_config` takes them).

    Raises:
        ProxyUnavailable: nginx is not installed.
        RuntimeError: nginx would not start (its error log says why).
    """
    nginx = find_nginx()
    if nginx is None:
        raise ProxyUnavailable("nginx is not installed (apt-get install nginx)")
    for _ in range(attempts):
        # A port picked free may be taken before nginx binds it: try another.
        folder = Path(tempfile.mkdtemp(prefix="c4-nginx-"))
        (folder / "tmp").mkdir()
        port = _free_port()
        (folder / "nginx.conf").write_text(nginx_config(port, upstreams, bind, client_requests))
        process = subprocess.Popen(
            [nginx, "-p", str(folder), "-c", "nginx.conf", "-e", "error.log"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        proxy = Proxy(folder, process, port)
        if _answers(proxy):
            return proxy
        log = proxy.error_log()
        proxy.stop()
        if "Address already in use" not in log:
            raise RuntimeError(f"nginx did not start: {log[-2000:]}")
    raise RuntimeError("nginx found no free port")


def _answers(proxy: Proxy) -> bool:
    """Wait until nginx accepts connections on its port (False if it exited first)."""
    for _ in range(600):
        if proxy.process.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", proxy.port), timeout=1):
                return True
        except OSError:
            time.sleep(0.05)
    return False
