"""The registry of the checks: `@check(ask, cites=…)`, `CheckSpec`, `Answer` and `answer()`.

A check answers one question in a `judge.legality.context.Context` and returns a `Verdict`
citing the concepts it names; the checks themselves are the topic modules (`catalog.TOPICS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from judge.game.gamemodel import GameModel
    from judge.game.situationmodel import Question
    from judge.legality.context import JSON, Context, Verdict

    CheckFunction = Callable[[Context, Question], Verdict]


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """One answered question."""

    ask: str
    params: tuple[tuple[str, JSON], ...]
    value: JSON
    rules: tuple[str, ...]
    why: str
    check: str
    extra: tuple[tuple[str, JSON], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckSpec:
    """A registered check (or, with `function` None, a rule-implementing mechanism).

    `cites` names the concepts whose rules it may cite; a concept ending in `.*` stands for
    every concept of that prefix (`priority.*`). The numbers are the edition's model's.
    """

    name: str
    ask: str | None
    cites: tuple[str, ...]
    topic: str  # the module that registers it
    function: CheckFunction | None = None

    def rules_in(self, model: GameModel) -> tuple[str, ...]:
        """The rule numbers this check implements under a game model."""
        table = model.concepts()
        out: list[str] = []
        for concept in self.cites:
            if concept.endswith(".*"):
                prefix = concept[:-1]
                keys = [k for k in table if k.startswith(prefix)]
            else:
                keys = [concept]
            for key in keys:
                out.extend(n for n in table.get(key, ()) if n not in out)
        return tuple(out)


REGISTRY: dict[str, CheckSpec] = {}


def check(ask: str, *, cites: tuple[str, ...]) -> Callable[[CheckFunction], CheckFunction]:
    """Register the check answering `ask`, with the concepts whose rules it cites."""

    def register(function: CheckFunction) -> CheckFunction:
        REGISTRY[ask] = CheckSpec(name=ask, ask=ask, cites=cites, topic=function.__module__,
                                  function=function)
        return function

    return register


def register_mechanism(name: str, *, topic: str, cites: tuple[str, ...]) -> None:
    """Register the concepts cited by a mechanism that answers no question (the replay);
    `topic` is the registering module's `__name__`."""
    REGISTRY[name] = CheckSpec(name=name, ask=None, cites=cites, topic=topic)


def answer(spec: CheckSpec, ctx: Context, question: Question) -> Answer:
    """The answer of the check `spec` (registered for `question.ask`) in a context."""
    assert spec.function is not None
    verdict = spec.function(ctx, question)
    return Answer(ask=question.ask, params=question.params(), value=verdict.value,
                  rules=verdict.rules, why=verdict.why, check=spec.name, extra=verdict.extra)
