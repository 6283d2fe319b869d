"""Loading the corpus: manifest (+ user configuration) -> parsed documents -> `RuleGraph`.

Parsed documents are cached on disk, keyed by the source bytes, the manifest, the grammar
and the parser code and the package version, so that a warm `judge rule` neither re-parses
nor imports Lark. A stale key is never read; a corrupt cache file is ignored and rewritten.
"""

from __future__ import annotations

from pathlib import Path

from judge import __version__
from judge.cache import cache_dir, code_digest, digest, read_pickle, write_pickle
from judge.corpus.config import find_config
from judge.corpus.documents import Document, Edition
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


def _read_documents(path: Path) -> tuple[Document, ...] | None:
    data = read_pickle(path)
    if not isinstance(data, tuple) or not all(isinstance(d, Document) for d in data):
        return None
    return data


def load_documents(editions: tuple[Edition, ...], *, use_cache: bool = True) -> tuple[Document, ...]:
    if not use_cache:
        return parse_editions(editions)
    path = cache_dir() / f"corpus-{corpus_key(editions)}.pickle"
    cached = _read_documents(path)
    if cached is not None:
        return cached
    documents = parse_editions(editions)
    write_pickle(path, documents)
    return documents


def load_editions(config: str | None = None, *, use_cache: bool = True) -> tuple[Edition, ...]:
    """The manifest's editions plus the user's configuration.

    Cached by the bytes of both files (and the package version), so a warm start needs no TOML
    parser; file paths inside are re-checked before use.
    """
    manifest = rules_dir() / "manifest.toml"
    named = find_config(config)
    found = None if named is None else Path(named)
    path: Path | None = None
    if use_cache:
        from judge.inputs import MAX_CONFIG_BYTES, InputError, read_regular

        try:  # the user's file: bounded, a regular file (its errors are `apply_config`'s to say)
            seed = manifest.read_bytes() + b"\0" + (read_regular(str(found), MAX_CONFIG_BYTES) if found else b"")
        except (OSError, InputError):
            seed = None
        if seed is not None:
            hashed = digest(f"{__version__}\0{manifest}\0{found}\0".encode() + seed)
            path = cache_dir() / f"editions-{hashed.hexdigest()}.pickle"
            cached = read_pickle(path)
            if _valid_editions(cached):
                return tuple(cached)
    from judge.corpus.manifest import apply_config, load_manifest

    editions = load_manifest(manifest)
    if found is not None:
        editions = apply_config(editions, found)
    if path is not None:
        write_pickle(path, editions)
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
    return RuleGraph(editions, load_documents(editions, use_cache=use_cache))
