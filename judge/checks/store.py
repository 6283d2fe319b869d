"""The rule store: every rule of a corpus as `judge rule` shows it, with its checks; how
`judge rule` and `judge check` start warm.

Its home is the checks layer, the lowest that knows all a record holds: a rule's `--json`
object and text blocks (`judge.corpus.render`) name the checks citing it (`judge.checks.rulemap`,
`judge.checks.questions`), and its freshness depends on the game models.

A warm `judge rule` reads the store's head (the `Catalogue`: editions, numbers in order,
titles, sub-rules; and where each rule's record lies) and the few records it prints; it
parses nothing, builds no graph and creates no rule. A record holds what the graph path
(`rule_json` / `rule_text`) gives for one rule in its own language — its `--json` object, its
text block in full and brief, and the keys of its translations — so that both languages are
put together exactly as the graph path does.

The store is kept in the configuration's knowledge base (`judge.cache.write_kb`): its `rules`
part (the newest edition, with the digest and the stamps of its inputs) and three tables of
its own, `store_editions` and `store_languages` (the catalogue: each language's numbers,
titles and sub-rules, one a line; written and read by `judge.corpus.catalogue`) and `store_records`
(one row per rule: its `--json` object as JSON, its text blocks, its translations' keys one a
line, and the checksum of all that), so that a warm `judge rule` decodes no JSON and reading runs
no code. A row that fails its checksum is never shown: the store is rebuilt (`RuleStore`). The
same write puts there the knowledge base's public tables (`judge.corpus.sqlite_export`: rules,
links, examples, glossary, history),
made from the same graph: `judge export --sqlite` copies the file. `load_store()` uses it as it is when the stamps of
its inputs match; else the digest of the inputs decides — the same digest keeps the store
(new stamps), another one rebuilds it from the graph and the checks' rule map. The inputs
are every file the store's content depends on: the package's top-level modules and the
corpus, game and checks subpackages, the manifest and the user's file, every rule text, the
FR↔EN glossary, each edition's game model and the concordance data files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.cache import (
    KnowledgeBase,
    Stamp,
    Table,
    code_inputs,
    inputs_digest,
    open_kb,
    stamps,
    to_json,
    unchanged,
    write_kb,
)
from judge.corpus.catalogue import (
    CATALOGUE_TABLES,
    Catalogue,
    CatalogueData,
    RuleKey,
    catalogue_tables,
    read_catalogue,
)
from judge.corpus.config import knowledge_base
from judge.errors import CacheError

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from judge.corpus.documents import Edition
    from judge.corpus.graph import RuleGraph
    from judge.corpus.render import ChecksFor

KIND = "rules"
TABLES = {
    **CATALOGUE_TABLES,
    "store_records": "CREATE TABLE store_records (edition TEXT NOT NULL, language TEXT NOT NULL,"
                     " number TEXT NOT NULL, json TEXT NOT NULL, text TEXT NOT NULL, brief TEXT NOT NULL,"
                     " translations TEXT NOT NULL, checksum TEXT NOT NULL,"
                     " PRIMARY KEY (edition, language, number))",
}
# (json object without translations, as JSON; text block, brief text block, translation keys)
Record = tuple[str, str, str, tuple[RuleKey, ...]]
# A row of the knowledge base's `store_records` table: edition, language, number, then the
# record (its json object as JSON, text blocks, translation keys one a line), then the
# checksum of all that (`row_checksum`): a row changed by a stray write is never shown.
Row = tuple[str, str, str, str, str, str, str, str]


def store_path(config: str | None = None) -> str:
    """Where the store of this configuration lives: its knowledge base
    (`judge.corpus.config.knowledge_base`)."""
    return knowledge_base(config)


class RuleStore:
    """A read store: its catalogue, and each rule's output by key — read from its knowledge
    base (`kb`, kept open: the rows are those of the same file as the catalogue), or from the
    rows just built when the cache cannot be written.

    A row that fails its checksum or does not decode (a stray write, a planted file) is never
    shown: the knowledge base is removed, the store rebuilt from the graph (`_heal`), and the
    row read again from the new one; only a rebuilt store that still fails is a French error."""

    __slots__ = ("_config", "_healed", "_kb", "_rows", "catalogue", "digest", "stamps")

    def __init__(self, key: str, recorded: tuple[Stamp, ...], catalogue: CatalogueData,
                 kb: KnowledgeBase | None = None, rows: dict[RuleKey, Row] | None = None) -> None:
        self.digest, self.stamps = key, recorded
        self.catalogue = Catalogue(catalogue)
        self._kb, self._rows = kb, rows
        self._config: str | None = None
        self._healed = False

    def _record(self, key: RuleKey) -> Record:
        if self.catalogue.position(key) is None:
            raise KeyError(key)
        record = self._read(key)
        if record is None:
            self._heal()
            record = self._read(key)
            if record is None:
                raise CacheError(self._kb.path if self._kb is not None else KIND)
        return record

    def _read(self, key: RuleKey) -> Record | None:
        if self._kb is None:
            row: Any = (self._rows or {}).get(key)
        else:
            import sqlite3

            try:
                found = self._kb.rows("SELECT * FROM store_records WHERE edition = ? AND language = ?"
                                      " AND number = ?", key)
            except sqlite3.DatabaseError:  # the file was removed by `rows`
                return None
            row = found[0] if found else None
        return _record_of(row)

    def _heal(self) -> None:
        """The knowledge base removed and the store rebuilt (once per store): this store
        then reads the new one's rows. A CacheError when it was already rebuilt."""
        if self._kb is None:
            raise CacheError(KIND)  # rows built by this process: nothing to rebuild from
        path = self._kb.path
        if self._healed or path != store_path(self._config):  # read by `read_store` alone: its
            self._kb.discard()  # configuration unknown here, rebuilt by the next `load_store`
            raise CacheError(path)
        self._healed = True
        self._kb.discard()
        self._kb.close()
        fresh = _refresh(path, None, self._config)
        self._kb, self._rows, self.catalogue = fresh._kb, fresh._rows, fresh.catalogue
        self.digest, self.stamps = fresh.digest, fresh.stamps

    def json(self, key: RuleKey, *, with_translations: bool = True) -> dict[str, Any]:
        """`rule_json(graph, rule, checks_for, with_translations=…)` of the rule at `key`."""
        record = self._record(key)
        out = self._decoded(record, key)
        if with_translations:
            out["translations"] = [self._decoded(self._record(t), t) for t in record[3]]
        return out

    def _decoded(self, record: Record, key: RuleKey) -> dict[str, Any]:
        out = _object(record[0])
        if out is None:  # whole, with its checksum, yet not an object: rebuilt as well
            self._heal()
            out = _object(self._record(key)[0])
            if out is None:
                raise CacheError(self._kb.path if self._kb is not None else KIND)
        return out

    def text(self, key: RuleKey, *, brief: bool = False, with_translations: bool = True) -> str:
        """`rule_text(graph, rule, worded, brief=…, with_translations=…)` of the rule at `key`:
        its own block and each translation's (in full, or brief with a brief rule), in the order
        of display (`judge.corpus.languages`: French first)."""
        from judge.corpus.languages import display_rank

        record = self._record(key)
        keys = (key, *record[3]) if with_translations else (key,)
        records = [(k, record if k == key else self._record(k)) for k in keys]
        records.sort(key=lambda item: display_rank(item[0][1]))  # French first, then English
        return "\n\n".join(r[2] if brief else r[1] for _, r in records)


def _object(text: str) -> dict[str, Any] | None:
    import json

    try:
        out = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return out if isinstance(out, dict) else None


def row_checksum(data: str, text: str, brief: str, translations: str) -> str:
    """The checksum of a record's columns (each one's length, then its text)."""
    from judge.cache import checksum

    return checksum("".join(f"{len(part)}:{part}" for part in (data, text, brief, translations)))


def _record_of(row: Any) -> Record | None:
    """The record of a row of `store_records`, or None when the row is not one or fails its
    checksum."""
    try:
        _, _, _, data, text, brief, translations, check = row
        keys = tuple(tuple(line.split("\t")) for line in translations.split("\n") if line)
    except (TypeError, ValueError, AttributeError):
        return None
    if not (isinstance(data, str) and isinstance(text, str) and isinstance(brief, str)
            and all(len(k) == 3 for k in keys)) or check != row_checksum(data, text, brief, translations):
        return None
    return data, text, brief, keys  # type: ignore[return-value]  # its shape is checked above


def read_store(path: str) -> RuleStore | None:
    """The store of the knowledge base at `path` (whatever its stamps), or None when absent,
    untrusted or corrupt."""
    import sqlite3

    kb = open_kb(path)
    if kb is None:
        return None
    try:
        found = kb.part(KIND)
        catalogue = None if found is None else read_catalogue(kb, found[2])
    except sqlite3.DatabaseError:  # the file was removed: rebuilt
        catalogue = None
    if found is None or catalogue is None:
        kb.close()
        return None
    return RuleStore(found[0], found[1], catalogue, kb)


def _tables(graph: RuleGraph, rows: list[Row]) -> dict[str, Table] | None:
    """The store's tables for a graph's catalogue (`judge.corpus.catalogue.catalogue_tables`)
    and records (None when the catalogue cannot be written one a line)."""
    tables = catalogue_tables(graph.catalogue.data)
    if tables is None:
        return None
    return {**tables, "store_records": ((TABLES["store_records"],), rows)}


def store_rows(graph: RuleGraph, checks_for: ChecksFor, worded: ChecksFor) -> list[Row]:
    """The records of a graph, as rows of `store_records`: `checks_for` names each rule's
    checks in `--json`, `worded` in the text."""
    from judge.corpus.render import rule_json, rule_text

    rows: list[Row] = []
    for (edition, language), numbers, _, _ in graph.catalogue.data[2]:
        for number in numbers:
            rule = graph.at((edition, language, number))
            record = (to_json(rule_json(graph, rule, checks_for, with_translations=False)),
                      rule_text(graph, rule, worded, with_translations=False),
                      rule_text(graph, rule, worded, brief=True, with_translations=False),
                      "\n".join(f"{t.edition}\t{t.language}\t{t.number}" for t in graph.translations(rule)))
            rows.append((edition, language, number, *record, row_checksum(*record)))
    return rows


def load_store(config: str | None = None) -> RuleStore:
    """The rule store of the embedded corpus plus the user's configuration (built if needed)."""
    path = store_path(config)
    store = read_store(path)
    if store is None or not unchanged(store.stamps):
        store = _refresh(path, store, config)
    store._config = config
    return store


def _inputs(editions: tuple[Edition, ...], config: str | None) -> tuple[Path, ...]:
    from pathlib import Path

    from judge.corpus.loader import corpus_inputs
    from judge.game.gamemodel import model_path
    from judge.resources import rules_dir

    models = (Path(model_path(edition.game)) for edition in editions if edition.game is not None)
    # The concordance data files (the `history` table), with their folder: one added shows.
    tables = rules_dir() / "concordance"
    return (*code_inputs("corpus", "game", "legality", "procedure", "checks"), *corpus_inputs(editions, config), *models,
            rules_dir() / "languages.toml", tables, *sorted(tables.glob("*.toml")))


def _refresh(path: str, old: RuleStore | None, config: str | None) -> RuleStore:
    from judge.checks.questions import check_label
    from judge.checks.rulemap import load_checks_for
    from judge.corpus.graph import RuleGraph
    from judge.corpus.loader import load_documents, load_editions

    editions = load_editions(config)
    inputs = _inputs(editions, config)
    recorded = stamps(inputs)  # before the files are read: a later change shows
    key = inputs_digest(repr(editions), inputs)
    if old is not None and old.digest == key:
        write_kb(path, [(KIND, "", key, recorded, old.catalogue.newest_edition)])
        old.stamps = recorded
        return old
    from judge.progress import say

    graph = RuleGraph(editions, load_documents(editions, path), knowledge_base=path)
    say("Magasin des règles (une seule fois) : chaque règle telle que judge rule l'affiche…")
    checks_for = load_checks_for(editions, path)

    def worded(edition: str, number: str) -> tuple[str, ...]:
        # The text names each check by the question it answers, in French.
        return tuple(check_label(name) for name in checks_for(edition, number))

    rows = store_rows(graph, checks_for, worded)
    tables = _tables(graph, rows)
    # The knowledge base's public tables (docs/sqlite.md), made from the same graph and
    # written with the store: one write, so that they are always of the same inputs.
    from judge.corpus.sqlite_export import HISTORY_PART, public_tables

    public, missing = public_tables(graph)
    parts = [(KIND, "", key, recorded, graph.newest_edition), (HISTORY_PART, "", key, (), missing)]
    if tables is not None and write_kb(path, parts, {**public, **tables}):
        store = read_store(path)
        if store is not None and store.digest == key:
            return store
    return RuleStore(key, recorded, graph.catalogue.data, rows={r[:3]: r for r in rows})
