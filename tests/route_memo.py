"""FastAPI's per-route request and response models, built once per test process, not per app.

FastAPI builds each route's dependency tree and its pydantic fields again
for every app that includes the route (since 0.120 on the app's first
request to the route's router): 5 to 15 ms of CPU per router and app
here. The suite makes a new app for nearly every service test, so this
was a quarter of the service tests' CPU. What it builds depends only on
the route's path, endpoint, dependencies and types, never on the app, so
:func:`install` keeps each result for the process's later apps.

Test plumbing only: the service itself makes one app per process. With a
FastAPI whose private builders have other names nothing is kept, and the
tests run as before, only slower.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_BUILDERS = ("_build_dependant_with_parameterless_dependencies", "create_model_field")
"""The builders of ``fastapi.routing`` that :func:`install` wraps."""


def _kept_dependants(build: Callable[..., Any]) -> Callable[..., Any]:
    """``build`` (a route's dependency tree and body parameters), kept by path, endpoint and
    dependencies; a call of another shape (another FastAPI's) goes straight to ``build``."""
    kept: dict[tuple[Any, ...], tuple[Any, list[Any]]] = {}

    def kept_build(*args: Any, **kwargs: Any) -> Any:
        if args or set(kwargs) != {"path", "call", "dependencies"}:
            return build(*args, **kwargs)
        dependencies = list(kwargs["dependencies"])
        key = (kwargs["path"], kwargs["call"], *map(id, dependencies))
        if key not in kept:
            # The dependencies stay referenced, so their ids stay theirs.
            kept[key] = (build(**kwargs), dependencies)
        return kept[key][0]

    return kept_build


def _kept_fields(create: Callable[..., Any]) -> Callable[..., Any]:
    """``create`` (a pydantic field for a model), kept by name, type and mode; a call of
    another shape goes straight to ``create``."""
    kept: dict[tuple[str, int, str], tuple[Any, Any]] = {}

    def kept_create(*args: Any, **kwargs: Any) -> Any:
        if args or not {"name", "type_"} <= set(kwargs) <= {"name", "type_", "mode"}:
            return create(*args, **kwargs)
        type_ = kwargs["type_"]
        key = (kwargs["name"], id(type_), kwargs.get("mode", "validation"))
        if key not in kept:
            kept[key] = (create(**kwargs), type_)
        return kept[key][0]

    return kept_create


def install() -> bool:
    """Keep FastAPI's route builds for the process's later apps; False if this FastAPI has no
    such builders (nothing is then changed)."""
    import fastapi.routing as routing

    if getattr(routing, "_route_memo_installed", False):
        return True
    if not all(callable(getattr(routing, name, None)) for name in _BUILDERS):
        return False
    routing._build_dependant_with_parameterless_dependencies = _kept_dependants(  # type: ignore[attr-defined]
        routing._build_dependant_with_parameterless_dependencies  # type: ignore[attr-defined]
    )
    routing.create_model_field = _kept_fields(routing.create_model_field)  # type: ignore[attr-defined]
    routing._route_memo_installed = True  # type: ignore[attr-defined]
    return True


def warm(app: Any) -> None:
    """Build every route of ``app`` now, so the process's later apps find them kept.

    For a process that forks servers (tests/server_zygote.py): each child
    then starts with every route's models built. Without :func:`install`, or
    with a FastAPI that builds its routes when the app is made, this does
    nothing more.
    """
    for route in app.router.routes:
        build = getattr(route, "effective_candidates", None)  # FastAPI 0.120 on: built lazily
        if callable(build):
            build()
