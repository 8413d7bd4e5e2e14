"""HTTP spoken byte by byte over a socket, for tests of what a server does with odd clients.

Each read waits on the server's answer, bounded by a socket timeout that
only ever fails a test.
"""

from __future__ import annotations

import json
import socket
from typing import Any

READ_TIMEOUT = 60.0
"""Seconds any one read may wait for the server."""


def connect(url: str, source: str | None = None) -> socket.socket:
    """A TCP connection to the server at ``url`` (``http://host:port``), from ``source`` if given.

    Any address of 127.0.0.0/8 is this machine's: a test plays a second
    client by connecting from 127.0.0.2.
    """
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection(
        (host, int(port)), timeout=READ_TIMEOUT, source_address=(source, 0) if source else None
    )


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(READ_TIMEOUT)
    received = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return received
        received += chunk


def read_response(sock: socket.socket) -> bytes:
    """One response: its head, and a body of its Content-Length."""
    sock.settimeout(READ_TIMEOUT)
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        assert chunk, received
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = int(headers_of(head).get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, received
        body += chunk
    return head + b"\r\n\r\n" + body


def headers_of(response: bytes) -> dict[str, str]:
    """A response's headers, names in lower case."""
    head = response.partition(b"\r\n\r\n")[0].decode("latin-1")
    lines = head.split("\r\n")[1:]
    return {
        name.strip().lower(): value.strip()
        for name, _, value in (line.partition(":") for line in lines)
    }


def status_of(response: bytes) -> int:
    """A response's status code."""
    return int(response.split(b" ", 2)[1])


def json_of(response: bytes) -> Any:
    """A response's body, read as JSON."""
    return json.loads(response.partition(b"\r\n\r\n")[2])


def get(sock: socket.socket, target: str, headers: str = "") -> bytes:
    """Send ``GET target`` (``headers``: more header lines, each ending in CRLF); its response."""
    sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\n{headers}\r\n".encode())
    return read_response(sock)
