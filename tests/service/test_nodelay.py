"""Responses leave at once: the service's connections are TCP ones that asyncio sends without delay."""

from __future__ import annotations

import socket

from connect_four.service.serving import inherited_listener
from server_support import listening_socket


def test_a_listener_handed_over_as_a_descriptor_is_known_as_tcp() -> None:
    # uvicorn's --fd would wrap it as a Unix socket, and asyncio then leaves
    # Nagle's algorithm on: each answer's body waited 40 ms for the client.
    with socket.create_server(("127.0.0.1", 0)) as listener:
        inherited = inherited_listener(listener.fileno())
        assert (inherited.family, inherited.type, inherited.proto) == (
            socket.AF_INET,
            socket.SOCK_STREAM,
            socket.IPPROTO_TCP,
        )
        inherited.detach()  # the descriptor stays the listener's to close


def test_the_tests_listeners_are_known_as_tcp_too() -> None:
    with listening_socket() as listener:
        assert listener.proto == socket.IPPROTO_TCP
