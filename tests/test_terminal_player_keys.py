"""The key file of the lobby's players (connect_four.terminal.player_keys)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from connect_four.terminal.player_keys import (
    KEY_ENVIRONMENT,
    KeyFileError,
    StoredPlayer,
    key_file,
    read_player,
    save_player,
)

SERVER = "http://127.0.0.1:8080"
OTHER = "http://127.0.0.2:8080"


@pytest.fixture(autouse=True)
def no_key_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENVIRONMENT, raising=False)


def test_the_file_is_under_xdg_config_home_else_dot_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert key_file({"XDG_CONFIG_HOME": str(tmp_path / "conf")}) == (
        tmp_path / "conf" / "connect-four" / "players.json"
    )
    expected = tmp_path / "home" / ".config" / "connect-four" / "players.json"
    assert key_file({}) == expected
    assert key_file({"XDG_CONFIG_HOME": "relative/conf"}) == expected  # invalid: ignored


def test_a_saved_player_is_read_back_per_server_and_the_file_is_its_owners_only(
    tmp_path: Path,
) -> None:
    path = tmp_path / "conf" / "connect-four" / "players.json"
    assert read_player(SERVER, path) is None
    save_player(SERVER, StoredPlayer("ann", "secret-ann"), path)
    save_player(OTHER, StoredPlayer("bob", "secret-bob"), path)
    ann, bob = read_player(SERVER, path), read_player(OTHER, path)
    assert ann is not None and (ann.name, ann.key) == ("ann", "secret-ann")
    assert bob is not None and (bob.name, bob.key) == ("bob", "secret-bob")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert json.loads(path.read_text())[SERVER] == {"name": "ann", "key": "secret-ann"}
    assert "secret" not in repr(ann)


def test_a_file_made_readable_by_others_is_rewritten_for_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "players.json"
    save_player(SERVER, StoredPlayer("ann", "k1"), path)
    path.chmod(0o644)
    path.with_name("players.json.new").write_text("{}")
    path.with_name("players.json.new").chmod(0o644)
    save_player(SERVER, StoredPlayer("ann", "k2"), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_connect_four_key_overrides_the_files_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "players.json"
    monkeypatch.setenv(KEY_ENVIRONMENT, "from-the-environment")
    player = read_player(SERVER, path)
    assert player is not None and (player.name, player.key) == ("", "from-the-environment")
    save_player(SERVER, StoredPlayer("ann", "from-the-file"), path)
    player = read_player(SERVER, path)
    assert player is not None and (player.name, player.key) == ("ann", "from-the-environment")


@pytest.mark.parametrize("text", ["not json", "[1, 2]"])
def test_a_broken_file_is_refused_by_name_without_its_contents(tmp_path: Path, text: str) -> None:
    path = tmp_path / "players.json"
    path.write_text(text)
    with pytest.raises(KeyFileError, match=r"players\.json") as refusal:
        read_player(SERVER, path)
    assert text not in str(refusal.value)
