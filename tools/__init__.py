"""Maintainers' tools, run from the repository root: ``python -m tools.make_book`` builds the opening books."""
