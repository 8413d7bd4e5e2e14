"""The project installs like any Python project (issue 10).

A wheel is built from a copy of the checkout and installed into a fresh
virtual environment with no pip of its own and no access to the checkout;
its commands are then run from a folder outside the repository. The wheel
is built without build isolation, with the setuptools that
requirements.txt installs, so the test needs no network.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from connect_four import engine
from connect_four.terminal.options import VERSION
from connect_support import CONNECT, ROOT, TEST_FILES, dialog_inputs, piped_transcript, read_dialog

pytestmark = pytest.mark.slow

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
FIRST_PARTY = {"connect_four", "connect"}


# --- The metadata --------------------------------------------------------------


def test_version_is_written_only_in_engine() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    dynamic = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "connect_four.engine.__version__"}
    assert VERSION is engine.__version__


def test_installing_the_game_pulls_in_nothing() -> None:
    assert PYPROJECT["project"]["dependencies"] == []


def _third_party_imports(folder: Path) -> set[str]:
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - FIRST_PARTY


def _requirement_name(requirement: str) -> str:
    """The name a requirement installs for import: ``psycopg-pool>=3`` is ``psycopg_pool``."""
    for stop in "<>=!~;[ ":
        requirement = requirement.split(stop)[0]
    return requirement.strip().lower().replace("-", "_").replace(".", "_")


def test_engine_and_terminal_import_nothing_outside_the_standard_library() -> None:
    assert _third_party_imports(ROOT / "engine") == set()
    assert _third_party_imports(ROOT / "terminal") == set()


def test_the_service_extra_covers_what_the_service_imports() -> None:
    extra = {_requirement_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["service"]}
    # FastAPI brings starlette and pydantic with it, at versions it agrees with.
    brought_by_fastapi = {"starlette", "pydantic"}
    assert _third_party_imports(ROOT / "service") <= extra | brought_by_fastapi


def test_requirements_install_the_project_with_its_service_extra() -> None:
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert "-e .[service,database]" in lines  # the database extra: tests/test_database.py


def test_console_scripts_name_existing_functions() -> None:
    scripts = PYPROJECT["project"]["scripts"]
    assert scripts == {
        "connect-four": "connect_four.connect:main",
        "connect-four-service": "connect_four.service.cli:main",
        "connect-four-bot": "connect_four.terminal.bot:main",
    }


# --- A real install, outside the checkout ------------------------------------------


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh virtual environment with the wheel installed."""
    base = tmp_path_factory.mktemp("install")
    source = base / "source"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "build",
            "node_modules",
            "*.egg-info",
            "__pycache__",
            "*.so",
            ".*_cache",
        ),
    )
    wheels = base / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    # Built with a compiler that always fails: the compiled search is
    # optional (setup.py), so the wheel still builds, in a fifth of the
    # time, and the game installed from it runs on the pure-Python engine.
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(source)],
        check=True,
        capture_output=True,
        env={**os.environ, "CC": "false"},
    )
    (wheel,) = wheels.glob("connect_four-*.whl")
    assert wheel.name.startswith(f"connect_four-{engine.__version__}-")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [*pip, "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    return venv / "bin"


RUNTIME_FOLDERS = {"engine": "engine", "terminal": "terminal", "service": "service"}
"""The checkout's folders that ship, by their folder inside connect_four."""

NOT_SHIPPED = ("__pycache__", ".so", ".pyc", "README.md")
"""Build products in the checkout's folders (a wheel carries them only as built), and their READMEs."""


def _runtime_files() -> set[str]:
    """What the wheel must hold, as paths inside it: every file of the package folders and the game."""
    wanted = {"connect_four/__init__.py", "connect_four/py.typed", "connect_four/connect.py"}
    for inside, folder in RUNTIME_FOLDERS.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and not any(part in str(path) for part in NOT_SHIPPED):
                wanted.add(f"connect_four/{inside}/{path.relative_to(ROOT / folder).as_posix()}")
    return wanted


def test_the_wheel_holds_every_runtime_file_and_no_test_plumbing(installed: Path) -> None:
    """The page, the books and the compiled search's sources ship; no test or conftest does."""
    (wheel,) = installed.parent.parent.glob("wheels/connect_four-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name for name in archive.namelist() if ".dist-info/" not in name}
    assert shipped == _runtime_files()
    for needed in (
        "service/static/index.html",
        "engine/data/book-5x8-connect4.bin",
        "engine/_native.c",
    ):
        assert f"connect_four/{needed}" in shipped
    assert not [name for name in shipped if "conftest" in name or "/test_" in name]


def _run(
    command: list[str], stdin: bytes = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    # Nothing of the checkout may leak in through the environment.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(command, input=stdin, capture_output=True, cwd=cwd, env=env, timeout=120)


def test_installed_game_gives_the_assignment_transcript(installed: Path, tmp_path: Path) -> None:
    text = read_dialog(TEST_FILES / "example_game.txt")
    stdin = "".join(line + "\n" for line in dialog_inputs(text)).encode()
    result = _run([str(installed / "connect-four")], stdin, cwd=tmp_path)
    assert result.stdout == piped_transcript(text).encode()
    assert (result.returncode, result.stderr) == (0, b"")


@pytest.mark.parametrize(
    "arguments",
    [
        ["--version"],
        ["--help"],
        ["--rows", "6", "--columns", "7", "--announce", "--highlight"],
        ["--computer", "O", "--level", "1", "--seed", "3"],
        ["--rows", "0"],
        ["--level", "2"],
    ],
    ids=" ".join,
)
def test_installed_command_is_the_same_program_as_connect_py(
    installed: Path, tmp_path: Path, arguments: list[str]
) -> None:
    stdin = b"3\n3\n4\n4\n5\n5\n6\n"
    script = _run([str(installed / "connect-four"), *arguments], stdin, cwd=tmp_path)
    checkout = _run([sys.executable, str(CONNECT), *arguments], stdin, cwd=tmp_path)
    assert _words(_named_as_installed(checkout.stdout)) == _words(script.stdout)
    assert _named_as_installed(checkout.stderr) == script.stderr
    assert script.returncode == checkout.returncode
    assert b"connect.py" not in script.stdout + script.stderr


def _named_as_installed(output: bytes) -> bytes:
    """connect.py's output as the installed command words it: it names itself connect-four."""
    return output.replace(b"python3 connect.py", b"connect-four").replace(
        b"connect.py", b"connect-four"
    )


def _words(output: bytes) -> list[bytes]:
    """The output's words: --help's usage lines wrap where the program's name ends."""
    return output.split()


def test_installed_engine_imports_from_anywhere(installed: Path, tmp_path: Path) -> None:
    code = "import connect_four.engine; print(connect_four.engine.__file__); print(connect_four.engine.Game.from_moves('334').moves)"
    result = _run([str(installed / "python"), "-c", code], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    where, moves = result.stdout.decode().splitlines()
    assert Path(where).is_relative_to(installed.parent)
    assert moves == "[3, 3, 4]"


def test_a_wheel_built_without_a_compiler_plays_on_the_pure_python_engine(
    installed: Path, tmp_path: Path
) -> None:
    """The compiled search is optional: the fixture's compiler fails, and nothing else does."""
    assert not list(installed.parent.glob("lib/python*/site-packages/connect_four/engine/*.so"))
    code = (
        "from connect_four.engine import Game, Rules; from connect_four.engine.exact import Solver;"
        " print(Solver(Rules(4, 4)).backend)"
    )
    result = _run([str(installed / "python"), "-c", code], cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, b"python\n"), result.stderr


def test_service_command_without_its_extra_says_what_to_install(
    installed: Path, tmp_path: Path
) -> None:
    result = _run([str(installed / "connect-four-service"), "--help"], cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1
    # The package is not on the index: the hint names the wheel pip installed it from.
    (wheel,) = installed.parent.parent.glob("wheels/connect_four-*.whl")
    assert lines[0].endswith(f"needs the service extra: pip install '{wheel}[service]'")


def test_the_bot_command_runs_on_the_standard_library_alone(
    installed: Path, tmp_path: Path
) -> None:
    # The install has no service extra: the bot needs none (urllib, the engine).
    result = _run([str(installed / "connect-four-bot"), "--help"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert b"--agent FILE.py" in result.stdout and b"--level" in result.stdout


def test_one_version_everywhere(tmp_path: Path) -> None:
    """The package, the game's --version and the service's OpenAPI document say the same."""
    from connect_four.service.main import create_app

    dialog = (TEST_FILES / "options" / "version.txt").read_text(encoding="utf-8")
    assert dialog.strip() == f"connect.py {engine.__version__}"
    assert VERSION == engine.__version__
    app = create_app(db=tmp_path / "games.db")
    assert app.openapi()["info"]["version"] == engine.__version__
