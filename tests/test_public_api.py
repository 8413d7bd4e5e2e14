"""Tests of the engine's public API, after CPython's test_statistics ``__all__`` checks.

``connect_four.engine.__all__`` is the API: every name in it exists and is public, and
the core modules lend it all of their ``__all__``, so a user of rules,
games, notation and rendering never needs to know which file a name lives
in. Other modules (bitboard, solver...) may lend only part of theirs.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from connect_four import engine

ROOT = Path(__file__).resolve().parent.parent

# The modules whose whole API a user of the engine needs from ``engine``.
CORE_MODULES = ["errors", "game", "notation", "render", "rules"]


def _public_modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"connect_four.engine.{info.name}")
        for info in pkgutil.iter_modules(engine.__path__)
        if not info.name.startswith("_")
    ]


PUBLIC_MODULES = _public_modules()


def test_all_has_no_duplicates() -> None:
    assert len(engine.__all__) == len(set(engine.__all__))


@pytest.mark.parametrize("name", engine.__all__)
def test_every_name_in_all_exists(name: str) -> None:
    assert hasattr(engine, name)


@pytest.mark.parametrize("name", engine.__all__)
def test_every_name_in_all_is_public(name: str) -> None:
    assert not name.startswith("_")


@pytest.mark.parametrize("name", engine.__all__)
def test_every_name_in_all_is_not_a_module(name: str) -> None:
    assert not isinstance(getattr(engine, name), ModuleType)


def test_star_import_gives_exactly_all() -> None:
    namespace: dict[str, object] = {}
    exec("from connect_four.engine import *", namespace)
    del namespace["__builtins__"]
    assert set(namespace) == set(engine.__all__)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_every_core_module_is_reexported_whole(module: str) -> None:
    names = importlib.import_module(f"connect_four.engine.{module}").__all__
    assert set(names) <= set(engine.__all__)


@pytest.mark.parametrize("module", PUBLIC_MODULES, ids=lambda module: module.__name__)
def test_every_module_defines_all_of_existing_public_names(module: ModuleType) -> None:
    assert hasattr(module, "__all__")
    for name in module.__all__:
        assert not name.startswith("_"), name
        assert hasattr(module, name), name


@pytest.mark.parametrize("module", PUBLIC_MODULES, ids=lambda module: module.__name__)
def test_every_public_class_and_function_of_a_module_is_in_its_all(module: ModuleType) -> None:
    """A public def or class left out of ``__all__`` is API by accident."""
    unlisted = [
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and (inspect.isclass(value) or inspect.isfunction(value))
        and value.__module__ == module.__name__
        and name not in module.__all__
    ]
    assert unlisted == []


@pytest.mark.parametrize("module", PUBLIC_MODULES, ids=lambda module: module.__name__)
def test_engine_names_are_the_module_objects_not_copies(module: ModuleType) -> None:
    for name in set(module.__all__) & set(engine.__all__):
        assert getattr(engine, name) is getattr(module, name), name


def test_every_name_in_engine_all_comes_from_a_module_s_all() -> None:
    origins = set().union(*(module.__all__ for module in PUBLIC_MODULES))
    assert set(engine.__all__) <= origins


@pytest.mark.parametrize("name", engine.__all__)
def test_every_public_class_and_function_has_a_docstring(name: str) -> None:
    value = getattr(engine, name)
    if inspect.isclass(value) or inspect.isfunction(value):
        assert value.__doc__ and value.__doc__.strip()


@pytest.mark.parametrize(
    "name",
    [
        "Game",
        "Rules",
        "Move",
        "Outcome",
        "Status",
        "EngineError",
        "parse_moves",
        "format_moves",
        "render",
    ],
)
def test_the_names_a_front_end_needs_are_in_all(name: str) -> None:
    assert name in engine.__all__


def test_package_has_a_docstring() -> None:
    assert engine.__doc__ and engine.__doc__.strip()


# --- What ``import engine`` costs ---------------------------------------------------

# Each adds milliseconds to every start of the terminal game, which must stay
# within 1.3x of a bare interpreter (bench/engine_speed.py); engine/_value.py
# exists so that the engine needs none of them.
HEAVY_MODULES = {"dataclasses", "inspect", "enum", "typing"}


def test_importing_engine_loads_none_of_the_heavy_stdlib_modules() -> None:
    script = (
        "import sys; before = set(sys.modules); import connect_four.engine; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    # -S: no site packages, so only what the engine itself imports is counted.
    result = subprocess.run(
        [sys.executable, "-S", "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = set(result.stdout.split())
    assert "connect_four.engine" in loaded
    assert sorted(loaded & HEAVY_MODULES) == []
