"""A match of several games (--games): who plays X in each, and the running score.

Two sides take turns playing X. Side 0 plays X in the first game, as the
command line set it up (with ``--computer O`` the human is side 0); the
sides swap markers every game after that.
"""

from __future__ import annotations

__all__ = ["Match"]


class Match:
    """The sides' names, their markers in each game and the score so far.

    >>> match = Match(3, computer=frozenset({1}))
    >>> match.introduction(2)
    'Game 2 of 3: X is the computer, O is you.'
    >>> sorted(match.computer_markers(2))
    [0]
    >>> match.record(winner_marker=1, number=2)
    >>> match.score_line()
    'Score after game 1 of 3: you 1, the computer 0, ties 0.'
    """

    def __init__(self, games: int, computer: frozenset[int]) -> None:
        self.games = games
        # The markers the computer plays in the first game are its sides.
        self._computer_sides = computer
        if computer == {0, 1}:
            self.names = ("computer 1", "computer 2")
        elif computer:
            human = 1 if 0 in computer else 0
            self.names = ("you", "the computer") if human == 0 else ("the computer", "you")
        else:
            self.names = ("Player 1", "Player 2")
        self.wins = [0, 0]
        self.ties = 0
        self.played = 0

    def side_of(self, marker: int, number: int) -> int:
        """The side playing ``marker`` (0 X, 1 O) in game ``number`` (from 1)."""
        return marker if number % 2 == 1 else 1 - marker

    def computer_markers(self, number: int) -> frozenset[int]:
        """The markers the computer plays in game ``number``."""
        return frozenset(self.side_of(side, number) for side in self._computer_sides)

    def introduction(self, number: int) -> str:
        """The line that opens game ``number``: who plays which marker."""
        x_name = self.names[self.side_of(0, number)]
        o_name = self.names[self.side_of(1, number)]
        return f"Game {number} of {self.games}: X is {x_name}, O is {o_name}."

    def record(self, winner_marker: int | None, number: int) -> None:
        """Count the result of game ``number``: the winning marker, or None for a tie."""
        self.played += 1
        if winner_marker is None:
            self.ties += 1
        else:
            self.wins[self.side_of(winner_marker, number)] += 1

    def score_line(self) -> str:
        """The score after the games played so far."""
        return (
            f"Score after game {self.played} of {self.games}: "
            f"{self.names[0]} {self.wins[0]}, {self.names[1]} {self.wins[1]}, "
            f"ties {self.ties}."
        )

    def result_line(self) -> str:
        """Who won the match, once it has ended (played out or quit)."""
        if self.wins[0] == self.wins[1]:
            return "The match is drawn."
        leader = 0 if self.wins[0] > self.wins[1] else 1
        return f"The match goes to {self.names[leader]}."
