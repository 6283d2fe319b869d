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

The file is marshal data (str, int, tuple, list, dict, None and bool): loading it cannot run
code. It is read only when trusted (`judge.cache.open_trusted`). `load_store()` uses it as it
is when the stamps of its inputs match; else the digest of the inputs decides — the same
digest keeps the store (new stamps), another one rebuilds it from the graph and the checks'
rule map. The inputs are every file the store's content depends on: the package's top-level
modules and the corpus, game and checks subpackages, the manifest and the user's file, every
rule text, the FR↔EN glossary and each edition's game model.
Layout: MAGIC, the head's length (8 bytes, little-endian), the head, the records.
"""

from __future__ import annotations

import io
import marshal
from typing import TYPE_CHECKING

from judge.cache import (
    Stamp,
    code_inputs,
    discard,
    inputs_digest,
    open_trusted,
    stamps,
    unchanged,
    write_atomic,
)
from judge.corpus.catalogue import Catalogue, CatalogueData, RuleKey
from judge.corpus.config import configured_cache
from judge.errors import CacheError

if TYPE_CHECKING:
    from pathlib import Path
    from typing import IO, Any

    from judge.cache import StrPath
    from judge.corpus.documents import Edition
    from judge.corpus.graph import RuleGraph
    from judge.corpus.render import ChecksFor

FORMAT = 1
MAGIC = b"judge rule store\n"
_LENGTH = 8
# (json object without translations, text block, brief text block, translation keys)
Record = tuple[dict[str, "Any"], str, str, tuple[RuleKey, ...]]
# (format, digest of the inputs, their stamps, catalogue, where the records of each language
# of the catalogue begin and end: one boundary per rule and a last one, in the same order)
Head = tuple[int, str, tuple[Stamp, ...], CatalogueData, tuple[tuple[int, ...], ...]]


def store_path(config: str | None = None) -> str:
    """Where the store of this configuration lives (`configured_cache`: its head says which
    inputs it was built from)."""
    return configured_cache("rules", ".store", config)


class RuleStore:
    """A read store: its catalogue, and each rule's output by key."""

    __slots__ = ("_base", "_bounds", "_file", "catalogue", "digest", "stamps")

    def __init__(self, head: Head, file: IO[bytes], base: int) -> None:
        _, self.digest, self.stamps, catalogue, bounds = head
        self.catalogue = Catalogue(catalogue)
        self._bounds = {entry[0]: b for entry, b in zip(catalogue[2], bounds, strict=True)}
        self._file, self._base = file, base
        end = file.seek(0, io.SEEK_END)
        for entry, b in zip(catalogue[2], bounds, strict=True):
            if len(b) != len(entry[1]) + 1 or (b and base + b[-1] > end):
                raise ValueError("rule store cut short or inconsistent")

    def _record(self, key: RuleKey) -> Record:
        at = self.catalogue.position(key)
        if at is None:
            raise KeyError(key)
        bounds = self._bounds[key[:2]]
        try:
            self._file.seek(self._base + bounds[at])
            record = marshal.loads(self._file.read(bounds[at + 1] - bounds[at]))
        except (OSError, EOFError, ValueError, TypeError):
            record = None
        if not (isinstance(record, tuple) and len(record) == 4 and isinstance(record[0], dict)
                and isinstance(record[1], str) and isinstance(record[2], str) and isinstance(record[3], tuple)):
            discard(self._file.name)  # the next start rebuilds the store
            raise CacheError(self._file.name)
        return record  # type: ignore[return-value]  # its shape is checked above

    def json(self, key: RuleKey, *, with_translations: bool = True) -> dict[str, Any]:
        """`rule_json(graph, rule, checks_for, with_translations=…)` of the rule at `key`."""
        record = self._record(key)
        out = record[0]
        if with_translations:
            out["translations"] = [self._record(t)[0] for t in record[3]]
        return out

    def text(self, key: RuleKey, *, brief: bool = False, with_translations: bool = True) -> str:
        """`rule_text(graph, rule, worded, brief=…, with_translations=…)` of the rule at `key`:
        its own block, then each translation's (in full, or brief with a brief rule)."""
        record = self._record(key)
        keys = (key, *record[3]) if with_translations else (key,)
        records = [record, *(self._record(t) for t in keys[1:])]
        return "\n\n".join(r[2] if brief else r[1] for r in records)

    def restamped(self, stamps: tuple[Stamp, ...]) -> bytes:
        """The same store with new stamps (inputs touched, their digest unchanged)."""
        self._file.seek(self._base)
        records = self._file.read()
        bounds = tuple(self._bounds[entry[0]] for entry in self.catalogue.data[2])
        return _pack((FORMAT, self.digest, stamps, self.catalogue.data, bounds), records)


def _pack(head: Head, records: bytes) -> bytes:
    data = marshal.dumps(head)
    return MAGIC + len(data).to_bytes(_LENGTH, "little") + data + records


def _open(file: IO[bytes]) -> RuleStore | None:
    try:
        if file.read(len(MAGIC)) != MAGIC:
            return None
        length = int.from_bytes(file.read(_LENGTH), "little")
        head = marshal.loads(file.read(length))
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(head, tuple) and len(head) == 5 and head[0] == FORMAT and isinstance(head[1], str)
            and isinstance(head[2], tuple) and isinstance(head[3], tuple) and len(head[3]) == 3
            and isinstance(head[4], tuple)):
        return None
    try:
        return RuleStore(head, file, len(MAGIC) + _LENGTH + length)
    except (TypeError, ValueError, KeyError, IndexError):
        return None


def read_store(path: StrPath) -> RuleStore | None:
    """The store at `path` (whatever its stamps), or None when absent, untrusted or corrupt."""
    handle = open_trusted(path)
    if handle is None:
        return None
    store = _open(handle)
    if store is None:
        handle.close()
    return store


def store_bytes(graph: RuleGraph, checks_for: ChecksFor, worded: ChecksFor, key: str,
                stamps: tuple[Stamp, ...]) -> bytes:
    """The store of a graph: `checks_for` names each rule's checks in `--json`, `worded` in
    the text; `key` is the digest of the inputs, `stamps` theirs."""
    from judge.corpus.render import rule_json, rule_text

    catalogue = graph.catalogue
    records: list[bytes] = []
    position = 0
    bounds: list[tuple[int, ...]] = []
    for (edition, language), numbers, _, _ in catalogue.data[2]:
        starts = [position]
        for number in numbers:
            rule = graph.at((edition, language, number))
            record: Record = (
                rule_json(graph, rule, checks_for, with_translations=False),
                rule_text(graph, rule, worded, with_translations=False),
                rule_text(graph, rule, worded, brief=True, with_translations=False),
                tuple((t.edition, t.language, t.number) for t in graph.translations(rule)),
            )
            data = marshal.dumps(record)
            records.append(data)
            position += len(data)
            starts.append(position)
        bounds.append(tuple(starts))
    return _pack((FORMAT, key, stamps, catalogue.data, tuple(bounds)), b"".join(records))


def loaded(data: bytes) -> RuleStore:
    """A store from the bytes `store_bytes` wrote (just built: no file to read back)."""
    store = _open(io.BytesIO(data))
    assert store is not None  # written by store_bytes above
    return store


def load_store(config: str | None = None) -> RuleStore:
    """The rule store of the embedded corpus plus the user's configuration (built if needed)."""
    path = store_path(config)
    store = read_store(path)
    if store is not None and unchanged(store.stamps):
        return store
    return _refresh(path, store, config)


def _inputs(editions: tuple[Edition, ...], config: str | None) -> tuple[Path, ...]:
    from pathlib import Path

    from judge.corpus.loader import corpus_inputs
    from judge.game.gamemodel import model_path

    models = (Path(model_path(edition.game)) for edition in editions if edition.game is not None)
    return (*code_inputs("corpus", "game", "checks"), *corpus_inputs(editions, config), *models)


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
        data = old.restamped(recorded)
    else:
        graph = RuleGraph(editions, load_documents(editions))
        checks_for = load_checks_for(editions)

        def worded(edition: str, number: str) -> tuple[str, ...]:
            # The text names each check by the question it answers, in French.
            return tuple(check_label(name) for name in checks_for(edition, number))

        data = store_bytes(graph, checks_for, worded, key, recorded)
    write_atomic(path, data)
    return loaded(data)
