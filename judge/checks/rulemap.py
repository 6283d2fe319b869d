"""Which executable checks implement which rule of which edition, read through game models.

A check names concepts; each edition's game model gives their numbers, so the map depends on
the editions (which model each follows) and on the model files. `judge rule` shows the checks
of a rule; importing the checker costs a cold start tens of milliseconds, so the map is a part of
the knowledge base (`judge.cache.write_kb`), keyed by the checker's source files, the
editions' models and their bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.cache import code_digest, digest, from_json, read_part, to_json, write_kb
from judge.corpus.config import embedded_knowledge_base
from judge.errors import JudgeError
from judge.game.gamemodel import GameModel, load_game_model, model_path

if TYPE_CHECKING:
    from judge.corpus.documents import Edition
    from judge.corpus.render import ChecksFor

RuleMap = dict[tuple[str, str], tuple[str, ...]]  # (edition, number) -> check names


def edition_models(editions: tuple[Edition, ...]) -> dict[str, GameModel]:
    """The model of each edition that names a readable one (the others have no checks)."""
    out: dict[str, GameModel] = {}
    for edition in editions:
        if edition.game is None:
            continue
        try:
            out[edition.id] = load_game_model(edition.game)
        except JudgeError:
            continue  # `judge check` reports the broken model; the map leaves it out
    return out


def _build(editions: tuple[Edition, ...]) -> RuleMap:
    from judge.checks.catalog import every_check

    checks = every_check()
    mapping: dict[tuple[str, str], list[str]] = {}
    for edition, model in edition_models(editions).items():
        for spec in checks:
            for number in spec.rules_in(model):
                mapping.setdefault((edition, number), []).append(spec.name)
    return {k: tuple(v) for k, v in mapping.items()}


def _key(editions: tuple[Edition, ...]) -> str:
    seed = code_digest("checks", "procedure", "legality", "game").hexdigest().encode()
    for edition in editions:
        seed += f"\0{edition.id}\0{edition.game}".encode()
        if edition.game is not None:
            try:
                with open(model_path(edition.game), "rb") as handle:
                    seed += handle.read()
            except OSError:
                seed += b"\0absent"
    return str(digest(seed).hexdigest())


def load_checks_for(editions: tuple[Edition, ...] | None = None, kb: str | None = None) -> ChecksFor:
    """`checks_for(edition, number)` backed by the on-disk map (built once per version), kept
    in the knowledge base `kb` (the editions' configuration's; the embedded corpus's by default)."""
    if editions is None:
        from judge.corpus.loader import load_editions

        editions = load_editions()
    path, key = kb or embedded_knowledge_base(), _key(editions)
    found = read_part(path, "checks")
    mapping: RuleMap | None = None
    if found is not None and found[0] == key:
        try:
            mapping = dict(from_json(found[2], ()))
        except (ValueError, TypeError):
            mapping = None
    if mapping is None:
        mapping = _build(editions)
        write_kb(path, [("checks", "", key, (), to_json(list(mapping.items())))])

    def checks_for(edition: str, number: str) -> tuple[str, ...]:
        return tuple(mapping.get((edition, number), ()))

    return checks_for
