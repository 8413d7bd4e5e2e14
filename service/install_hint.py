"""The pip command that adds an extra to this installation, from where it was installed.

The package is not on the package index: it is installed from a checkout,
an sdist or a wheel. pip records where (PEP 610, ``direct_url.json``), so a
missing extra is named with the same source the user gave pip.
"""

from __future__ import annotations

import json
import shlex
from importlib import metadata
from urllib.parse import unquote, urlsplit

DISTRIBUTION = "connect-four"
"""The distribution's name (pyproject.toml's [project] name)."""


def install_command(extra: str) -> str:
    """``pip install '<where this came from>[extra]'``; the bare name when pip recorded no source.

    >>> install_command("service").startswith("pip install ")
    True
    """
    return f"pip install {shlex.quote(_source() + f'[{extra}]')}"


def _source() -> str:
    """The folder or file this distribution was installed from, else its name."""
    try:
        recorded = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        recorded = None
    if recorded:
        try:
            url = urlsplit(str(json.loads(recorded)["url"]))
        except (ValueError, KeyError, TypeError):
            url = None
        if url is not None and url.scheme == "file" and url.path:
            return unquote(url.path)
    return DISTRIBUTION
