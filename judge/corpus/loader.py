"""Loading the corpus: manifest (+ user configuration) -> parsed documents -> `RuleGraph`.

The editions and the parsed documents are parts of the configuration's knowledge base
(`judge.cache.write_kb`), keyed by the source bytes, the manifest, the grammar, the parser
code and the package version, so that a warm start neither re-parses nor imports Lark. A
stale key is never read; a corrupt part is ignored and rewritten.
"""

from __future__ import annotations

from pathlib import Path

from judge import __version__
from judge.cache import code_digest, digest, from_json, read_part, to_json, write_kb
from judge.corpus.config import embedded_knowledge_base, find_config, knowledge_base
from judge.corpus.documents import RECORDS, Document, Edition, Text
from judge.corpus.graph import RuleGraph
from judge.resources import display_path, rules_dir

CACHE_FORMAT = 1


def corpus_key(editions: tuple[Edition, ...]) -> str:
    """A digest of everything a parse depends on."""
    hashed = code_digest("corpus")
    hashed.update(f"format {CACHE_FORMAT}\n".encode())
    for edition in editions:
        hashed.update(repr(edition).encode())
        for text in edition.texts:
            for file in text.files:
                hashed.update(Path(file).read_bytes())
    return str(hashed.hexdigest())


def corpus_inputs(editions: tuple[Edition, ...], config: str | None) -> tuple[Path, ...]:
    """The data files a cache of the corpus depends on: the manifest, the user's file, the
    FR↔EN glossary and every rule text (inputs for `stamps` and `inputs_digest`)."""
    from judge.corpus.lexicon import GLOSSARY_NAME

    found = find_config(config)
    return (rules_dir() / "manifest.toml", *((Path(found).resolve(),) if found else ()), rules_dir() / GLOSSARY_NAME,
            *(Path(file) for edition in editions for text in edition.texts for file in text.files))


def parse_editions(editions: tuple[Edition, ...]) -> tuple[Document, ...]:
    """Parse every text of every edition (imports Lark)."""
    from judge.corpus.parser import parse_file

    documents: list[Document] = []
    for edition in editions:
        for text in edition.texts:
            for file in text.files:
                label = display_path(Path(file))
                documents.append(
                    parse_file(Path(file), language=text.language, edition=edition.id, label=label)
                )
    return tuple(documents)


def _read_documents(path: str, key: str) -> tuple[Document, ...] | None:
    found = read_part(path, "documents")
    if found is None or found[0] != key:
        return None
    try:
        data = from_json(found[2], RECORDS)
    except ValueError:
        return None
    if not isinstance(data, tuple) or not all(isinstance(d, Document) for d in data):
        return None
    return data


def load_documents(editions: tuple[Edition, ...], kb: str | None = None, *,
                   use_cache: bool = True) -> tuple[Document, ...]:
    """The parsed texts of `editions`, cached in the knowledge base `kb` (of their
    configuration: `judge.corpus.config.knowledge_base`; the embedded corpus's by default)."""
    if not use_cache:
        return parse_editions(editions)
    path, key = kb or embedded_knowledge_base(), corpus_key(editions)
    cached = _read_documents(path, key)
    if cached is not None:
        return cached
    from judge.progress import number, say

    files = sum(len(t.files) for e in editions for t in e.texts)
    say(f"Préparation du corpus (une seule fois) : analyse de {files} textes de règles…")
    documents = parse_editions(editions)
    say(f"Corpus prêt : {number(sum(len(d.rules) for d in documents))} règles")
    write_kb(path, [("documents", "", key, (), to_json(documents))])
    return documents


def load_editions(config: str | None = None, *, use_cache: bool = True) -> tuple[Edition, ...]:
    """The manifest's editions plus the user's configuration.

    Cached by the bytes of both files (and the package version), so a warm start needs no TOML
    parser; file paths inside are re-checked before use.
    """
    manifest = rules_dir() / "manifest.toml"
    named = find_config(config)
    found = None if named is None else Path(named)
    path = knowledge_base(config)
    key: str | None = None
    if use_cache:
        from judge.inputs import MAX_CONFIG_BYTES, InputError, read_regular

        try:  # the user's file: bounded, a regular file (its errors are `apply_config`'s to say)
            seed = manifest.read_bytes() + b"\0" + (read_regular(str(found), MAX_CONFIG_BYTES) if found else b"")
        except (OSError, InputError):
            seed = None
        if seed is not None:
            key = str(digest(f"{__version__}\0{manifest}\0{found}\0".encode() + seed).hexdigest())
            cached = read_part(path, "editions")
            if cached is not None and cached[0] == key:
                try:
                    editions = from_json(cached[2], (Edition, Text))
                except ValueError:
                    editions = None
                if _valid_editions(editions):
                    return editions  # type: ignore[no-any-return]  # checked just above
    from judge.corpus.manifest import apply_config, load_manifest

    editions = load_manifest(manifest)
    if found is not None:
        editions = apply_config(editions, found)
    if key is not None:
        write_kb(path, [("editions", "", key, (), to_json(editions))])
    return editions


def _valid_editions(data: object) -> bool:
    return (
        isinstance(data, tuple)
        and all(isinstance(e, Edition) for e in data)
        and all(Path(f).is_file() for e in data for t in e.texts for f in t.files)
    )


def load_graph(config: str | None = None, *, use_cache: bool = True) -> RuleGraph:
    """The embedded corpus plus the user's configuration, as a cross-referenced graph."""
    editions = load_editions(config)
    kb = knowledge_base(config)
    return RuleGraph(editions, load_documents(editions, kb, use_cache=use_cache), knowledge_base=kb)
