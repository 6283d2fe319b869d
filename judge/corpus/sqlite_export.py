"""The knowledge base's public tables, and `judge export --sqlite FICHIER` (a copy of it).

Owns the schema users read (documented, and versioned by `SCHEMA_VERSION`, in docs/sqlite.md):
editions, rules, links (references), examples, glossary and history (the concordance of each
pair of consecutive editions), with indexes and no full-text tables (the search is Whoosh).
They are tables of the configuration's knowledge base itself (`judge.cache.write_kb`), made
from the graph by `public_tables` when the rule store is (`judge.checks.store`, the same
write): one file, one format. A history pair whose concordance would have to be computed
(a user's edition) is left out there, and named in the `history` part, so that a first
`judge rule` never aligns editions; the export computes it.

`export_sqlite` copies the knowledge base (SQLite's backup API) into a temporary file beside
the target, drops the cache's own tables there (`parts`, `stamps`, the rule store's), then
renames it over the target: a reader never sees half a file. An existing file is replaced
only when it is an earlier export of judge (its `meta` table says so); anything else is left
alone and refused.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator

from judge.cache import GENERATOR, Table, fill_tables, open_kb, table_intact
from judge.corpus.citations import rule_doubts
from judge.corpus.concordance import ConcordanceError, concordance, known_concordance
from judge.corpus.graph import RuleGraph
from judge.corpus.history import chronological
from judge.errors import JudgeError, os_reason, sqlite_reason

SCHEMA_VERSION = 1
# The part that names the history pairs left out of the `history` table (one "old new" a
# line; empty when the table is whole).
HISTORY_PART = "history"

SCHEMA: dict[str, tuple[str, ...]] = {
    "editions": (
        "CREATE TABLE editions (edition TEXT PRIMARY KEY, label TEXT NOT NULL, released TEXT,"
        " description TEXT NOT NULL, languages TEXT NOT NULL, position INTEGER NOT NULL)",),
    "rules": (
        "CREATE TABLE rules (edition TEXT NOT NULL, language TEXT NOT NULL, number TEXT NOT NULL, title TEXT,"
        " text TEXT NOT NULL, status TEXT NOT NULL, parent TEXT, kind TEXT NOT NULL, position INTEGER NOT NULL,"
        " PRIMARY KEY (edition, language, number))",
        "CREATE INDEX rules_number ON rules (number)"),
    "links": (
        "CREATE TABLE links (edition TEXT NOT NULL, language TEXT NOT NULL, source TEXT NOT NULL,"
        " target TEXT NOT NULL, range_end TEXT, title TEXT, resolved INTEGER NOT NULL, target_language TEXT,"
        " doubt TEXT, position INTEGER NOT NULL)",
        "CREATE INDEX links_source ON links (edition, language, source)",
        "CREATE INDEX links_target ON links (edition, target)"),
    "examples": (
        "CREATE TABLE examples (edition TEXT NOT NULL, language TEXT NOT NULL, number TEXT NOT NULL,"
        " text TEXT NOT NULL, position INTEGER NOT NULL)",
        "CREATE INDEX examples_rule ON examples (edition, language, number)"),
    "glossary": (
        "CREATE TABLE glossary (edition TEXT NOT NULL, language TEXT NOT NULL, term TEXT NOT NULL,"
        " text TEXT NOT NULL, position INTEGER NOT NULL)",
        "CREATE INDEX glossary_term ON glossary (term COLLATE NOCASE)"),
    "history": (
        "CREATE TABLE history (from_edition TEXT NOT NULL, from_number TEXT, to_edition TEXT NOT NULL,"
        " to_number TEXT, change TEXT NOT NULL, similarity REAL, main INTEGER NOT NULL, method TEXT,"
        " language TEXT NOT NULL, reason TEXT)",
        "CREATE INDEX history_from ON history (from_edition, from_number)",
        "CREATE INDEX history_to ON history (to_edition, to_number)"),
}
# The public tables, in the order the export counts them; `meta` is the knowledge base's own
# (`judge.cache`), whose format row the export replaces by the schema's version.
TABLES = ("editions", "rules", "links", "examples", "glossary", "history")

Row = tuple[object, ...]


def public_tables(graph: RuleGraph) -> tuple[dict[str, Table], str]:
    """The public tables of `graph`, and the history pairs left out ("old new" a line: those
    whose concordance is not at hand without computing it)."""
    history, missing = _history(graph, compute=False)
    tables = {
        "editions": list(_editions(graph)),
        "rules": list(_rules(graph)),
        "links": list(_links(graph)),
        "examples": list(_examples(graph)),
        "glossary": list(_glossary(graph)),
        "history": history,
    }
    return {name: (SCHEMA[name], rows) for name, rows in tables.items()}, "\n".join(missing)


def export_sqlite(path: str, kb_of: Callable[[], str | None], graph_of: Callable[[], RuleGraph]) -> dict[str, int]:
    """Copy the knowledge base (`kb_of` makes it fresh, with its rule store: `judge.checks.store`,
    and names it, or None when it could not be written; called once `path` is known to be
    writable) to `path`, without the cache's own tables, atomically; the rows of each public
    table. `graph_of` gives the graph when the copy needs it: history pairs left out of the
    knowledge base, or no fresh knowledge base (a cache that cannot be written)."""
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
        raise JudgeError(f"impossible d'écrire dans {folder} : {os_reason(exc)}") from None
    os.close(fd)
    try:
        counts = _write(kb_of(), tmp, graph_of)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        raise JudgeError(f"impossible d'écrire {path} : {os_reason(exc)}") from None
    except sqlite3.Error as exc:
        raise JudgeError(f"impossible d'écrire {path} : {sqlite_reason(exc)}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return counts


def _is_export(path: str) -> bool:
    """True for a SQLite file whose `meta` table names judge as its generator."""
    from urllib.parse import quote

    try:
        # Opened without blocking and checked to be a regular file: a FIFO in its place
        # would block a plain open forever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode) or os.read(fd, 16) != b"SQLite format 3\0":
                return False
        finally:
            os.close(fd)
        # The path quoted in the URI: `#`, `?` or `%` in a name are characters of the name.
        connection = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
        try:
            row = connection.execute("SELECT value FROM meta WHERE key = 'generator'").fetchone()
        finally:
            connection.close()
    except (OSError, sqlite3.Error):
        return False
    return row is not None and row[0] == GENERATOR


def _write(kb_path: str | None, path: str, graph_of: Callable[[], RuleGraph]) -> dict[str, int]:
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA journal_mode = OFF")  # a temporary file: the rename is the commit
        copied = _copy(kb_path, db)
        with db:
            if copied is None:  # no knowledge base to copy: its tables, made here
                graph = graph_of()
                fill_tables(db, {**public_tables(graph)[0],
                                 "history": (SCHEMA["history"], _history(graph, compute=True)[0])})
            elif copied:  # history pairs the knowledge base left out
                fill_tables(db, {"history": (SCHEMA["history"], _history(graph_of(), compute=True)[0])})
            kept = {*TABLES, "meta"}
            for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                if table not in kept:
                    db.execute(f"DROP TABLE {table}")
            db.execute("DELETE FROM meta WHERE key NOT IN ('generator', 'judge_version')")
            db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("VACUUM")  # the dropped tables' pages given back
        return {name: db.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name in TABLES}
    finally:
        db.close()


def _copy(kb_path: str | None, db: sqlite3.Connection) -> str | None:
    """The knowledge base copied into `db`, and the history pairs it left out (one a line,
    empty when none); None when there is none to copy, or it lacks the public tables (then
    `db` holds only a `meta` table, with the knowledge base's rows)."""
    kb = None if kb_path is None else open_kb(kb_path)
    if kb is not None:
        try:
            missing = kb.part(HISTORY_PART)
            names = {name for (name,) in kb.rows("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if missing is not None and set(TABLES) <= names:
                kb.backup(db)
                if all(table_intact(db, table) for table in TABLES):
                    return missing[2]
                # A row changed since it was written (a stray write): never exported. The
                # file is removed (rebuilt next time) and the tables made here from the graph.
                kb.discard()
                for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                    db.execute(f"DROP TABLE {table}")
        except sqlite3.DatabaseError:  # a corrupt file (removed: rebuilt next time)
            pass
        finally:
            kb.close()
    from judge import __version__

    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.executemany("INSERT INTO meta VALUES (?, ?)", (("generator", GENERATOR), ("judge_version", __version__)))
    return None


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


def _history(graph: RuleGraph, *, compute: bool) -> tuple[list[Row], list[str]]:
    """The concordance of each pair of consecutive editions that share a language, and the
    pairs left out ("old new"): without `compute`, those not at hand (`known_concordance`)."""
    rows: list[Row] = []
    missing: list[str] = []
    for older, newer in itertools.pairwise(chronological(graph)):
        try:
            table = concordance(graph, older, newer) if compute else known_concordance(graph, older, newer)
        except ConcordanceError:  # no language in common, or too many rules: no history between them
            continue
        if table is None:
            missing.append(f"{older} {newer}")
            continue
        for pair in table.pairs:
            rows.append((older, pair.source, newer, pair.target, pair.change, pair.similarity, int(pair.main),
                         pair.method, table.language, table.reason(older, pair.source) or None))
        rows.extend((older, number, newer, None, "removed", None, 1, None, table.language,
                     table.reason(older, number) or None) for number in table.removed)
        rows.extend((older, None, newer, number, "added", None, 1, None, table.language,
                     table.reason(newer, number) or None) for number in table.added)
    return rows, missing
