"""Responses leave at once: Nagle's algorithm is off on every TCP connection the service accepts."""

from __future__ import annotations

import socket
from typing import Any

from connect_four.service.guards import _send_without_delay


class _Transport:
    """The one thing the helper asks of a transport: its socket."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.connection if name == "socket" else default


def test_a_connection_accepted_on_a_socket_handed_over_as_a_descriptor_sends_without_delay() -> (
    None
):
    # uvicorn --fd wraps the inherited descriptor as a Unix socket, so asyncio
    # leaves the accepted TCP connections with Nagle's algorithm on.
    with socket.create_server(("127.0.0.1", 0)) as listener:
        mislabelled = socket.fromfd(listener.fileno(), socket.AF_UNIX, socket.SOCK_STREAM)
        with mislabelled, socket.create_connection(listener.getsockname()):
            accepted, _ = mislabelled.accept()
            with (
                accepted,
                socket.fromfd(accepted.fileno(), socket.AF_INET, socket.SOCK_STREAM) as tcp,
            ):
                assert tcp.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0
                _send_without_delay(_Transport(accepted))  # type: ignore[arg-type]
                assert tcp.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1


def test_a_unix_socket_is_left_alone() -> None:
    left, right = socket.socketpair()
    with left, right:
        _send_without_delay(_Transport(left))  # type: ignore[arg-type]
