"""Every loopback address handed out is new, and a server can listen on it."""

from __future__ import annotations

import ipaddress

from browser.fresh_hosts import fresh_host
from server_support import LOOPBACK, listening_socket


def test_each_address_is_new_loopback_and_no_network_or_broadcast_look_alike() -> None:
    hosts = [fresh_host() for _ in range(600)]  # across two changes of the third number
    assert len(set(hosts)) == len(hosts) and LOOPBACK not in hosts
    for host in hosts:
        assert ipaddress.IPv4Address(host).is_loopback, host
        assert host.rsplit(".", 1)[1] not in ("0", "255"), host
    assert len({host.rsplit(".", 1)[0] for host in hosts}) == 3
    with listening_socket(hosts[-1]) as listener:
        assert listener.getsockname()[0] == hosts[-1]
