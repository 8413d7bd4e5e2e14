"""The service's settings: one definition, and its flags, variables, help and README agree."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from connect_four.service import limits
from connect_four.service.cli import main
from connect_four.service.rate_limits import Rates
from connect_four.service.settings import Settings, readme_table

REPOSITORY = Path(__file__).resolve().parents[2]
README = REPOSITORY / "service" / "README.md"
TABLE_START = "<!-- settings table: readme_table() of connect_four/service/settings.py -->\n"
TABLE_END = "<!-- end of the settings table -->"


def test_every_setting_has_one_definition_with_its_own_flag_and_variable() -> None:
    definitions = Settings.definitions()
    assert [setting.name for setting in definitions] == [item.name for item in fields(Settings)]
    assert len({setting.flag for setting in definitions}) == len(definitions)
    assert len({setting.environment for setting in definitions}) == len(definitions)
    for setting in definitions:
        assert setting.environment.startswith("CONNECT_FOUR_"), setting.name
        assert "|" not in setting.help, setting.name  # It would split the README's row.


def test_the_help_names_each_flags_variable_and_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main(["--help"])
    assert exit_status.value.code == 0
    help_text = " ".join(capsys.readouterr().out.split())
    for setting in Settings.definitions():
        shown = f"(${setting.environment}; default {setting.shown_default})"
        assert f"{setting.flag} " in help_text and shown in help_text, setting.name


def test_the_readme_table_is_the_definitions() -> None:
    readme = README.read_text()
    start = readme.index(TABLE_START) + len(TABLE_START)
    table = readme[start : readme.index(TABLE_END, start)]
    assert table == readme_table(), "paste readme_table()'s output into service/README.md"
    for setting in Settings.definitions():
        row = f"| `{setting.flag}` | `{setting.environment}` | {setting.shown_default} |"
        assert row in table, setting.name


def test_the_flags_and_variables_keep_their_names_and_defaults() -> None:
    by_flag = {setting.flag: setting for setting in Settings.definitions()}
    assert by_flag["--db"].environment == "CONNECT_FOUR_DB"
    assert by_flag["--trusted-proxy"].environment == "CONNECT_FOUR_TRUSTED_PROXIES"
    for kind in ("games", "moves", "analysis", "computer", "replays", "reads"):
        assert by_flag[f"--rate-{kind}"].environment == f"CONNECT_FOUR_RATE_{kind.upper()}"
    settings = Settings.from_command_line([], {})
    assert (settings.host, settings.port, settings.db) == ("127.0.0.1", 8080, "drop_token.db")
    assert (settings.fd, settings.max_db_pages, settings.read_only) == (None, None, False)
    assert (settings.body_timeout, settings.header_timeout) == (10.0, 10.0)
    assert settings.winner_queue == limits.WINNER_WAITING
    assert settings.max_connections == limits.MAX_CONNECTIONS
    assert settings.max_client_connections == limits.MAX_CLIENT_CONNECTIONS
    assert settings.max_client_waits == limits.MAX_CLIENT_WAITS
    assert settings.rates() == Rates()
    assert (settings.trusted_proxy, settings.no_access_log) == ("", False)


def test_a_flag_wins_over_its_variable_and_an_empty_variable_is_unset() -> None:
    environ = {"CONNECT_FOUR_PORT": "9000", "CONNECT_FOUR_READ_ONLY": "yes", "CONNECT_FOUR_DB": ""}
    settings = Settings.from_command_line([], environ)
    assert (settings.port, settings.read_only, settings.db) == (9000, True, "drop_token.db")
    assert Settings.from_command_line(["--port", "9001"], environ).port == 9001
    both = Settings.from_command_line(["--trusted-proxy", "10.0.0.0/8"], environ)
    assert both.trusted_proxies().names() == ["10.0.0.0/8"]


@pytest.mark.parametrize(
    ("argv", "environ", "said"),
    [
        ([], {"CONNECT_FOUR_RATE_MOVES": "5/fortnight"}, "$CONNECT_FOUR_RATE_MOVES: '5/fortnight'"),
        ([], {"CONNECT_FOUR_MAX_CONNECTIONS": "many"}, "$CONNECT_FOUR_MAX_CONNECTIONS:"),
        ([], {"CONNECT_FOUR_NO_ACCESS_LOG": "perhaps"}, "$CONNECT_FOUR_NO_ACCESS_LOG:"),
        (["--db", "postgresql://c4@db/games", "--max-db-pages", "9"], {}, "SQLite files only"),
        ([], {"CONNECT_FOUR_TRUSTED_PROXIES": "not an address"}, "--trusted-proxy:"),
    ],
)
def test_a_bad_value_ends_the_program_saying_where_it_came_from(
    argv: list[str], environ: dict[str, str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_status:
        Settings.from_command_line(argv, environ)
    assert exit_status.value.code == 2
    assert said in capsys.readouterr().err


def test_importing_the_command_line_without_the_extra_never_exits() -> None:
    """Without uvicorn the import works; main() says what to install, status 1."""
    code = (
        "import sys; sys.modules['uvicorn'] = None\n"
        "import connect_four.service.cli as cli\n"
        "print('imported', flush=True)\n"
        "cli.main(['--help'])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPOSITORY, check=False
    )
    assert result.stdout == "imported\n"
    assert result.returncode == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith("connect-four-service: uvicorn is not installed; the web service")
    assert "needs the service extra: pip install " in line
