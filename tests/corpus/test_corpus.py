"""Loading the corpus: manifest, user configuration, the parse cache and its keys."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cache_support import parts, spoil

from judge.cache import write_kb
from judge.corpus.loader import corpus_key, load_editions, load_graph
from judge.corpus.manifest import load_manifest
from judge.errors import ManifestError
from judge.resources import rules_dir


def test_manifest_names_editions_and_files() -> None:
    editions = load_manifest()
    assert [e.id for e in editions] == ["2004", "2010"]
    assert [Path(f).name for f in editions[0].texts[0].files] == [
        "004_17a8758e9cd78ccf.txt", "000_57306400b9ed3ddd.txt"]
    assert editions[1].removed == ("2004:300.3",)


def test_corpus_is_byte_for_byte_the_seeds() -> None:
    seeds = Path(__file__).resolve().parents[3] / "shared" / "seeds"
    if not seeds.is_dir():
        pytest.skip("../shared/seeds absent")
    for seed in seeds.glob("*.txt"):
        assert (rules_dir() / seed.name).read_bytes() == seed.read_bytes()


@pytest.mark.parametrize(
    ("content", "field", "reason"),
    [
        ("[[edition]]\nid = 2004\n", "edition[0].id", "une chaîne non vide est attendue"),
        ('[[edition]]\nid = "x"\nbogus = 1\n', "edition[0].bogus", "clé inconnue"),
        ('[[edition]]\nid = "x"\n', "edition[0].text", "au moins un texte est attendu"),
        ('[[edition]]\nid = "x"\n[[edition.text]]\nlanguage = "fr"\nfiles = ["absent.txt"]\n',
         "edition[0].text[0].files[0]", "fichier introuvable"),
        ("[[edition]\n", "", "TOML invalide"),
    ],
)
def test_manifest_errors_name_the_field(tmp_path: Path, content: str, field: str, reason: str) -> None:
    path = tmp_path / "manifest.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ManifestError) as info:
        load_manifest(path)
    assert info.value.field == field and reason in str(info.value)


def test_config_rejects_unknown_edition(tmp_path: Path) -> None:
    config = tmp_path / "judge.toml"
    config.write_text('[[text]]\nedition = "1999"\nlanguage = "en"\npath = "x.txt"\n', encoding="utf-8")
    with pytest.raises(ManifestError, match="édition inconnue « 1999 »"):
        load_editions(str(config))


def test_config_adds_a_user_text_without_touching_the_package(tmp_path: Path) -> None:
    text = tmp_path / "mine.txt"
    text.write_text("901. Variante\n\n901.1. Une règle à moi (voir règle 300.1).\n", encoding="cp1252")
    config = tmp_path / "judge.toml"
    config.write_text(
        '[[edition]]\nid = "maison"\nlabel = "Règles maison"\n[[edition.text]]\nlanguage = "fr"\n'
        'files = ["mine.txt"]\n', encoding="utf-8")
    graph = load_graph(str(config))
    assert graph.edition_ids == ("2004", "2010", "maison")
    rule = graph.require("maison", "901.1")
    assert graph.references(rule)[0].target is None  # 300.1 is 2004's, not this edition's


def test_cache_warm_load_does_not_import_lark(tmp_path: Path) -> None:
    env = dict(os.environ, JUDGE_CACHE_DIR=str(tmp_path))
    code = "import sys; from judge.corpus.loader import load_graph; load_graph(); print('lark' in sys.modules)"
    cold = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    warm = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert (cold.stdout.strip(), warm.stdout.strip()) == ("True", "False")


def test_cache_key_changes_with_a_source(tmp_path: Path) -> None:
    copy = tmp_path / "rules"
    shutil.copytree(rules_dir(), copy)
    editions = load_manifest(copy / "manifest.toml")
    before = corpus_key(editions)
    target = copy / "003_bc0c71f8460cf034.txt"
    target.write_bytes(target.read_bytes() + b"\n\n505.6.\n\nAjout.\n")
    assert corpus_key(editions) != before


@pytest.mark.parametrize("value", ["not json", '[{"@":"Planted","x":1}]'])
def test_cache_corrupt_file_is_ignored_and_rewritten(value: str) -> None:
    kb = Path(load_graph().knowledge_base)
    key, good = parts(kb)[("documents", "")]
    assert key == corpus_key(load_editions())
    if value.startswith("["):  # whole, with its checksum: a record judge does not know
        write_kb(str(kb), [("documents", "", key, (), value)])
    else:  # a stray write: the checksum fails
        spoil(kb, "UPDATE parts SET value = ? WHERE kind = 'documents'", (value,))
    graph = load_graph()
    assert len(graph.rules("2004")) == 82
    assert parts(kb)[("documents", "")] == (key, good)


def test_each_graph_keeps_the_caches_of_its_own_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A library user with two configurations: each graph's caches go to its own knowledge base,
    whichever was loaded last (no process-wide « current » configuration)."""
    from judge.corpus.citations import rule_doubts
    from judge.corpus.config import knowledge_base

    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("JUDGE_CONFIG", raising=False)
    text = tmp_path / "regole.txt"
    text.write_text("300.3. Bruciatura di mana.\n", encoding="utf-8")
    config = tmp_path / "judge.toml"
    config.write_text(f'[[text]]\nedition = "2004"\nlanguage = "it"\npath = "{text}"\n', encoding="utf-8")
    italian = load_graph(str(config))
    plain = load_graph()  # loaded last
    assert italian.knowledge_base == knowledge_base(str(config)) != plain.knowledge_base == knowledge_base()
    rule_doubts(italian, italian.require("2004", "300.3"))  # the first graph's doubts, made now
    assert ("doubts", "") in parts(Path(italian.knowledge_base))
    assert ("doubts", "") not in parts(Path(plain.knowledge_base))
