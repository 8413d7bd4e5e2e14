"""The server's room, shared among its clients: so one client address cannot take it all.

:class:`ClientLedger` counts the connections the server holds, in all and
for each client address, and says whether one more is admitted, and
whether the server is *pressed* (slow requests are then cut sooner). A
client is its TCP peer's address; a peer named a trusted proxy
(``--trusted-proxy``) carries many clients' connections and is not
counted as one: the address it passes on counts for the client's long
polls instead (:class:`WaitLedger`). A header anyone can send (an
``X-Forwarded-For`` from any other peer) counts for nothing.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from .errors import ServerFullError, ServiceError, TooManyConnectionsError, TooManyWaitsError
from .limits import MAX_CLIENT_CONNECTIONS, MAX_CLIENT_WAITS, MAX_CONNECTIONS

__all__ = ["ClientLedger", "MIN_REFUSED", "TrustedProxies", "WaitLedger"]

MIN_REFUSED = 256
"""Refused connections kept open to be told why, at least, however small the server's room."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class TrustedProxies:
    """The peers whose forwarded client address is believed: addresses or networks (CIDR)."""

    def __init__(self, addresses: Iterable[str] = ()) -> None:
        self.networks: tuple[Network, ...] = tuple(
            ipaddress.ip_network(address.strip(), strict=False)
            for address in addresses
            if address.strip()
        )

    @classmethod
    def parse(cls, text: str) -> TrustedProxies:
        """From ``ADDR[,ADDR...]``, as ``--trusted-proxy`` takes them.

        >>> TrustedProxies.parse("10.0.0.1, 192.168.0.0/16").names()
        ['10.0.0.1', '192.168.0.0/16']

        Raises:
            ValueError: one of them is no IP address or network.
        """
        return cls(text.split(","))

    def names(self) -> list[str]:
        """Each address or network, as uvicorn's ``forwarded_allow_ips`` takes them."""
        return [
            str(network.network_address) if network.num_addresses == 1 else str(network)
            for network in self.networks
        ]

    def __contains__(self, host: object) -> bool:
        if not self.networks or not isinstance(host, str):
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)


class ClientLedger:
    """The connections the server holds: in all, and for each client address.

    One per server, used from its event loop only. ``max_connections``
    bounds them all (one more is :class:`ServerFullError`, 503), and
    ``max_client_connections`` those of one address (one more is
    :class:`TooManyConnectionsError`, 429), a trusted proxy's excepted.
    """

    def __init__(
        self,
        max_connections: int = MAX_CONNECTIONS,
        max_client_connections: int = MAX_CLIENT_CONNECTIONS,
        trusted: TrustedProxies | None = None,
    ) -> None:
        self.max_connections = max_connections
        self.max_client_connections = max_client_connections
        self.trusted = trusted or TrustedProxies()
        self.held = 0
        # Connections refused and still open, to send their head and read
        # why (the protocol counts them); beyond max_refused they are closed
        # unanswered, at once.
        self.refused = 0
        self.max_refused = max(max_connections, MIN_REFUSED)
        self._by_client: dict[str, int] = {}

    def admit(self, host: str | None, running: int = 0) -> ServiceError | None:
        """Take a place for a new connection from ``host``, or say why there is none.

        ``running`` counts the requests still running, those whose client
        has gone included: a place is free only when both fit. Each
        connection admitted (None returned) is :meth:`release`\\ d once.
        """
        if max(self.held, running) >= self.max_connections:
            return ServerFullError(
                f"the server holds {self.max_connections} connections and requests, "
                "as many as it takes"
            )
        if host is not None and host not in self.trusted:
            count = self._by_client.get(host, 0)
            if count >= self.max_client_connections:
                return TooManyConnectionsError(
                    f"{host} holds {count} connections, as many as one address may"
                )
            self._by_client[host] = count + 1
        self.held += 1
        return None

    def release(self, host: str | None) -> None:
        """Give back the place of a connection :meth:`admit` took for ``host``."""
        self.held -= 1
        if host is not None and host not in self.trusted:
            count = self._by_client[host] - 1
            if count:
                self._by_client[host] = count
            else:
                del self._by_client[host]

    def pressed(self, host: str | None) -> bool:
        """Whether half the server's places are taken, or half those of ``host``."""
        if 2 * self.held >= self.max_connections:
            return True
        return host is not None and 2 * self._by_client.get(host, 0) >= self.max_client_connections


class WaitLedger:
    """The long polls waiting for each client address (as a trusted proxy passes it on).

    A wait holds a connection for minutes, so a client behind a proxy,
    whose connections the :class:`ClientLedger` cannot tell apart, is
    bounded here instead.
    """

    def __init__(self, max_client_waits: int = MAX_CLIENT_WAITS) -> None:
        self.max_client_waits = max_client_waits
        self._by_client: dict[str, int] = {}

    @contextmanager
    def waiting(self, host: str | None) -> Iterator[None]:
        """Hold one of ``host``'s waits for the block.

        Raises:
            TooManyWaitsError: ``host`` already has as many waiting as one address may.
        """
        if host is None:
            yield
            return
        count = self._by_client.get(host, 0)
        if count >= self.max_client_waits:
            raise TooManyWaitsError(
                f"{host} has {count} requests waiting for moves, as many as one address may"
            )
        self._by_client[host] = count + 1
        try:
            yield
        finally:
            left = self._by_client[host] - 1
            if left:
                self._by_client[host] = left
            else:
                del self._by_client[host]
