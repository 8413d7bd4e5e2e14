"""Check the package as users get it: ``python -m tools.release_check``.

Builds the sdist from the checkout and the wheel from that sdist (as
``python -m build`` does), then installs them into fresh virtual
environments in a temporary folder outside the checkout, the way users
would, and runs every entry point from there, where nothing of the checkout
can be imported:

| install | from | checked |
|---|---|---|
| ``connect-four`` | the wheel | the game through a pipe, byte for byte; the service names the extra it needs |
| ``connect-four[service]`` | the wheel | the game; the service: its page and every file the page loads, ``/openapi.json``, ``/docs`` and its files, a game through the API, ``/analysis``, ``/computer_move``, a clean stop on SIGTERM |
| ``connect-four[service,database]`` | the sdist | the same, the compiled search built from the sdist's sources |

Each step's time is printed; the first failure ends the run with status 1.
.ci/run runs it on every submission.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import TypeVar
from urllib.parse import urljoin, urlsplit

from tools.dialogs import dialog_inputs, piped_transcript

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent
DIALOG = ROOT / "test_files" / "example_game.txt"
"""The assignment's example game, in the grader's dialog format (``<<typed>>`` and its newline)."""

START_SECONDS = 60.0
"""How long the service may take to answer its first request (a cold start on a busy machine)."""

STOP_SECONDS = 30.0
"""How long the service may take to stop after SIGTERM."""


class ReleaseCheckFailed(Exception):
    """An installed entry point did not do what users are promised."""


def main() -> int:
    """Build, install and check each way users install the package; 0 when all held."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="release-check-") as scratch:
        work = Path(scratch)
        try:
            sdist, wheel = _step("build the sdist, then the wheel from it", lambda: _build(work))
            for extras, artifact in (
                ("", wheel),
                ("[service]", wheel),
                ("[service,database]", sdist),
            ):
                _check_install(work, artifact, extras)
        except ReleaseCheckFailed as failure:
            print(f"release check FAILED: {failure}", file=sys.stderr)
            return 1
    print(f"release check passed in {time.monotonic() - started:.1f} s")
    return 0


def _step(what: str, action: Callable[[], T]) -> T:
    """Run one step, printing its name and time."""
    began = time.monotonic()
    result = action()
    print(f"  {time.monotonic() - began:6.1f} s  {what}", flush=True)
    return result


def _run(command: list[str | Path], **options: object) -> subprocess.CompletedProcess[bytes]:
    """Run a command to its end outside the checkout; raise ReleaseCheckFailed if it fails."""
    options.setdefault("capture_output", True)
    result = subprocess.run([str(word) for word in command], check=False, **options)  # type: ignore[call-overload]
    if result.returncode != 0:
        error = (result.stderr or b"").decode(errors="replace").strip().splitlines()[-5:]
        raise ReleaseCheckFailed(
            f"{' '.join(map(str, command))} exited {result.returncode}: {error}"
        )
    return result  # type: ignore[no-any-return]


def _outside_environment() -> dict[str, str]:
    """This environment without anything that would let the checkout be imported."""
    return {
        key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "PYTHONHOME"}
    }


def _build(work: Path) -> tuple[Path, Path]:
    """The sdist, from a copy of the checkout's tracked files, and the wheel built from it."""
    source = work / "source"
    tracked = (
        subprocess.run(
            [shutil.which("git") or "git", "-C", str(ROOT), "ls-files", "-z"],
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, tracked):
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    dist = work / "dist"
    python = sys.executable
    _run([python, "-m", "build", "--sdist", "--no-isolation", "--outdir", dist, source], cwd=work)
    (sdist,) = dist.glob("connect_four-*.tar.gz")
    _run([python, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, sdist], cwd=work)
    (wheel,) = dist.glob("connect_four-*.whl")
    return sdist, wheel


def _check_install(work: Path, artifact: Path, extras: str) -> None:
    """Install ``artifact`` with ``extras`` into a new venv and check its entry points."""
    label = f"connect-four{extras} from the {'wheel' if artifact.suffix == '.whl' else 'sdist'}"
    venv = work / f"venv{extras.replace(',', '-')}"
    bin_folder = venv / "bin"
    outside = work / f"run{extras.replace(',', '-')}"
    outside.mkdir()

    def install() -> None:
        _run([sys.executable, "-m", "venv", venv])
        _run(
            [
                bin_folder / "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                f"{artifact}{extras}",
            ],
            cwd=outside,
            env=_outside_environment(),
        )

    _step(f"install {label}", install)
    _step(f"{label}: imports from the venv only", lambda: _check_imports(bin_folder, outside))
    _step(f"{label}: connect-four plays the CS110 game", lambda: _check_game(bin_folder, outside))
    if artifact.suffix != ".whl":
        _step(f"{label}: the compiled search was built", lambda: _check_native(bin_folder, outside))
    if extras:
        _step(f"{label}: connect-four-service", lambda: _check_service(bin_folder, outside))
    else:
        _step(
            f"{label}: connect-four-service names its extra",
            lambda: _check_missing_extra(bin_folder, outside, artifact),
        )


def _check_imports(bin_folder: Path, outside: Path) -> None:
    """``connect_four`` and its game come from the venv, never the checkout (``python -P``)."""
    code = "import connect_four.connect, connect_four.engine; print(connect_four.connect.__file__)"
    where = _run([bin_folder / "python", "-P", "-c", code], cwd=outside, env=_outside_environment())
    path = Path(where.stdout.decode().strip())
    if not path.is_relative_to(bin_folder.parent):
        raise ReleaseCheckFailed(f"connect_four.connect was imported from {path}, not the venv")


def _check_native(bin_folder: Path, outside: Path) -> None:
    """An install from the sdist compiles the search (this machine has a C compiler)."""
    code = (
        "from connect_four.engine import Rules; from connect_four.engine.exact import Solver;"
        " print(Solver(Rules(6, 7)).backend)"
    )
    backend = _run(
        [bin_folder / "python", "-P", "-c", code], cwd=outside, env=_outside_environment()
    )
    if backend.stdout.decode().strip() != "native":
        raise ReleaseCheckFailed(
            f"the sdist's install searches with {backend.stdout!r}, not native"
        )


def _check_game(bin_folder: Path, outside: Path) -> None:
    """The installed command plays the assignment's example game byte for byte through a pipe."""
    dialog = DIALOG.read_text(encoding="utf-8")
    typed = "".join(line + "\n" for line in dialog_inputs(dialog))
    expected = piped_transcript(dialog)
    result = _run(
        [bin_folder / "connect-four"], input=typed.encode(), cwd=outside, env=_outside_environment()
    )
    if result.stdout.decode() != expected:
        raise ReleaseCheckFailed("connect-four's output differs from the assignment's example game")
    version = _run(
        [bin_folder / "connect-four", "--version"], cwd=outside, env=_outside_environment()
    )
    if not version.stdout.decode().startswith("connect-four "):
        raise ReleaseCheckFailed(f"connect-four --version says {version.stdout!r}")


def _check_missing_extra(bin_folder: Path, outside: Path, artifact: Path) -> None:
    """Without the extra, the service says in one line how to install it from where it came."""
    result = subprocess.run(
        [bin_folder / "connect-four-service", "--help"],
        capture_output=True,
        cwd=outside,
        env=_outside_environment(),
        check=False,
    )
    lines = result.stderr.decode().splitlines()
    if result.returncode != 1 or len(lines) != 1 or f"{artifact}[service]" not in lines[0]:
        raise ReleaseCheckFailed(
            f"connect-four-service without its extra said {lines!r} ({result.returncode})"
        )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def _service(bin_folder: Path, outside: Path) -> Iterator[str]:
    """The installed service on a free port of 127.0.0.1, then stopped by SIGTERM.

    A clean stop is uvicorn's: the application shut down, the process ended
    by the signal it handled (or with status 0), and no traceback or
    warning in its output.
    """
    port = _free_port()
    log_path = outside / "service.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                bin_folder / "connect-four-service",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                outside / "games.db",
            ],
            cwd=outside,
            env=_outside_environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_until_serving(process, base)
            yield base
        finally:
            process.send_signal(signal.SIGTERM)
            status: int | None
            try:
                status = process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                status = None
    output = log_path.read_text(errors="replace")
    if status not in (0, -signal.SIGTERM) or "Application shutdown complete." not in output:
        raise ReleaseCheckFailed(
            f"the service did not stop cleanly on SIGTERM ({status}): {output[-400:]}"
        )
    for trouble in ("Traceback", "Warning", "leaked"):
        if trouble in output:
            raise ReleaseCheckFailed(f"the service printed {trouble!r}: {output[-400:]}")


def _wait_until_serving(process: subprocess.Popen[bytes], base: str) -> None:
    """Return once the service answers; raise if it exits or stays silent past START_SECONDS."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        if process.poll() is not None:
            raise ReleaseCheckFailed(f"the service exited {process.returncode} at start-up")
        try:
            _get(base + "/openapi.json")
            return
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise ReleaseCheckFailed("the service did not answer within 60 s") from None
            time.sleep(0.1)  # polling a starting server


def _get(url: str) -> bytes:
    """GET ``url``: its body; raises on any status but 200."""
    with urllib.request.urlopen(url, timeout=30) as answer:  # noqa: S310 (a URL of our own, on 127.0.0.1)
        body: bytes = answer.read()
        return body


def _post(url: str, body: object) -> object:
    """POST ``body`` as JSON; the JSON answer."""
    request = urllib.request.Request(  # noqa: S310 (a URL of our own, on 127.0.0.1)
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:  # noqa: S310 (a URL of our own, on 127.0.0.1)
        return json.loads(answer.read())


class _References(HTMLParser):
    """The URLs an HTML document loads: scripts, styles, icons, images."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        for key in ("src", "href") if tag in {"script", "link", "img"} else ():
            if names.get(key):
                self.found.append(str(names[key]))


_JS_IMPORT = re.compile(r"""(?:import|from)\s*\(?\s*["']([^"']+\.js)["']""")


def _check_loaded_files(base: str, page: str) -> int:
    """Every file ``page`` loads, and every module those scripts import, is served from ``base``."""
    html = _get(base + page)
    parser = _References()
    parser.feed(html.decode())
    pending = [urljoin(base + page, url) for url in parser.found]
    seen: set[str] = set()
    while pending:
        url = pending.pop()
        if url in seen:
            continue
        seen.add(url)
        if urlsplit(url).netloc != urlsplit(base).netloc:
            raise ReleaseCheckFailed(f"{page} loads {url}, from outside the service")
        try:
            body = _get(url)
        except urllib.error.HTTPError as error:
            raise ReleaseCheckFailed(f"{page} loads {url}: {error.code}") from None
        if url.endswith(".js"):
            pending += [urljoin(url, name) for name in _JS_IMPORT.findall(body.decode())]
    return len(seen)


def _check_service(bin_folder: Path, outside: Path) -> None:
    """The installed service serves its page, documents and API, and stops cleanly."""
    with _service(bin_folder, outside) as base:
        if _check_loaded_files(base, "/") < 2:
            raise ReleaseCheckFailed("the page loads no files")
        openapi = _get(base + "/openapi.json")
        if "/drop_token" not in json.loads(openapi)["paths"]:
            raise ReleaseCheckFailed("/openapi.json lists no /drop_token")
        _check_loaded_files(base, "/docs")
        game = _post(base + "/drop_token", {"players": ["ann", "bob"], "columns": 4, "rows": 4})
        assert isinstance(game, dict)
        game_id = game["gameId"]
        for player, column in [("ann", 0), ("bob", 1)] * 3 + [("ann", 0)]:
            _post(f"{base}/drop_token/{game_id}/{player}", {"column": column})
        state = _get(f"{base}/drop_token/{game_id}")
        if json.loads(state).get("winner") != "ann":
            raise ReleaseCheckFailed(f"the API game did not end with ann's win: {state!r}")
        scores = _post(base + "/analysis", {"rows": 4, "columns": 4, "moves": [0, 1, 0, 1, 0]})
        if not isinstance(scores, dict) or scores.get("best") != [0]:
            raise ReleaseCheckFailed(f"/analysis did not rank blocking column 0 best: {scores!r}")
        move = _post(
            base + "/computer_move", {"rows": 4, "columns": 4, "moves": [0, 1, 0, 1, 0], "level": 5}
        )
        if not isinstance(move, dict) or move.get("column") != 0:
            raise ReleaseCheckFailed(f"/computer_move did not block the win in column 0: {move!r}")


if __name__ == "__main__":
    sys.exit(main())
