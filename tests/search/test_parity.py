"""One search everywhere: the light search of `judge search` (the exported index) gives what
the Whoosh index of record gives, on the whole eval set, and never imports Whoosh."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from judge.cache import cache_dir
from judge.search.engine import index_for
from judge.search.engine import read_term as whoosh_term
from judge.search.export import EXPORT_FILE, index_name
from judge.search.light import open_light
from judge.search.light import read_term as light_term
from judge.search.query import search_with

ROOT = Path(__file__).resolve().parents[2]


def eval_cases() -> Any:
    spec = importlib.util.spec_from_file_location("eval_search", ROOT / "bench" / "eval_search.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["eval_search"] = module
    spec.loader.exec_module(module)
    return module.load_cases()


def shown(result: Any) -> Any:
    """Everything a result shows but the one-time rebuild notice."""
    return (result.hits, result.suggestion, result.glossary)


@pytest.mark.parametrize(("edition", "lang"), [(None, None), ("2004", None), (None, "fr"), ("2010", "en")])
def test_light_search_gives_whoosh_results_on_the_eval_set(graph, edition: str | None, lang: str | None) -> None:  # type: ignore[no-untyped-def]
    whoosh, light = index_for(graph), open_light()
    cases = eval_cases()
    assert len(cases) >= 40
    same = [case.q for case in cases
            if shown(search_with(whoosh, case.q, edition=edition, lang=lang))
            == shown(search_with(light, case.q, edition=edition, lang=lang))]
    assert same == [case.q for case in cases]
    # Not an empty agreement: the eval set finds rules.
    assert sum(bool(search_with(light, case.q, edition=edition, lang=lang).hits) for case in cases) > len(cases) // 2


def test_exported_terms_score_as_whoosh(graph) -> None:  # type: ignore[no-untyped-def]
    """Each exported term's BM25F scores and positions, recomputed from the exported term
    frequencies and field lengths, are Whoosh's to the bit (every 7th term of every field)."""
    whoosh, light = index_for(graph), open_light()
    checked = 0
    for language in whoosh.languages:
        searcher = whoosh.searcher(language)
        for field in ("title", "text", "examples", "context", "exact", "heading"):
            for term in list(searcher.reader().field_terms(field))[::7]:
                assert light_term(light.source(language), field, term) == whoosh_term(searcher, field, term)
                checked += 1
        assert light_term(light.source(language), "text", "∅mana") is None
    assert checked > 1000


def test_light_stems_are_the_snowball_stems(graph) -> None:  # type: ignore[no-untyped-def]
    """The exported lexicon stems a query word as the index's stemmer does (inflections the
    texts lack included: « bloqueuses »), and a word outside the vocabulary matches nothing."""
    whoosh, light = index_for(graph), open_light()
    words = ["bloqueuses", "attaquants", "engagee", "mana", "blocking", "creatures", "308.2a"]
    for language in whoosh.languages:
        for word in words:
            assert light.stem(language, word) == whoosh.stem(language, word) or not light.postings(language).clause(
                light.source(language), light.stem(language, word))
    assert light.stem("fr", "bloqueuses") == "bloqueur"
    assert light.stem("fr", "xyzzyq") == whoosh.stem("fr", "xyzzyq") == "∅xyzzyq"


def test_judge_search_reads_the_export_without_importing_whoosh(graph, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Run outside the checkout: `python -c` puts the current folder first on sys.path, which
    # would import the source tree instead of the installed package (whose cache this is).
    index_for(graph)  # the index and its export are in the cache
    assert (cache_dir() / index_name(graph.editions)[0] / EXPORT_FILE).is_file()
    code = ("import sys; from judge.cli import main; code = main(['search', 'blessures de combat']); "
            "sys.exit(10 + code if 'whoosh' in sys.modules or 'judge.corpus.parser' in sys.modules else code)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                         cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "310 Etape des blessures de combat" in run.stdout


def test_a_corrupt_export_is_rebuilt_with_the_index(graph) -> None:  # type: ignore[no-untyped-def]
    index_for(graph)
    path = cache_dir() / index_name(graph.editions)[0] / EXPORT_FILE
    path.write_bytes(b"\x00not marshal")
    light = open_light()
    assert light.take_notice() == "index de recherche corrompu : reconstruction"
    assert path.read_bytes() != b"\x00not marshal"
    assert [h.number for h in search_with(light, "brulure de mana").hits][:1] == ["300.3"]
