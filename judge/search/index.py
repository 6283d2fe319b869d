"""The on-disk Whoosh index of a graph's rules: schema, documents, cache folder, build and reuse.

One Whoosh index per language, side by side in one folder (Whoosh's `indexname` = the
language code), so BM25 statistics stay those of one language; a third one, `glossary`, holds
the Comprehensive Rules glossaries. Every field a hit shows is stored (`card`, `names`,
`descendants`): a query needs no rule graph. The folder's `complete` file records the
documents per language and the editions. Built in a temporary folder, renamed into place,
rebuilt when stale or corrupt, kept in RAM when unwritable. The export for the static book
(`judge.search.export`) is made from it when first asked for (`export_of`) and kept in the
knowledge base. Querying is `judge.search.engine`'s job.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import whoosh.index
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage, RamStorage

from judge.cache import cache_dir, ensure_dir, read_trusted, trusted
from judge.progress import number, say
from judge.search.analysis import FrenchAnalyzer, analyze_terms
from judge.search.export import EXPORT_FORMAT, EXPORT_PART, Stored, build_export, index_name
from judge.search.fields import GLOSSARY
from judge.search.words import WORDS_FILE

BUILDING = ".building-"  # the prefix of an index folder being built
RECORD_BYTES = 1024 * 1024  # the `complete` record of an index folder, at most
INDEX_FILE_BYTES = 512 * 1024 * 1024  # one file of an index folder, at most (a corpus of 16 MB texts)

if TYPE_CHECKING:
    from judge.corpus.documents import Rule
    from judge.corpus.graph import RuleGraph

Indexes = dict[str, Any]  # language (and `GLOSSARY`) -> open Whoosh index


# ---------------------------------------------------------------------- index
def schema(language: str = "fr") -> Schema:
    """The fields of one language's index (its analysis: see `judge.search.analysis`)."""
    stemmed = FrenchAnalyzer(stemmed=True, language=language)
    exact = FrenchAnalyzer(stemmed=False, language=language)
    return Schema(
        id=ID(stored=True, unique=True),
        edition=ID(stored=True),
        language=ID(stored=True),
        number=ID(stored=True),
        status=ID(stored=True),
        title=TEXT(analyzer=stemmed, phrase=False),
        text=TEXT(analyzer=stemmed, phrase=False),
        examples=TEXT(analyzer=stemmed, phrase=False),
        context=TEXT(analyzer=stemmed, phrase=False),
        exact=TEXT(analyzer=exact, phrase=True),
        heading=TEXT(analyzer=exact, phrase=True),
        card=STORED(),  # what a hit shows (`judge.search.output.Card`, as a tuple)
        names=STORED(),  # the stems of the rule's name (title, or a text that is only a name)
        descendants=STORED(),  # the numbers of the rules under it
    )


def glossary_schema() -> Schema:
    """The glossary entries: edition, language, term, definition and the term's name key."""
    return Schema(edition=STORED(), language=STORED(), term=STORED(), text=STORED(), key=STORED())


def languages(graph: RuleGraph) -> tuple[str, ...]:
    """Every language of the graph's editions, in the order the manifest first names them."""
    return tuple(dict.fromkeys(lang for edition in graph.editions for lang in edition.languages))


def _rules(graph: RuleGraph, language: str) -> tuple[Rule, ...]:
    return tuple(rule for rule in graph.all_rules() if rule.language == language)


def _card(graph: RuleGraph, rule: Rule) -> tuple[Any, ...]:
    from judge.search.output import card_of

    card = card_of(graph, rule)
    other = card.counterpart
    return (card.title, card.status, card.context,
            None if other is None else (other.language, other.number, other.title, other.text),
            card.removed_in, card.texts, card.french_name)


def _documents(graph: RuleGraph, language: str) -> Iterable[dict[str, Any]]:
    for rule in _rules(graph, language):
        examples = " ".join(example.text for example in rule.examples)
        # A rule's name: its title, or its text when that is only a name (`702.10. Haste`).
        ancestors = [a.heading for a in graph.ancestors(rule) if a.heading]
        yield {
            "id": f"{rule.edition}:{rule.language}:{rule.number}",
            "edition": rule.edition,
            "language": rule.language,
            "number": rule.number,
            "status": rule.status,
            "title": rule.heading or "",
            "text": rule.text,
            "examples": examples,
            "context": " ".join(ancestors),
            "exact": " ".join(part for part in (rule.title or "", rule.text, examples) if part),
            "heading": rule.heading or "",
            "card": _card(graph, rule),
            "names": tuple(sorted(set(analyze_terms(rule.heading or "", language)))),
            "descendants": tuple(d.number for d in graph.descendants(rule)),
        }


def _writer(ix: Any) -> Any:
    """A writer of one segment with uncompressed postings: zlib costs a first run more than
    the bigger files (read whole into memory) cost a search. (`default_codec` is the public
    factory of Whoosh's codec, the one its writer uses when given none.)"""
    from whoosh.codec import default_codec

    return ix.writer(limitmb=128, codec=default_codec(compression=0))


def _fill(ix: Any, documents: Iterable[dict[str, Any]]) -> None:
    writer = _writer(ix)
    for doc in documents:
        writer.add_document(**doc)
    writer.commit()


def _glossary_documents(graph: RuleGraph) -> list[dict[str, Any]]:
    from judge.corpus.glossary import entries
    from judge.corpus.names import term_key

    return [{"edition": edition, "language": language, "term": entry.term, "text": entry.text,
             "key": tuple(sorted(term_key(entry.term)))} for edition, language, entry in entries(graph)]


def _record(graph: RuleGraph) -> dict[str, Any]:
    """What the `complete` file says: the documents of each index, the editions (id and
    languages, manifest order) and the newest edition."""
    from judge.corpus.glossary import entries

    counts = {language: len(_rules(graph, language)) for language in languages(graph)}
    return {"counts": {**counts, GLOSSARY: len(entries(graph))},
            "editions": [[e.id, list(e.languages)] for e in graph.editions], "newest": graph.newest_edition}


def record_of(path: Path) -> dict[str, Any] | None:
    """The `complete` record of an index folder (`_record`), or None when unreadable."""
    try:
        data = read_trusted(path / "complete", RECORD_BYTES)  # never a FIFO, a device, a huge file
        if data is None:
            return None
        found = json.loads(data.decode("utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and isinstance(found.get("counts"), dict) else None


def open_folder(path: Path) -> Indexes | None:
    """The opened indexes of a complete, readable, trusted index folder, else None."""
    try:
        record = record_of(path)
        if record is None:
            return None
        ram = _load_in_memory(path)
        if ram is None:
            return None
        out: Indexes = {}
        for language, count in record["counts"].items():
            ix = ram.open_index(indexname=language)
            with ix.searcher() as searcher:
                if searcher.doc_count() != count:
                    return None
                if count:
                    searcher.stored_fields(0)
            out[language] = ix
        return out
    except Exception:  # any failure to read a cache means "rebuild it"
        return None


def _load_in_memory(path: Path) -> Any | None:
    """A RAM copy of the index files: no mmap (a cache file truncated under a running server
    would kill it with SIGBUS) and no seek per term lookup (speed). None when the folder or a
    file in it is not the user's own or is writable by others (Whoosh's table of contents is
    Python's serialised objects, which can run code: such a file is ignored, with one
    warning, like every cache file)."""
    if not trusted(path):
        return None
    ram = RamStorage()
    for name in FileStorage(str(path)).list():
        if name == WORDS_FILE:
            continue
        data = read_trusted(path / name, INDEX_FILE_BYTES)
        if data is None:
            return None
        with ram.create_file(name) as file:
            file.write(data)
    return ram


def _discard(path: Path) -> None:
    """Move a folder aside atomically, then delete it (another process may race us)."""
    trash = path.with_name(f".trash-{path.name}-{os.getpid()}-{threading.get_ident()}")
    try:
        os.rename(path, trash)
    except OSError:
        return
    shutil.rmtree(trash, ignore_errors=True)


# A first run's index is built by two processes when the machine has a second core
# (`judge.search.helper`): this one indexes the first rules of each language; the helper, in a folder
# of its own (`_REST`), the word list, the glossary and the last rules of the largest language,
# as a second segment of that language's index that `_join_rest` adds after the first: the
# document numbers, the statistics and so the scores are those of a single segment.
_REST = ".rest"
WORDS_COST = 600  # making the word list costs about as much as indexing this many rules
MIN_REST = 200  # fewer rules than this are not worth a second segment


def _split(documents: dict[str, list[dict[str, Any]]], shared: bool) -> dict[str, int]:
    """Where each language's rules left to the helper begin (its length: none): when `shared`,
    the last rules of the largest language, so that both processes index about as much."""
    split = {language: len(docs) for language, docs in documents.items()}
    if shared and documents:
        largest = max(documents, key=lambda language: len(documents[language]))
        rest = min(sum(split.values()) // 2 - WORDS_COST, split[largest] - 1)
        if rest >= MIN_REST:
            split[largest] -= rest
    return split


def _build_rest(folder: Path, documents: dict[str, list[dict[str, Any]]], split: dict[str, int],
                glossary: list[dict[str, Any]]) -> None:
    """The helper's share, written into `folder` (new): the word list, the glossary's index and
    the rules of each language from `split` on, as that language's index."""
    from judge.search.words import real_words

    folder.mkdir()
    (folder / WORDS_FILE).write_text("\n".join(real_words()), encoding="utf-8")
    built = []
    for language, docs in documents.items():
        if split[language] < len(docs):
            ix = whoosh.index.create_in(str(folder), schema(language), indexname=language)
            _fill(ix, docs[split[language]:])
            built.append(ix)
    built.append(whoosh.index.create_in(str(folder), glossary_schema(), indexname=GLOSSARY))
    _fill(built[-1], glossary)
    for ix in built:
        ix.close()


def _join_rest(tmp: Path, rest: Path, split: dict[str, int], documents: dict[str, list[dict[str, Any]]]) -> None:
    """Move the helper's files from `rest` into `tmp`: the segment of each split language
    added after the first one in its table of contents, the rest as they are."""
    for language, docs in documents.items():
        if split[language] < len(docs):
            splice_segments(tmp, rest, language)
    for name in os.listdir(rest):
        os.rename(rest / name, tmp / name)
    rest.rmdir()


def splice_segments(folder: Path, other: Path, indexname: str) -> None:
    """Add the segments of index `indexname` in `other` after those of the same index in
    `folder` (same schema), moving their files; `other` keeps none of that index's files.

    Whoosh has no public API for this (`IndexWriter.add_reader` copies every posting again,
    which is what the helper process saves): the one place judge uses its internals (the table
    of contents `TOC`, `clean_files`, `Segment.list_files`), tested on its own by
    `tests/search/test_index_whoosh.py`, which fails on the first Whoosh they no longer fit."""
    from whoosh.index import TOC, clean_files

    storage, parts = FileStorage(str(folder)), FileStorage(str(other))
    first, last = TOC.read(storage, indexname), TOC.read(parts, indexname)
    for segment in last.segments:
        for name in segment.list_files(parts):
            os.rename(other / name, folder / name)
    joined = TOC(first.schema, [*first.segments, *last.segments], first.generation + 1)
    joined.write(storage, indexname)
    clean_files(storage, indexname, joined.generation, joined.segments)  # the first's table
    clean_files(parts, indexname, -1, [])  # the other's table of that index


def build_index(graph: RuleGraph, dest: Path) -> None:
    """Build into a temporary folder beside `dest`, then rename; if `dest` appeared, drop ours."""
    from judge.search import helper

    ensure_dir(dest.parent)
    # 0700, like the folder; named with this process's id, so that a later run can tell it
    # from a build still running (`remove_dead_builds`).
    tmp = Path(tempfile.mkdtemp(prefix=f"{BUILDING}{os.getpid()}-", dir=dest.parent))
    try:
        # Made before the helper starts: it inherits them (and every cache they warmed).
        documents = {language: list(_documents(graph, language)) for language in languages(graph)}
        glossary = _glossary_documents(graph)
        split = _split(documents, helper.available())
        rest = tmp / _REST
        child = helper.start(lambda: _build_rest(rest, documents, split, glossary))
        try:
            for language, docs in documents.items():
                say(f"Index de recherche ({language}, une seule fois) : "
                    f"{number(len(graph.rules(language=language)))} règles…")
                ix = whoosh.index.create_in(str(tmp), schema(language), indexname=language)
                _fill(ix, docs[:split[language]])
                ix.close()
            if child is None or not child.wait():  # no helper, or it failed: its share here
                shutil.rmtree(rest, ignore_errors=True)
                _build_rest(rest, documents, split, glossary)
        finally:
            if child is not None:
                child.close()  # interrupted: the helper is stopped before the folder is removed
        _join_rest(tmp, rest, split, documents)
        (tmp / "complete").write_text(json.dumps(_record(graph)))
        for file in tmp.iterdir():
            file.chmod(0o600)  # whatever the umask: files only the user can write are read back
        try:
            os.rename(tmp, dest)
        except OSError:
            if not dest.is_dir():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _ram_index(graph: RuleGraph) -> Indexes:
    storage = RamStorage()
    out: Indexes = {}
    for language in languages(graph):
        ix = out[language] = storage.create_index(schema(language), indexname=language)
        _fill(ix, _documents(graph, language))
    out[GLOSSARY] = storage.create_index(glossary_schema(), indexname=GLOSSARY)
    _fill(out[GLOSSARY], _glossary_documents(graph))
    return out


def remove_dead_builds(root: Path) -> None:
    """Remove the building folders (`.building-PID-…`) of processes that died (`kill -9`
    during a first search), and those of the old naming (no process id) over an hour old."""
    import re
    import time

    try:
        found = [entry for entry in root.iterdir() if entry.name.startswith(BUILDING)]
    except OSError:
        return
    for entry in found:
        match = re.match(r"(\d+)-", entry.name[len(BUILDING):])
        try:
            if entry.is_symlink() or not entry.is_dir():
                continue
            if match is not None:
                pid = int(match.group(1))
                if pid == os.getpid() or _alive(pid):
                    continue
            elif time.time() - entry.stat().st_mtime < 3600:
                continue
        except (OSError, ValueError, OverflowError):
            continue
        shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True
    return True


def open_or_build(graph: RuleGraph) -> tuple[Indexes, str | None]:
    """The graph's index of each language (and its glossary), from the cache or built
    (notice: why rebuilt)."""
    name, prefix = index_name(graph.editions)
    root = cache_dir()
    dest = root / name
    notice = None
    if dest.exists():
        ix = _valid(dest, graph)
        if ix is not None:
            return ix, None
        notice = "index de recherche corrompu : reconstruction"
        _discard(dest)
    stale = [p for p in root.glob(prefix + "*") if p.name != name] if root.is_dir() else []
    if stale and notice is None:
        notice = "index de recherche périmé (règles ou version modifiées) : reconstruction"
    for old in stale:
        _discard(old)
    remove_dead_builds(root)
    try:
        build_index(graph, dest)
    except OSError:
        # An unwritable cache only costs speed: search from memory.
        return _ram_index(graph), notice
    ix = _valid(dest, graph)
    if ix is None:
        return _ram_index(graph), notice
    return ix, notice


def _valid(path: Path, graph: RuleGraph) -> Indexes | None:
    """The indexes at `path` when sound and made from this graph's rules (same record)."""
    if record_of(path) != json.loads(json.dumps(_record(graph))):
        return None
    return open_folder(path)


def _stored_export(graph: RuleGraph) -> tuple[str, str, Stored | None]:
    """The knowledge base, the export's key, and the export stored under that key, if any."""
    from judge.cache import read_part
    key = f"{index_name(graph.editions)[0]} {EXPORT_FORMAT}"
    kb = graph.knowledge_base
    found = read_part(kb, EXPORT_PART)
    return kb, key, Stored(found[2]) if found is not None and found[0] == key else None


def export_data(graph: RuleGraph) -> dict[str, Any]:
    """The graph's export decoded (`unpack`). A stored one that does not decode as an export
    (a value planted with its checksum) is made again and written over: never a traceback,
    never the same refusal at every run."""
    from judge.errors import CacheError
    from judge.search.export import unpack

    try:
        return unpack(export_of(graph)[0])
    except CacheError:
        return unpack(export_of(graph, use_stored=False)[0])


def export_started(graph: RuleGraph) -> Any:
    """A helper process (`judge.search.helper.Helper`) making the graph's export (`export_of`: the
    index first when needed) and storing it, when it is not stored yet and a helper is
    available; else None. Its caller works meanwhile, then waits for it: `export_of` then
    reads the stored export, or makes it if the helper could not."""
    from judge.search import helper

    if not helper.available() or _stored_export(graph)[2] is not None:
        return None
    return helper.start(lambda: export_of(graph))


def export_of(graph: RuleGraph, *, use_stored: bool = True) -> tuple[Stored, str | None]:
    """The graph's exported index (`judge.search.export`) from the knowledge base, made from
    the index (built first when needed) and kept there the first time; and the notice of
    `open_or_build`. A stored export is the index's own (same name): the Whoosh index is then
    not opened. `use_stored=False`: made again and written over the stored one."""
    from judge.cache import to_json, write_kb

    kb, key, stored = _stored_export(graph)
    if stored is not None and use_stored:
        return stored, None
    name = index_name(graph.editions)[0]
    indexes, notice = open_or_build(graph)
    say("Index de recherche : export pour le livre…")
    text = to_json(build_export(graph, indexes, name))
    write_kb(kb, [(EXPORT_PART, "", key, (), text)])
    return Stored(text), notice
