"""pytest's doctest run over service/: where the PostgreSQL driver is not installed
(a checkout whose environment predates it), its module is left out instead of
breaking the collection; CI installs requirements.txt and runs it."""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = (
    [] if importlib.util.find_spec("psycopg") is not None else ["postgres_store.py"]
)
