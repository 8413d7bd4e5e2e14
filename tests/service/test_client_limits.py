"""The ledgers that share the server's room among client addresses, in-process."""

from __future__ import annotations

import pytest

from connect_four.service.client_limits import ClientLedger, TrustedProxies, WaitLedger
from connect_four.service.errors import (
    ServerFullError,
    TooManyConnectionsError,
    TooManyWaitsError,
)


def test_trusted_proxies_are_addresses_and_networks_and_nothing_else() -> None:
    trusted = TrustedProxies.parse("10.0.0.1, 192.168.0.0/16,::1")
    assert "10.0.0.1" in trusted and "192.168.4.5" in trusted and "::1" in trusted
    assert "10.0.0.2" not in trusted and "not an address" not in trusted and None not in trusted
    assert trusted.names() == ["10.0.0.1", "192.168.0.0/16", "::1"]
    assert "127.0.0.1" not in TrustedProxies.parse("")
    with pytest.raises(ValueError):
        TrustedProxies.parse("10.0.0.300")


def test_one_address_gets_its_share_and_another_is_still_admitted() -> None:
    ledger = ClientLedger(max_connections=10, max_client_connections=2)
    assert ledger.admit("10.0.0.9") is None and ledger.admit("10.0.0.9") is None
    assert isinstance(ledger.admit("10.0.0.9"), TooManyConnectionsError)
    assert ledger.admit("10.0.0.8") is None
    ledger.release("10.0.0.9")
    assert ledger.admit("10.0.0.9") is None
    assert ledger.held == 3


def test_a_trusted_proxy_is_no_one_client_but_the_server_still_fills() -> None:
    ledger = ClientLedger(
        max_connections=3, max_client_connections=1, trusted=TrustedProxies(["10.0.0.1"])
    )
    assert all(ledger.admit("10.0.0.1") is None for _ in range(3))
    assert isinstance(ledger.admit("10.0.0.1"), ServerFullError)
    assert isinstance(ledger.admit("10.0.0.2"), ServerFullError)


def test_requests_still_running_after_their_clients_left_take_room_too() -> None:
    ledger = ClientLedger(max_connections=3)
    assert isinstance(ledger.admit("10.0.0.2", running=3), ServerFullError)
    assert ledger.admit("10.0.0.2", running=2) is None


def test_pressed_when_half_the_server_or_half_a_clients_share_is_taken() -> None:
    ledger = ClientLedger(max_connections=8, max_client_connections=4)
    ledger.admit("10.0.0.1")
    assert not ledger.pressed("10.0.0.1")
    ledger.admit("10.0.0.1")
    assert ledger.pressed("10.0.0.1") and not ledger.pressed("10.0.0.2")
    ledger.admit("10.0.0.3")
    ledger.admit("10.0.0.4")
    assert ledger.pressed("10.0.0.2")


def test_waits_of_one_address_beyond_its_share_are_refused_until_one_ends() -> None:
    waits = WaitLedger(max_client_waits=1)
    with waits.waiting("10.0.0.1"):
        with pytest.raises(TooManyWaitsError), waits.waiting("10.0.0.1"):
            pass
        with waits.waiting("10.0.0.2"):
            pass
    with waits.waiting("10.0.0.1"):
        pass
