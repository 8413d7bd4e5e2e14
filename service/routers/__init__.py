"""One router module per resource: games, winner, analysis, computer move, page, API page."""
