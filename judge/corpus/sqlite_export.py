"""The knowledge base as a SQLite file for users (`judge export --sqlite FICHIER`).

Owns the file's schema (documented, and versioned by `SCHEMA_VERSION`, in docs/sqlite.md):
editions, rules, links (references), examples, glossary and history (the concordance of each
pair of consecutive editions), with indexes and no full-text tables (the search is Whoosh).
Writing is atomic: a temporary file beside the target, then a rename. An existing file is
replaced only when it is an earlier export of judge (its `meta` table says so); anything else
is left alone and refused.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
from collections.abc import Iterator

from judge import __version__
from judge.corpus.citations import rule_doubts
from judge.corpus.concordance import ConcordanceError, concordance
from judge.corpus.graph import RuleGraph
from judge.corpus.history import chronological
from judge.errors import JudgeError

SCHEMA_VERSION = 1
GENERATOR = "judge"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE editions (
    edition TEXT PRIMARY KEY, label TEXT NOT NULL, released TEXT, description TEXT NOT NULL,
    languages TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE rules (
    edition TEXT NOT NULL, language TEXT NOT NULL, number TEXT NOT NULL, title TEXT, text TEXT NOT NULL,
    status TEXT NOT NULL, parent TEXT, kind TEXT NOT NULL, position INTEGER NOT NULL,
    PRIMARY KEY (edition, language, number));
CREATE TABLE links (
    edition TEXT NOT NULL, language TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL,
    range_end TEXT, title TEXT, resolved INTEGER NOT NULL, target_language TEXT, doubt TEXT,
    position INTEGER NOT NULL);
CREATE TABLE examples (
    edition TEXT NOT NULL, language TEXT NOT NULL, number TEXT NOT NULL, text TEXT NOT NULL,
    position INTEGER NOT NULL);
CREATE TABLE glossary (
    edition TEXT NOT NULL, language TEXT NOT NULL, term TEXT NOT NULL, text TEXT NOT NULL,
    position INTEGER NOT NULL);
CREATE TABLE history (
    from_edition TEXT NOT NULL, from_number TEXT, to_edition TEXT NOT NULL, to_number TEXT,
    change TEXT NOT NULL, similarity REAL, main INTEGER NOT NULL, method TEXT, language TEXT NOT NULL,
    reason TEXT);
CREATE INDEX rules_number ON rules (number);
CREATE INDEX links_source ON links (edition, language, source);
CREATE INDEX links_target ON links (edition, target);
CREATE INDEX examples_rule ON examples (edition, language, number);
CREATE INDEX glossary_term ON glossary (term COLLATE NOCASE);
CREATE INDEX history_from ON history (from_edition, from_number);
CREATE INDEX history_to ON history (to_edition, to_number);
"""


def export_sqlite(graph: RuleGraph, path: str) -> dict[str, int]:
    """Write the knowledge base of `graph` to `path` (atomically); the rows of each table."""
    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        raise JudgeError(f"{path} est un dossier : indiquez un fichier (par exemple regles.sqlite)")
    if not os.path.isdir(folder):
        raise JudgeError(f"{path} : le dossier {folder} n'existe pas")
    if os.path.lexists(target) and not _is_export(target):
        raise JudgeError(f"{path} existe et n'est pas un export de judge : il n'est pas remplacé "
                         "(choisissez un autre nom, ou supprimez-le vous-même)")
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(prefix=".judge-", suffix=".sqlite.tmp", dir=folder)
    except OSError as exc:
        raise JudgeError(f"impossible d'écrire dans {folder} : {exc.strerror}") from None
    os.close(fd)
    try:
        counts = _write(graph, tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        raise JudgeError(f"impossible d'écrire {path} : {exc.strerror}") from None
    except sqlite3.Error as exc:
        raise JudgeError(f"impossible d'écrire {path} : {exc}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return counts


def _is_export(path: str) -> bool:
    """True for a SQLite file whose `meta` table names judge as its generator."""
    try:
        with open(path, "rb") as handle:
            if handle.read(16) != b"SQLite format 3\0":
                return False
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = connection.execute("SELECT value FROM meta WHERE key = 'generator'").fetchone()
        finally:
            connection.close()
    except (OSError, sqlite3.Error):
        return False
    return row is not None and row[0] == GENERATOR


def _write(graph: RuleGraph, path: str) -> dict[str, int]:
    connection = sqlite3.connect(path)
    try:
        connection.executescript(SCHEMA)
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        tables = {
            "meta": (("generator", GENERATOR), ("judge_version", __version__),
                     ("schema_version", str(SCHEMA_VERSION))),
            "editions": tuple(_editions(graph)),
            "rules": tuple(_rules(graph)),
            "links": tuple(_links(graph)),
            "examples": tuple(_examples(graph)),
            "glossary": tuple(_glossary(graph)),
            "history": tuple(_history(graph)),
        }
        for name, rows in tables.items():
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                connection.executemany(f"INSERT INTO {name} VALUES ({marks})", rows)
        connection.commit()
    finally:
        connection.close()
    return {name: len(rows) for name, rows in tables.items() if name != "meta"}


Row = tuple[object, ...]


def _editions(graph: RuleGraph) -> Iterator[Row]:
    for k, edition in enumerate(graph.editions):
        yield (edition.id, edition.label, edition.released, edition.description, ",".join(edition.languages), k)


def _rules(graph: RuleGraph) -> Iterator[Row]:
    for k, rule in enumerate(graph.all_rules()):
        parent = graph.parent(rule)
        yield (rule.edition, rule.language, rule.number, rule.title, rule.text, rule.status,
               parent.number if parent else None, rule.kind, k)


def _links(graph: RuleGraph) -> Iterator[Row]:
    k = 0
    for rule in graph.all_rules():
        doubts = {id(d.reference): d.note for d in rule_doubts(graph, rule)}
        for resolved in graph.references(rule):
            ref, target = resolved.reference, resolved.target
            yield (rule.edition, rule.language, rule.number, ref.number, ref.range_end, ref.title,
                   int(target is not None), target.language if target else None, doubts.get(id(ref)), k)
            k += 1


def _examples(graph: RuleGraph) -> Iterator[Row]:
    k = 0
    for rule in graph.all_rules():
        for example in rule.examples:
            yield (rule.edition, rule.language, rule.number, example.text, k)
            k += 1


def _glossary(graph: RuleGraph) -> Iterator[Row]:
    k = 0
    for edition in graph.editions:
        for language in edition.languages:
            for entry in graph.glossary(edition.id, language):
                yield (edition.id, language, entry.term, entry.text, k)
                k += 1


def _history(graph: RuleGraph) -> Iterator[Row]:
    """The concordance of each pair of consecutive editions that share a language."""
    editions = chronological(graph)
    for older, newer in itertools.pairwise(editions):
        try:
            table = concordance(graph, older, newer)
        except ConcordanceError:  # no language in common: no history between them
            continue
        for pair in table.pairs:
            yield (older, pair.source, newer, pair.target, pair.change, pair.similarity, int(pair.main),
                   pair.method, table.language, table.reason(older, pair.source) or None)
        for number in table.removed:
            yield (older, number, newer, None, "removed", None, 1, None, table.language,
                   table.reason(older, number) or None)
        for number in table.added:
            yield (older, None, newer, number, "added", None, 1, None, table.language,
                   table.reason(newer, number) or None)
