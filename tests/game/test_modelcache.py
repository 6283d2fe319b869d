"""The parsed game models cached on disk: read when fresh and trusted, else parsed again."""

from __future__ import annotations

import logging
import marshal
import os
import shutil
import tomllib
from pathlib import Path

import pytest

from judge.cache import stamps
from judge.errors import ManifestError
from judge.game.gamemodel import load_game_model, model_path
from judge.game.modelcache import FORMAT, MAGIC, cache_file, model_data

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


def _plant(path: str, tables: dict[str, object], mode: int) -> None:
    """A cache entry for `path` with its current stamp but other tables."""
    where = Path(cache_file(path))
    key = marshal.loads(where.read_bytes()[len(MAGIC):])[1]
    where.write_bytes(MAGIC + marshal.dumps((FORMAT, key, stamps((path,)), tables)))
    where.chmod(mode)


def test_the_first_load_parses_and_caches_the_model_file(model: str) -> None:
    assert not Path(cache_file(model)).exists()
    assert model_data(model) == _tables(model)
    assert Path(cache_file(model)).stat().st_mode & 0o077 == 0
    assert model_data(model) == _tables(model)
    assert load_game_model(model).turn_rule == _tables(model)["turn_rule"]


def test_a_fresh_trusted_entry_is_read_instead_of_the_file(model: str) -> None:
    model_data(model)
    planted = dict(_tables(model), description="lu dans le cache")
    _plant(model, planted, 0o600)
    assert model_data(model)["description"] == "lu dans le cache"


def test_an_entry_others_can_write_is_ignored_and_rewritten(model: str, caplog: pytest.LogCaptureFixture) -> None:
    model_data(model)
    _plant(model, dict(_tables(model), description="planté"), 0o666)
    with caplog.at_level(logging.WARNING, logger="judge.cache"):
        assert model_data(model) == _tables(model)
    assert any("cache ignoré" in message for message in caplog.messages)
    assert Path(cache_file(model)).stat().st_mode & 0o077 == 0
    assert model_data(model) == _tables(model)


@pytest.mark.parametrize("garbage", [b"", b"\x00pas du marshal", MAGIC + b"\xff\xfe", MAGIC + marshal.dumps((FORMAT, "x"))])
def test_a_corrupt_entry_is_rebuilt(model: str, garbage: bytes) -> None:
    where = Path(cache_file(model))
    where.parent.mkdir(mode=0o700, parents=True)
    where.write_bytes(garbage)
    where.chmod(0o600)
    assert model_data(model) == _tables(model)
    assert where.read_bytes().startswith(MAGIC) and where.read_bytes() != garbage


def test_a_changed_model_file_is_parsed_again(model: str) -> None:
    model_data(model)
    text = Path(model).read_text(encoding="utf-8")
    assert 'description = "' in text
    Path(model).write_text(text.replace('description = "', 'description = "Modifié. ', 1), encoding="utf-8")
    assert str(model_data(model)["description"]).startswith("Modifié. ")
    os.utime(model, (OLD + 10, OLD + 10))  # touched again, same bytes: same tables
    assert str(model_data(model)["description"]).startswith("Modifié. ")


def test_a_file_that_is_not_toml_is_refused_and_not_cached(model: str) -> None:
    Path(model).write_text("format = \n", encoding="utf-8")
    with pytest.raises(ManifestError, match="TOML invalide"):
        model_data(model)
    assert not Path(cache_file(model)).exists()
