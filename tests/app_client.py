"""An in-process HTTP client for the service's app: Starlette's TestClient at a third of the cost.

Starlette's ``TestClient`` hands every ASGI message of a request between
the test's thread and the app's event loop: eight thread hops a request,
about 1.8 ms of CPU here. :class:`AppClient` makes one hop: the test's
thread gives the whole request to the app's loop (httpx's own
``ASGITransport``) and waits for the whole response, about 0.55 ms. The
suite sends tens of thousands of requests, so this is seconds of every run.

Like ``TestClient`` it is an ``httpx.Client`` (``get``, ``post``, ``json=``
and the rest), runs the app's lifespan on entering and leaving ``with``,
raises what the app raises, and serves requests from several threads at
once, so a long-polling request can wait while another thread posts. Like
``TestClient`` it needs no socket: the app is called directly.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from types import TracebackType
from typing import Any, TypeVar

import httpx
import route_memo
from starlette.types import ASGIApp, Message

T = TypeVar("T")

route_memo.install()  # the apps these clients serve share their routes' models


def get_scope(
    path: str, headers: dict[str, str] | None = None, query: str = "", host: str = "testclient"
) -> dict[str, Any]:
    """The ASGI scope of ``GET path?query`` from ``host``, for a test that calls an app itself."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            *((name.lower().encode(), value.encode()) for name, value in (headers or {}).items()),
        ],
        "client": (host, 50000),
        "server": ("testserver", 80),
    }


class LifespanFailed(RuntimeError):
    """The app's lifespan startup or shutdown reported a failure."""


class _Loop:
    """An event loop running in a thread of its own, to which any thread can hand coroutines."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="app-loop", daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on the loop and wait for its result (or exception)."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


class _Lifespan:
    """The ASGI lifespan protocol, spoken to an app from its loop."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.to_app: asyncio.Queue[Message] = asyncio.Queue()
        self.from_app: asyncio.Queue[Message] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    async def _send(self, message: Message) -> None:
        await self.from_app.put(message)

    async def _exchange(self, event: str) -> None:
        await self.to_app.put({"type": f"lifespan.{event}"})
        answer = await self.from_app.get()
        if answer["type"] != f"lifespan.{event}.complete":
            raise LifespanFailed(f"lifespan {event}: {answer.get('message', answer['type'])}")

    async def startup(self) -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
        self.task = asyncio.create_task(self.app(scope, self.to_app.get, self._send))
        await self._exchange("startup")

    async def shutdown(self) -> None:
        await self._exchange("shutdown")
        assert self.task is not None
        await self.task


class _OneHopTransport(httpx.BaseTransport):
    """A sync transport that runs httpx's ``ASGITransport`` on the app's loop."""

    def __init__(self, app: ASGIApp, loop: _Loop, client: tuple[str, int]) -> None:
        self.asgi = httpx.ASGITransport(app=app, client=client)
        self.loop = loop

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        whole = httpx.Request(request.method, request.url, headers=request.headers, content=body)

        async def exchange() -> tuple[int, httpx.Headers, bytes]:
            response = await self.asgi.handle_async_request(whole)
            raw = [chunk async for chunk in response.aiter_raw()]  # decoded once, by the caller
            return response.status_code, response.headers, b"".join(raw)

        status, headers, content = self.loop.run(exchange())
        return httpx.Response(status, headers=headers, content=content, request=request)


class AppClient(httpx.Client):
    """An ``httpx.Client`` on ``app``, whose lifespan runs while the client is entered.

    ``client`` is the address the app sees the requests come from.
    """

    def __init__(
        self,
        app: ASGIApp,
        base_url: str = "http://testserver",
        client: tuple[str, int] = ("testclient", 50000),
    ) -> None:
        self.app = app
        self._loop = _Loop()
        self._lifespan = _Lifespan(app)
        super().__init__(
            transport=_OneHopTransport(app, self._loop, client),
            base_url=base_url,
            headers={"user-agent": "testclient"},
        )

    def submit(self, coroutine: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Start ``coroutine`` on the app's loop; its future, for this thread to wait on."""
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop.loop)

    def __enter__(self) -> AppClient:
        try:
            self._loop.run(self._lifespan.startup())
        except BaseException:
            self._loop.close()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None = None,
        value: BaseException | None = None,
        traceback: TracebackType | None = None,
    ) -> None:
        try:
            self._loop.run(self._lifespan.shutdown())
        finally:
            self._loop.close()
            super().__exit__(kind, value, traceback)
