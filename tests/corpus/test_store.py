"""The rule store gives, for the rules of every edition, exactly what the graph path gives.

Expected values come from the graph itself (`RuleGraph` lookups and the renderers of
`judge.corpus.render`), never from a stored output: the store is only a faster way to
the same bytes. The rules compared are a fixed sample of every edition, language and kind
of rule (its first, its last and some drawn with a fixed seed): rendering them all took
minutes and found nothing a sample does not.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cache_support import kb_file, spoil

from judge.checks.questions import check_label
from judge.checks.rulemap import load_checks_for
from judge.checks.store import load_store, read_store, store_path
from judge.cli import main
from judge.corpus.documents import Rule
from judge.corpus.graph import RuleGraph, key
from judge.corpus.numbers import sort_key
from judge.corpus.render import rule_json, rule_text
from judge.errors import JudgeError


@pytest.fixture(scope="module")
def store():
    return load_store()


def _worded(edition: str, number: str) -> tuple[str, ...]:
    return tuple(check_label(name) for name in load_checks_for()(edition, number))


def _sample(rules: tuple[Rule, ...] | list[Rule], per_group: int = 6) -> list[Rule]:
    """For each edition, language and kind of rule: its first and last rules and `per_group`
    more drawn with a fixed seed (the same sample at every run), in the graph's order."""
    groups: dict[tuple[str, str, str], list[Rule]] = {}
    for rule in rules:
        groups.setdefault((rule.edition, rule.language, str(rule.kind)), []).append(rule)
    draw = random.Random(21)
    chosen: set[Rule] = set()
    for members in groups.values():
        chosen.update((members[0], members[-1], *draw.sample(members, min(per_group, len(members)))))
    return [rule for rule in rules if rule in chosen]


def test_the_rules_of_every_edition_are_stored_as_the_graph_renders_them(graph: RuleGraph, store) -> None:
    checks_for = load_checks_for()
    rules = _sample(graph.all_rules())
    assert {(r.edition, r.language) for r in rules} == {(e.id, lang) for e in graph.editions for lang in e.languages}
    for rule in rules:
        k = key(rule)
        for both in (True, False):
            assert store.json(k, with_translations=both) == rule_json(graph, rule, checks_for, with_translations=both)
            for brief in (True, False):
                assert store.text(k, brief=brief, with_translations=both) == rule_text(
                    graph, rule, _worded, brief=brief, with_translations=both), (k, brief, both)


def test_the_stored_catalogue_is_the_graph_s(graph: RuleGraph, store) -> None:
    catalogue = store.catalogue
    assert catalogue.edition_ids == graph.edition_ids
    assert catalogue.newest_edition == graph.newest_edition
    for edition in graph.editions:
        facts = catalogue.edition(edition.id)
        assert (facts.label, facts.languages, facts.removed, facts.removed_by, facts.game) == (
            edition.label, edition.languages, edition.removed, edition.removed_by, edition.game)
        assert catalogue.numbers(edition.id) == frozenset(
            r.number for language in edition.languages for r in graph.rules(edition.id, language))
        for language in edition.languages:
            rules = graph.rules(edition.id, language)
            assert catalogue.ordered(edition.id, language) == tuple(r.number for r in rules)
            for rule in rules:
                assert catalogue.title(key(rule)) == rule.title
                assert catalogue.prefix(key(rule)) == tuple(map(key, graph.prefix(edition.id, rule.number, language)))
                assert [e.id for e in catalogue.removed_in(edition.id, rule.number)] == [
                    e.id for e in graph.removed_in(rule)]
        for number in catalogue.numbers(edition.id):
            for language in (None, *edition.languages):
                found = graph.lookup(number, edition.id, language)
                assert catalogue.lookup(number, edition.id, language) == (key(found[0]) if found else None)


# ------------------------------------------------------------------ the command, against the graph
def _graph_selection(graph: RuleGraph, query: str, edition: str | None, language: str | None
                     ) -> tuple[tuple[Rule, ...], tuple[Rule, ...]]:
    """What a rule query names, straight from the graph's own lookups."""
    editions = (edition,) if edition else graph.edition_ids
    if "-" in query:
        low, high = (sort_key(n) for n in query.split("-"))
        exact = tuple(r for e in editions for r in graph.rules(e, language or graph.primary_language(e))
                      if low[0] <= sort_key(r.number)[0] <= high[0] and low <= sort_key(r.number)
                      and (sort_key(r.number) <= high or r.number.startswith(query.split("-")[1])))
        return exact, exact
    exact = tuple(r for e in editions for r in graph.lookup(query, e, language))
    return exact, tuple(x for r in exact for x in graph.prefix(r.edition, r.number, r.language))


def _expected(graph: RuleGraph, query: str, edition: str | None, language: str | None, as_json: bool) -> str:
    exact, shown = _graph_selection(graph, query.replace(",", "."), edition, language)
    assert exact, query
    both = language is None
    if as_json:
        checks_for = load_checks_for()
        data = [rule_json(graph, r, checks_for, with_translations=both) for r in exact]
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return "\n\n".join(rule_text(graph, r, _worded, brief=r not in exact, with_translations=both)
                       for r in shown) + "\n"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["rule", *args]) == 0
    return capsys.readouterr().out


def test_judge_rule_prints_what_the_graph_gives_for_the_numbers_of_every_edition(
        graph: RuleGraph, capsys: pytest.CaptureFixture[str]) -> None:
    for edition in graph.editions:
        for language in edition.languages:
            for rule in _sample(graph.rules(edition.id, language), per_group=3):
                assert _run(capsys, rule.number, "--edition", edition.id, "--lang", language) == _expected(
                    graph, rule.number, edition.id, language, False), rule.number
                assert _run(capsys, rule.number, "--edition", edition.id, "--lang", language, "--json") == (
                    _expected(graph, rule.number, edition.id, language, True)), rule.number
    # A number alone: each edition that has it, French first then English (a sample of the
    # sections, with all their rules brief; the rules one by one are above).
    sections = sorted({r.number for r in graph.all_rules() if r.kind == "section"}, key=sort_key)
    for number in random.Random(21).sample(sections, min(12, len(sections))):
        assert _run(capsys, number) == _expected(graph, number, None, None, False), number


@pytest.mark.parametrize("args", [
    ("300.3",), ("300,3",), ("300,3", "--json"), ("306",), ("306", "--json"), ("306.2",), ("302-303",),
    ("302,3-303", "--json"), ("505.5b", "--edition", "2010"), ("305.4", "--lang", "en"), ("502.4", "--edition", "2004"),
    ("510.2", "--json"), ("306.1", "--edition", "2004"), ("212.6",), ("500-501", "--edition", "2010", "--lang", "en"),
])
def test_judge_rule_forms_print_what_the_graph_gives(graph: RuleGraph, capsys: pytest.CaptureFixture[str],
                                                     args: tuple[str, ...]) -> None:
    query, options = args[0], args[1:]
    edition = options[options.index("--edition") + 1] if "--edition" in options else None
    language = options[options.index("--lang") + 1] if "--lang" in options else None
    assert _run(capsys, *args) == _expected(graph, query, edition, language, "--json" in options)


def test_a_removed_rule_names_its_removal_as_the_graph_says(graph: RuleGraph, capsys: pytest.CaptureFixture[str]) -> None:
    (gone,) = [e for e in graph.editions if e.removed]
    tag = gone.removed[0]
    earlier, number = tag.split(":")
    assert graph.get(gone.id, number) is None and graph.get(earlier, number) is not None
    assert main(["rule", number, "--edition", gone.id]) == 1
    err = capsys.readouterr().err
    assert f"règle {number} supprimée" in err and gone.removed_by in err and gone.label in err
    assert f"de l'édition {earlier}" in err


# ------------------------------------------------------------------ freshness and safety
def test_a_changed_text_rebuilds_the_store_even_with_its_size_and_time_kept(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    text = tmp_path / "regles.txt"
    text.write_text("900. Section d'essai\n\n900.1. Premier texte.\n", encoding="utf-8")
    config = tmp_path / "judge.toml"
    config.write_text(f'[[edition]]\nid = "essai"\nlabel = "Essai"\n[[edition.text]]\nlanguage = "fr"\n'
                      f'files = ["{text.name}"]\n', encoding="utf-8")
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    later = time.time_ns() + 3_000_000_000  # the files seem old enough to be stamped
    monkeypatch.setattr("judge.cache.time.time_ns", lambda: later)
    first = load_store(str(config)).text(("essai", "fr", "900.1"))
    assert "Premier texte." in first
    stored = read_store(store_path(str(config)))
    assert stored is not None and all(signature is not None for _, signature in stored.stamps)
    before = text.stat()
    text.write_text("900. Section d'essai\n\n900.1. Dernier texte.\n", encoding="utf-8")
    os.utime(text, ns=(before.st_atime_ns, before.st_mtime_ns))  # same size, same modification time
    assert text.stat().st_size == before.st_size
    again = load_store(str(config)).text(("essai", "fr", "900.1"))
    assert "Dernier texte." in again


def test_a_cut_or_foreign_store_is_ignored_and_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    expected = load_store().text(("2004", "fr", "300.3"))
    path = Path(store_path())
    path.write_bytes(path.read_bytes()[:-1000])
    assert read_store(str(path)) is None
    assert load_store().text(("2004", "fr", "300.3")) == expected
    path.write_bytes(b"not a store")
    assert load_store().text(("2004", "fr", "300.3")) == expected
    assert read_store(str(path)) is not None
    spoil(path, "UPDATE parts SET value = '[]' WHERE kind = 'rules'")  # a catalogue whose checksum fails
    assert read_store(str(path)) is None
    assert load_store().text(("2004", "fr", "300.3")) == expected


def _nested_with_its_checksum(path: Path) -> None:
    # A planted row: JSON nested deeper than Python reads, with the checksum made to match.
    from judge.checks.store import row_checksum

    db = sqlite3.connect(path)
    try:
        with db:
            (text, brief, translations), = db.execute(
                "SELECT text, brief, translations FROM store_records WHERE edition = '2004' AND language = 'fr'"
                " AND number = '300.3'").fetchall()
            data = "[" * 100_000 + "]" * 100_000
            db.execute("UPDATE store_records SET json = ?, checksum = ? WHERE edition = '2004' AND language = 'fr'"
                       " AND number = '300.3'", (data, row_checksum(data, text, brief, translations)))
    finally:
        db.close()


def _rule(cache: Path, cwd: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """`judge rule 300.3` as a user runs it: a whole process, on the cache folder `cache`."""
    return subprocess.run([sys.executable, "-m", "judge", "rule", "300.3", *options],
                          env=dict(os.environ, JUDGE_CACHE_DIR=str(cache)), capture_output=True, text=True,
                          timeout=300, cwd=cwd)


@pytest.fixture(scope="module")
def first_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[str, ...], str]]:
    """A cache folder as a first `judge rule 300.3` leaves it (made once: each test that damages
    it damages a copy), and what `judge rule 300.3` prints, with and without --json."""
    folder = tmp_path_factory.mktemp("first-run")
    printed = {}
    for options in ((), ("--json",)):
        run = _rule(folder / "cache", folder, *options)
        assert run.returncode == 0, run.stderr
        printed[options] = run.stdout
    return folder / "cache", printed


@pytest.mark.parametrize(("damage", "options"), [
    ("same-size text", ()),  # issue 38: « Ce joueur GAGNE 9 point de vie » was printed
    ("json", ("--json",)),
    ("translations", ()),
    ("nested json", ("--json",)),
])
def test_a_damaged_record_is_never_shown_the_store_is_rebuilt(tmp_path: Path, damage: str, options: tuple[str, ...],
                                                              first_run: tuple[Path, dict[tuple[str, ...], str]]
                                                              ) -> None:
    # The catalogue is checked when the store is opened; a record when it is shown (its
    # checksum, then its decoding). A record that fails: the knowledge base removed, the
    # store rebuilt and the record read again, in the same run: the right answer, exit 0,
    # no traceback. As a user runs it: a whole process.
    warm, printed = first_run
    shutil.copytree(warm, tmp_path / "cache")  # as the first run left it (its modes kept)

    def rule() -> subprocess.CompletedProcess[str]:
        return _rule(tmp_path / "cache", tmp_path, *options)

    first = printed[options]
    path = kb_file(tmp_path / "cache")
    where = "WHERE edition = '2004' AND language = 'fr' AND number = '300.3'"
    if damage == "same-size text":  # a stray write of the same size: the file stays whole
        spoil(path, f"UPDATE store_records SET text = 'X' || substr(text, 2) {where}")
    elif damage == "nested json":
        _nested_with_its_checksum(path)
    else:
        spoil(path, f"UPDATE store_records SET {damage} = '{{' {where}")
    before = path.stat().st_ino
    healed = rule()
    assert healed.returncode == 0 and "Traceback" not in healed.stderr, healed.stderr[-2000:]
    assert healed.stdout == first
    assert path.stat().st_ino != before  # removed and written again
    again = rule()
    assert again.returncode == 0 and again.stdout == first and again.stderr == ""


def test_an_unknown_edition_is_a_french_error(store) -> None:
    from judge.corpus.selection import select

    with pytest.raises(JudgeError, match="édition inconnue"):
        select(store.catalogue, "300.3", "1999")
