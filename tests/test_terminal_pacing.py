"""connect_four.terminal.pacing in-process, on a fake clock: the pause counts from the last move."""

from __future__ import annotations

import pytest

from connect_four.terminal import pacing


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(pacing.time, "monotonic", fake.monotonic)
    return fake


def test_the_rest_of_the_pause_remains_after_thinking(clock):
    pacer = pacing.Pacer(1.0)
    clock.now += 0.25  # the computer thought for a quarter of a second
    assert pacer.remaining() == 0.75


def test_thinking_longer_than_the_pause_shows_the_move_at_once(clock):
    pacer = pacing.Pacer(1.0)
    clock.now += 3
    assert pacer.remaining() == 0.0


def test_the_pause_counts_from_the_last_mark(clock):
    pacer = pacing.Pacer(2.0)
    clock.now += 5
    pacer.mark()
    clock.now += 0.5
    assert pacer.remaining() == 1.5


def test_no_pause_leaves_nothing_to_wait(clock):
    pacer = pacing.Pacer(0.0)
    assert pacer.remaining() == 0.0


def test_the_pacer_never_sleeps(clock, monkeypatch):
    # Waiting is connect.py's: the pacer only counts.
    def no_sleep(seconds: float) -> None:
        raise AssertionError("the pacer slept")

    monkeypatch.setattr(pacing.time, "sleep", no_sleep)
    pacer = pacing.Pacer(1.0)
    assert pacer.remaining() == 1.0
