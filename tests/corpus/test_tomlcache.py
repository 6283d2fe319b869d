"""The parsed game models cached on disk: read when fresh and trusted, else parsed again."""

from __future__ import annotations

import json
import logging
import os
import shutil
import tomllib
from pathlib import Path

import pytest
from cache_support import parts, spoil

from judge.cache import read_part, stamps, write_kb
from judge.corpus.config import embedded_knowledge_base
from judge.corpus.tomlcache import KIND, toml_data
from judge.errors import ManifestError
from judge.game.gamemodel import load_game_model, model_path

OLD = 1_000_000_000  # a file time long past: the file's stamp is not "racy"


@pytest.fixture
def model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A copy of the 2004 model, last changed long ago, and a cache folder of its own."""
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "modele.toml"
    shutil.copyfile(model_path("2004"), path)
    os.utime(path, (OLD, OLD))
    return str(path)


def _tables(path: str) -> dict[str, object]:
    return tomllib.loads(Path(path).read_text(encoding="utf-8"))


def _kb() -> Path:
    return Path(embedded_knowledge_base())


def _cached(path: str) -> str | None:
    """The JSON of the model's part in the knowledge base, or None."""
    found = read_part(str(_kb()), KIND, os.path.abspath(path))
    return None if found is None else found[2]


def _plant(path: str, tables: dict[str, object], mode: int) -> None:
    """A cache entry for `path` with its current stamp but other tables."""
    name = os.path.abspath(path)
    found = read_part(str(_kb()), KIND, name)
    assert found is not None
    assert write_kb(str(_kb()), [(KIND, name, found[0], stamps((path,)), json.dumps(tables))])
    _kb().chmod(mode)


def test_the_first_load_parses_and_caches_the_model_file(model: str) -> None:
    assert _cached(model) is None
    assert toml_data(model) == _tables(model)
    assert _kb().stat().st_mode & 0o077 == 0
    assert json.loads(_cached(model) or "") == _tables(model)
    assert toml_data(model) == _tables(model)
    assert load_game_model(model).turn_rule == _tables(model)["turn_rule"]


def test_a_fresh_trusted_entry_is_read_instead_of_the_file(model: str) -> None:
    toml_data(model)
    planted = dict(_tables(model), description="lu dans le cache")
    _plant(model, planted, 0o600)
    assert toml_data(model)["description"] == "lu dans le cache"


def test_an_entry_others_can_write_is_ignored_and_rewritten(model: str, caplog: pytest.LogCaptureFixture) -> None:
    toml_data(model)
    _plant(model, dict(_tables(model), description="planté"), 0o666)
    with caplog.at_level(logging.WARNING, logger="judge.cache"):
        assert toml_data(model) == _tables(model)
    assert any("cache ignoré" in message for message in caplog.messages)
    assert _kb().stat().st_mode & 0o077 == 0
    assert toml_data(model) == _tables(model)


@pytest.mark.parametrize("damage", ["empty file", "not sqlite", "not json", "not a table", "checksum",
                                    "nested json"])
def test_a_corrupt_entry_is_rebuilt(model: str, damage: str) -> None:
    toml_data(model)
    where, name = _kb(), os.path.abspath(model)
    if damage in ("empty file", "not sqlite"):
        where.write_bytes(b"" if damage == "empty file" else b"\x00pas une base" * 300)
    elif damage == "checksum":
        spoil(where, "UPDATE parts SET value = '{}' WHERE kind = ? AND name = ?", (KIND, name))
    else:
        found = read_part(str(where), KIND, name)
        assert found is not None
        planted = {"not json": "{", "not a table": "[1]",
                   # with its checksum, nested deeper than Python reads (issue 38: before, « entrée
                   # trop imbriquée » at every run, forever)
                   "nested json": "[" * 100_000 + "]" * 100_000}[damage]
        write_kb(str(where), [(KIND, name, found[0], stamps((model,)), planted)])
    assert toml_data(model) == _tables(model)
    assert json.loads(parts(where)[(KIND, name)][1]) == _tables(model)


def test_a_planted_model_that_fails_its_reader_is_parsed_again_not_blamed_on_the_file(model: str) -> None:
    # Issue 38: tables with their checksum and the file's stamp, but not a game model: the
    # reader's refusal named the (sound) file at every run. The file decides: parsed again.
    load_game_model(model)
    os.utime(model, (OLD + 5, OLD + 5))  # a new stamp: the model's in-process memo is not asked
    _plant(model, dict(_tables(model), turn_rule=["pas", "une", "règle"]), 0o600)
    assert load_game_model(model).turn_rule == _tables(model)["turn_rule"]
    assert json.loads(_cached(model) or "") == _tables(model)


def test_a_changed_model_file_is_parsed_again(model: str) -> None:
    toml_data(model)
    text = Path(model).read_text(encoding="utf-8")
    assert 'description = "' in text
    Path(model).write_text(text.replace('description = "', 'description = "Modifié. ', 1), encoding="utf-8")
    assert str(toml_data(model)["description"]).startswith("Modifié. ")
    os.utime(model, (OLD + 10, OLD + 10))  # touched again, same bytes: same tables
    assert str(toml_data(model)["description"]).startswith("Modifié. ")


def test_a_file_that_is_not_toml_is_refused_and_not_cached(model: str) -> None:
    Path(model).write_text("format = \n", encoding="utf-8")
    with pytest.raises(ManifestError, match="TOML invalide"):
        toml_data(model)
    assert _cached(model) is None
