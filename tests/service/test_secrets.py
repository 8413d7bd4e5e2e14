"""No secret, path or host in an answer; no secret in a log line (issue 33, finding 1)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from app_client import AppClient

from connect_four.service.errors import StorageError
from connect_four.service.main import create_app
from connect_four.service.postgres_store import _storage_error
from connect_four.service.redaction import redacted, scrub, secrets_in
from connect_four.service.repository import GameStore

SECRET = "TopSecret123"

# Every form libpq reads a password in, each naming an address where nothing listens.
DEAD_URLS = [
    f"postgresql://postgres@/games?host=127.0.0.1&port=1&password={SECRET}",
    f"postgresql://postgres:{SECRET}@127.0.0.1:1/games",
    f"postgres://postgres:{SECRET}@127.0.0.1:1/games?sslmode=disable",
    f"postgresql://postgres@127.0.0.1:1/games?%70assword={SECRET}",
    f"postgresql://postgres@127.0.0.1:1/games?pass%77ord={SECRET[:3]}%{ord(SECRET[3]):02X}{SECRET[4:]}",
    f"postgresql://postgres:{SECRET[:3]}%40{SECRET[3:]}@127.0.0.1:1/games",
    f"postgresql://postgres@127.0.0.1:1/games?sslpassword={SECRET}",
]


def decoded_secret_absent(text: str) -> None:
    """Neither the secret nor its percent-decoded variants appear in ``text``."""
    for form in (SECRET, SECRET[3:], f"{SECRET[:3]}@{SECRET[3:]}"):
        assert form not in text, text


@pytest.mark.parametrize("url", DEAD_URLS)
def test_every_form_of_a_url_password_is_redacted(url: str) -> None:
    decoded_secret_absent(redacted(url))
    assert secrets_in(url)


@pytest.mark.parametrize(
    "conninfo",
    [
        f"host=db password={SECRET} dbname=games",
        f"host=db password = '{SECRET} with blanks' dbname=games",
        f"host=db PASSWORD='{SECRET}\\'s' dbname=games",
        f"sslpassword={SECRET}",
    ],
)
def test_key_value_connection_strings_are_redacted(conninfo: str) -> None:
    decoded_secret_absent(redacted(conninfo))
    assert "host=db" in redacted(conninfo) or conninfo.startswith("ssl")


def test_a_driver_message_quoting_the_secret_is_scrubbed() -> None:
    url = f"postgresql://c4:{SECRET}@db/games"
    text = scrub(f'could not use "{SECRET}" for {url} (password={SECRET})', url)
    decoded_secret_absent(text)
    assert "postgresql://c4:***@db/games" in text


@pytest.mark.parametrize("url", DEAD_URLS)
def test_start_up_on_an_unreachable_server_names_no_secret(url: str) -> None:
    """The start-up line (python -m connect_four.service prints the error) hides the password."""
    with pytest.raises(StorageError) as raised:
        create_app(url)
    decoded_secret_absent(str(raised.value))
    assert "127.0.0.1" in str(raised.value)  # The operator still learns where it looked.


class _FailingStore(GameStore):
    """A store whose every transaction fails with ``error`` (as a stopped server's would)."""

    def __init__(self, error: StorageError) -> None:
        super().__init__()
        self.error = error

    @contextmanager
    def _transaction(self, write: bool = False) -> Iterator[psycopg.Connection]:
        raise self.error
        yield  # pragma: no cover - a generator, as _transaction is


@pytest.fixture
def stopped_server_client(tmp_path: Path) -> Iterator[AppClient]:
    """An app whose PostgreSQL server went away: its store fails as PostgresGameStore maps it."""
    url = DEAD_URLS[0]
    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect(url, connect_timeout=2)
    app = create_app(tmp_path / "games.db")
    with AppClient(app) as client:
        app.state.store.close()
        app.state.store = _FailingStore(_storage_error(refused.value, url))
        yield client


def test_a_stopped_server_answers_no_secret_and_no_address(
    stopped_server_client: AppClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    game = "0" * 32
    for response in (
        stopped_server_client.post(
            "/drop_token", json={"players": ["a", "b"], "rows": 4, "columns": 4}
        ),
        stopped_server_client.post(f"/drop_token/{game}/a", json={"column": 0}),
        stopped_server_client.get(f"/drop_token/{game}"),
    ):
        assert response.status_code == 503, response.text
        assert response.json()["error"] == "storage_unavailable"
        for leak in (SECRET, "127.0.0.1", "postgres", "games?", "port"):
            assert leak not in response.text, response.text
        assert "changed nothing" in response.json()["detail"]
    # The log names the database for the operator, its password masked.
    assert "password=***" in caplog.text
    decoded_secret_absent(caplog.text)


def test_an_sqlite_fault_answers_no_path(tmp_path: Path) -> None:
    folder = tmp_path / "private-folder"
    folder.mkdir()
    db = folder / "games.db"
    with AppClient(create_app(db)) as client:
        db.rename(folder / "moved.db")
        response = client.post("/drop_token", json={"players": ["a", "b"], "rows": 4, "columns": 4})
        assert response.status_code == 503, response.text
        assert response.json()["error"] == "storage_missing"
        assert "private-folder" not in response.text and "games.db" not in response.text
