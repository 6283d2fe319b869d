"""The rule store with each rule's checks: how `judge rule` and `judge check` start warm.

`load_store()` returns the store of the configured corpus (`judge.corpus.store`): read as it
is when the stamps of its inputs match; else the digest of the inputs decides — the same
digest keeps the store (new stamps), another one rebuilds it from the graph and the checks'
rule map. The inputs are every file the store's content depends on: the package's top-level
modules and the corpus, game and checks subpackages (the renderers, the parser, the checks'
names), the manifest and the user's file, every rule text, the FR↔EN glossary and each
edition's game model.
"""

from __future__ import annotations

from judge.cache import code_inputs, inputs_digest, stamps, unchanged, write_atomic
from judge.corpus.store import RuleStore, loaded, read_store, store_bytes, store_path

TYPE_CHECKING = False  # `typing` and `pathlib` cost a cold start 3 ms each; mypy reads this block as true
if TYPE_CHECKING:
    from pathlib import Path

    from judge.corpus.model import Edition


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
        from judge.progress import say

        graph = RuleGraph(editions, load_documents(editions))
        say("Magasin des règles (une seule fois) : chaque règle telle que judge rule l'affiche…")
        checks_for = load_checks_for(editions)

        def worded(edition: str, number: str) -> tuple[str, ...]:
            # The text names each check by the question it answers, in French.
            return tuple(check_label(name) for name in checks_for(edition, number))

        data = store_bytes(graph, checks_for, worded, key, recorded)
    write_atomic(path, data)
    return loaded(data)
