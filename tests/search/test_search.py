"""Full-text search: numbers, editions, fuzzy, suggestions, snippets, hostile queries, the index cache."""

from __future__ import annotations

import importlib.util
import multiprocessing
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from judge.cache import cache_dir
from judge.errors import JudgeError, UnknownEdition
from judge.normalize import fold
from judge.search.engine import open_index, search
from judge.search.export import index_name
from judge.search.fields import MAX_QUERY
from judge.search.index import build_index
from judge.search.output import SearchResult, make_snippet, result_json, result_text
from judge.search.query import QueryError, search_with

ROOT = Path(__file__).resolve().parents[2]


def numbers(result: SearchResult) -> list[str]:
    return [f"{h.edition}:{h.number}" for h in result.hits]


def test_search_finds_mana_burn_without_accents(graph) -> None:
    result = search("brulure de mana", graph=graph)
    assert numbers(result)[0] == "2004:300.3"
    assert result.hits[0].status == "historical"
    assert "<mark>brûlure</mark> de <mark>mana</mark>" in result.hits[0].snippet


def test_search_number_goes_straight_to_rule_then_subrules(graph) -> None:
    result = search("règle 308.2", graph=graph)
    assert numbers(result)[:8] == ["2004:308.2"] + [f"2004:308.2{c}" for c in "abcdefg"]
    assert numbers(search("308.2a", graph=graph))[0] == "2004:308.2a"


def test_search_section_number_without_heading_lists_its_rules(graph) -> None:
    # 505 of each release is English only (2004: Split Cards, 2010: Main Phase): those rules
    # first, then the French rules under 2010's 505.
    assert numbers(search("505", graph=graph))[:4] == ["2004:505", "2010:505", "2010:505.1", "2010:505.1a"]


def test_search_number_also_finds_citing_rules(graph) -> None:
    found = numbers(search("306.2", graph=graph, limit=20))
    assert found[0] == "2004:306.2"
    assert {"2004:308.2g", "2004:309.2e"} <= set(found)


def test_search_unknown_number_says_so(graph) -> None:
    result = search("999.9", graph=graph)
    assert result.hits == ()
    assert result.notice is not None and "999.9" in result.notice


def test_search_edition_filter(graph) -> None:
    both = {h.edition for h in search("phase principale", graph=graph, limit=30).hits}
    assert both == {"2004", "2010"}
    only = search("phase principale", graph=graph, edition="2010", limit=30)
    assert only.hits and {h.edition for h in only.hits} == {"2010"}


def test_search_unknown_edition_is_a_french_error(graph) -> None:
    with pytest.raises(UnknownEdition, match="édition inconnue"):
        search("mana", graph=graph, edition="1999")


def test_search_typo_falls_back_to_fuzzy_with_suggestion(graph) -> None:
    result = search("iniative", graph=graph)
    assert result.suggestion == "initiative"
    # The keyword's own rule first (First Strike), then the French rules that name it.
    assert numbers(result)[:3] == ["2004:502.2", "2004:310.5", "2004:306.1"]
    assert "<mark>initiative</mark>" in result.hits[1].snippet


def test_search_nonsense_has_no_hits_and_no_suggestion(graph) -> None:
    result = search("xylophone", graph=graph)
    assert result.hits == ()
    assert result.suggestion is None


@pytest.mark.parametrize(
    ("query", "expected"),
    [("first strike", "2004:310.5"), ("upkeep", "2004:303"), ("mal d'invocation", "2004:308.2a")],
)
def test_search_glossary_expands_jargon(graph, query: str, expected: str) -> None:
    """English jargon finds the French rules through the FR↔EN glossary (French text only)."""
    found = search(query, graph=graph, lang="fr")
    assert expected in numbers(found)[:2]
    assert {h.language for h in found.hits} == {"fr"}


@pytest.mark.parametrize(
    ("query", "number"), [("mana burn", "300.3"), ("until end of turn", "314.2"), ("first strike", "502.2")])
def test_search_english_query_finds_the_english_rule_with_its_french_counterpart(graph, query: str, number: str) -> None:
    hits = search(query, graph=graph, edition="2004").hits
    english = next(h for h in hits if h.number == number)
    assert english.language == "en" and hits[0].language == "en"
    rule = graph.require("2004", number, "en")
    # The words are in the English text of that rule (not a French one).
    assert all(w in rule.text.lower() for w in query.split() if len(w) > 3)
    french = graph.get("2004", number, "fr")
    if french is None:
        assert english.counterpart is None  # 502.2 First Strike: English only
    else:
        assert english.counterpart is not None and english.counterpart.language == "fr"
        assert french.text.startswith(english.counterpart.text.rstrip("…"))


def test_search_finds_the_rule_and_the_glossary_entry(graph) -> None:
    result = search("initiative", graph=graph)
    assert numbers(result)[0] == "2004:502.2"  # the keyword's own rule, First Strike
    assert result.hits[1].language == "fr" and "initiative" in result.hits[1].snippet
    assert [(g.edition, g.term) for g in result.glossary] == [("2004", "First Strike"), ("2010", "First Strike")]
    data = result_json(result)
    assert data["glossary"][0]["found_by"] == "lexicon"
    assert "Glossaire (2004, en) : First Strike" in result_text(result)
    assert search("308.2", graph=graph).glossary == ()


def test_search_french_query_ranks_french_first(graph) -> None:
    for query in ("brûlure de mana", "étape d'entretien", "jusqu'à la fin du tour", "déclaration des bloqueurs"):
        hits = search(query, graph=graph).hits
        assert hits[0].language == "fr", query


def test_search_lang_restricts_to_one_language(graph) -> None:
    assert {h.language for h in search("combat", graph=graph, lang="en", limit=20).hits} == {"en"}
    assert {h.language for h in search("combat", graph=graph, lang="fr", limit=20).hits} == {"fr"}
    with pytest.raises(QueryError, match="langue inconnue"):
        search("combat", graph=graph, lang="de")


def test_search_subrule_hit_carries_parent_context(graph) -> None:
    hit = search("308.2a", graph=graph).hits[0]
    assert hit.context == "308.2 · 308 Etape de déclaration des attaquants"
    assert hit.edition == "2004" and hit.status == "current" and hit.language == "fr"


def test_make_snippet_escapes_html_and_marks_matches() -> None:
    text = "a <b>x</b> & mana"
    snippet = make_snippet(text, [(13, 17)])
    assert snippet == "a &lt;b&gt;x&lt;/b&gt; &amp; <mark>mana</mark>"


def test_make_snippet_windows_long_text() -> None:
    text = " ".join(["mot"] * 200) + " cible " + " ".join(["mot"] * 200)
    start = text.index("cible")
    snippet = make_snippet(text, [(start, start + 5)])
    assert snippet.startswith("… ") and snippet.endswith(" …")
    assert "<mark>cible</mark>" in snippet and len(snippet) < 300


def test_result_json_has_contract_shape(graph) -> None:
    data = result_json(search("brulure de mana", graph=graph))
    assert data["query"] == "brulure de mana" and data["suggestion"] is None
    hit = data["hits"][0]
    assert {"edition", "number", "score", "snippet"} <= set(hit)
    assert isinstance(hit["score"], float)


def test_result_text_is_french(graph) -> None:
    text = result_text(search("iniative", graph=graph))
    assert "Recherche aussi : « initiative »" in text
    assert "[initiative]" in text and "<mark>" not in text


@pytest.mark.parametrize(
    ("query", "word"),
    [
        ('"fin du tour', "tour"),
        ("((blocage", "blocage"),
        ("créature) engagée)(", "engag"),
        ("«pile", "pile"),
        ("AND OR NOT mana", "mana"),
        ("mana\x00\x07\x1b[31m pile", "mana"),
        ("* ? ~ ^ : - + [ ] { } mana", "mana"),
        ("mana " * 2_000, "mana"),
        ("\u202e\ufeffpile", "pile"),
    ],
)
def test_search_hostile_queries_still_find_their_words(graph, query: str, word: str) -> None:
    # Unbalanced quotes and brackets, operators, control characters and very long input are
    # cleaned, not errors: the real word left in the query is still found, in every hit shown
    # (French text: an English hit may match through the FR↔EN glossary, not the word).
    result = search(query, graph=graph, lang="fr")
    assert result.hits, query[:40]
    for hit in result.hits[:3]:
        rule = graph.get(hit.edition, hit.number, hit.language)
        assert rule is not None
        whole = fold(" ".join([rule.title or "", rule.text, *(e.text for e in rule.examples)]))
        assert word in whole, (hit.number, word)
        assert hit.score > 0
    assert "Traceback" not in result_text(result)


def test_search_repeated_rule_number_goes_to_that_rule(graph) -> None:
    result = search("308.2a 308.2a 308.2a", graph=graph)
    assert [h.number for h in result.hits][:1] == ["308.2a"]


def test_search_ten_thousand_characters_is_truncated_with_a_notice(graph) -> None:
    result = search("pile " + "é" * 10_000, graph=graph)
    assert result.notice is not None and "tronquée" in result.notice


@pytest.mark.parametrize("query", ["", "   ", "\x00\x01", "de la le", "AND OR NOT", "* ? ~ ^ : - + [ ] { }"])
def test_search_empty_or_stop_words_is_a_french_error(graph, query: str) -> None:
    with pytest.raises(QueryError) as info:
        search(query, graph=graph)
    assert isinstance(info.value, JudgeError) and info.value.exit_code == 2
    assert "requête" in str(info.value)


def test_search_long_query_is_truncated_with_notice(graph) -> None:
    result = search("mana " * 1000, graph=graph)
    assert result.notice is not None and f"tronquée à {MAX_QUERY}" in result.notice
    assert result.hits


@pytest.mark.parametrize("limit", [0, -1])
def test_search_bad_limit_is_a_french_error(graph, limit: int) -> None:
    with pytest.raises(QueryError, match="nombre de résultats"):
        search("mana", graph=graph, limit=limit)


def test_search_limit_is_respected(graph) -> None:
    assert len(search("créature", graph=graph, limit=3).hits) == 3


def test_open_index_rebuilds_corrupt_index_once(graph) -> None:
    open_index(graph)
    folder = cache_dir() / index_name(graph.editions)[0]
    for file in folder.glob("*.seg"):
        # A new file under the old name: readers still holding the old one are unaffected.
        garbage = file.with_suffix(".tmp")
        garbage.write_bytes(b"garbage")
        garbage.replace(file)
    index = open_index(graph)
    assert index.notice is not None and "corrompu" in index.notice
    first = search_with(index, "mana")
    assert first.notice is not None and "corrompu" in first.notice
    assert search_with(index, "mana").notice is None
    assert open_index(graph).notice is None  # sound again: nothing to say


def test_open_index_replaces_stale_index(graph) -> None:
    name, prefix = index_name(graph.editions)
    stale = cache_dir() / f"{prefix}0000stale"
    shutil.copytree(cache_dir() / name, stale) if (cache_dir() / name).exists() else stale.mkdir()
    shutil.rmtree(cache_dir() / name, ignore_errors=True)
    index = open_index(graph)
    assert index.notice is not None and "périmé" in index.notice
    assert not stale.exists()
    assert numbers(search_with(index, "brulure de mana"))[0] == "2004:300.3"


def _build_in_process(dest: str) -> None:
    from judge.corpus.loader import load_graph

    build_index(load_graph(), Path(dest))


def test_build_index_concurrent_processes_leave_one_sound_index(graph, tmp_path: Path) -> None:
    dest = tmp_path / "index-test"
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_build_in_process, args=(str(dest),)) for _ in range(4)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()  # however long a loaded machine takes: a timeout here only made it fail
        assert proc.exitcode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index-test"]
    import whoosh.index

    # One index per language, each holding exactly that language's rules.
    for language in ("fr", "en"):
        with whoosh.index.open_dir(str(dest), indexname=language).searcher() as searcher:
            assert searcher.doc_count() == sum(1 for r in graph.all_rules() if r.language == language)


def _eval_module() -> Any:
    spec = importlib.util.spec_from_file_location("eval_search", ROOT / "bench" / "eval_search.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["eval_search"] = module
    spec.loader.exec_module(module)
    return module


def test_search_eval_set_beats_bm25_on_every_kind(graph) -> None:
    """On the eval set (the first 72 queries and the fresh ones written from the rule texts by a
    helper who had not read this code): floors under the figures reached (bench/eval_search.py
    prints them per kind), and better than a plain BM25 on every kind of query."""
    module = _eval_module()
    cases = module.load_cases()
    assert len(cases) >= 350
    ours = module.evaluate(module.ours(graph), cases)
    baseline = module.evaluate(module.bm25_baseline(graph), cases)

    def score(origin: str) -> tuple[float, float, list[tuple[str, int | None]]]:
        ranks = [(c, r) for c, r in ours.ranks if c.origin == origin]
        return (sum(1 / r for _, r in ranks if r) / len(ranks), sum(1 for _, r in ranks if r and r <= 3) / len(ranks),
                [(c.q, r) for c, r in ranks if r != 1])

    # Floors just under the figures reached (initial 0.938; fresh 0.926 / 0.956).
    initial_mrr, _, initial_misses = score("initial")
    fresh_mrr, fresh_hit3, fresh_misses = score("fresh")
    assert initial_mrr >= 0.93, initial_misses
    assert fresh_mrr >= 0.91 and fresh_hit3 >= 0.95, fresh_misses
    for kind in {c.kind for c in cases}:
        mine = sum(1 / r for c, r in ours.ranks if r and c.kind == kind)
        theirs = sum(1 / r for c, r in baseline.ranks if r and c.kind == kind)
        assert mine >= theirs, kind


def _whoosh_query(node):
    """The same tree as Whoosh queries (what search.py ran before `search_match`)."""
    from whoosh import query as wq

    from judge.search.fields import FIELD_BOOSTS
    from judge.search.match import And, Clause, Or

    if isinstance(node, Clause):
        terms = [wq.Term(name, node.text, boost=weight) for name, weight in FIELD_BOOSTS.items()]
        return wq.Or(terms, boost=node.boost)
    if isinstance(node, Or | And):
        cls = wq.Or if isinstance(node, Or) else wq.And
        return cls([_whoosh_query(child) for child in node.children], boost=node.boost)
    return wq.Phrase(node.field, list(node.words), slop=node.slop, boost=node.boost)


@pytest.mark.parametrize(
    "query",
    ["blessures de combat", '"fin du tour" attaquant', "combat damage on the stack", "mana mana",
     "créature bloquée", "308.2 attaquant", "capacité déclenchée par un bloqueur", "first strike",
     "déclaration des attaquants", "deuxième phase principale sans combat", "combat"],
)
def test_search_match_scores_as_whoosh(graph, query: str) -> None:
    from judge.search.engine import index_for
    from judge.search.query import compose, plan_query

    index = index_for(graph)
    plan = plan_query(query, index.glossary_terms, index.query_stop)
    tree = compose(plan.words, plan, "fr", lambda word: index.stem("fr", word), index.stop("fr"))
    assert tree is not None
    searcher = index.searcher("fr")
    scores = index.postings("fr").evaluate(searcher, tree)
    ours = index.postings("fr").top(scores, len(scores))
    theirs = [(hit.docnum, hit.score) for hit in searcher.search(_whoosh_query(tree), limit=None)]
    assert ours and [doc for doc, _ in ours] == [doc for doc, _ in theirs]
    assert [round(score, 9) for _, score in ours] == [round(score, 9) for _, score in theirs]


@pytest.mark.parametrize(
    ("positions", "slop", "found"),
    [([(0,), (1,)], 1, True), ([(0,), (2,)], 1, False), ([(0,), (2,)], 2, True), ([(5,), (3,)], 3, False),
     ([(1,), (1,)], 1, False), ([(1, 2), (1, 2)], 1, True), ([(0,), (1,), (3,)], 2, True),
     ([(0, 9), (4, 10), (12,)], 2, True), ([(0,), (4,), (12,)], 4, False)],
)
def test_phrase_positions_as_whoosh_span_near(positions: list[tuple[int, ...]], slop: int, found: bool) -> None:
    from judge.search.match import _phrase_at

    assert _phrase_at(positions, slop) is found


@pytest.mark.parametrize(("query", "first"), [("300,3", "300.3"), ("règle 306,2a", "306.2a")])
def test_search_reads_the_french_decimal_comma(graph, query: str, first: str) -> None:
    assert [h.number for h in search(query, graph=graph).hits][:1] == [first]


def test_search_comma_between_sections_stays_two_sections(graph) -> None:
    numbers = {h.number for h in search("302,303", graph=graph).hits}
    assert {"302", "303"} <= numbers


def test_search_heading_named_by_the_query_comes_before_its_sub_rules(graph) -> None:
    # « sous-partie » is Subgames (2004 506, 2010 713); Shahrazad is named only in those sections:
    # the heading rules, not their first sub-rules that repeat both words, come first.
    assert set(numbers(search("sous-partie Shahrazad", graph=graph))[:2]) == {"2004:506", "2010:713"}
    # « pile » is all over the edition, not the topic of 310 Combat Damage Step: a sub-rule first.
    first = numbers(search("les blessures de combat vont-elles sur la pile", graph=graph))[0]
    assert first in {"2004:310.1", "2004:310.3", "2004:310.4"}
