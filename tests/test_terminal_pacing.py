"""terminal.pacing in-process, on a fake clock: the pause counts from the last move."""

from __future__ import annotations

import pytest

from terminal import pacing


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(pacing.time, "monotonic", fake.monotonic)
    monkeypatch.setattr(pacing.time, "sleep", fake.sleep)
    return fake


def test_wait_sleeps_out_the_rest_of_the_pause(clock):
    pacer = pacing.Pacer(1.0)
    clock.now += 0.25  # the computer thought for a quarter of a second
    pacer.wait()
    assert clock.slept == [0.75]


def test_thinking_longer_than_the_pause_shows_the_move_at_once(clock):
    pacer = pacing.Pacer(1.0)
    clock.now += 3
    pacer.wait()
    assert clock.slept == []


def test_the_pause_counts_from_the_last_mark(clock):
    pacer = pacing.Pacer(2.0)
    clock.now += 5
    pacer.mark()
    clock.now += 0.5
    pacer.wait()
    assert clock.slept == [1.5]


def test_no_pause_never_sleeps(clock):
    pacer = pacing.Pacer(0.0)
    pacer.wait()
    assert clock.slept == []
