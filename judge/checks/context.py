"""The frame every check works in: the registry and the `Context` a situation is judged in.

Owns `@check(ask, rules=…)`, `Verdict`/`Answer`, `build_context()` (a situation placed in its
turn plan) and the per-step rule tables the checks share. The checks themselves are elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from judge.corpus.model import Edition, Rule, sort_key
from judge.errors import SituationError
from judge.game.model import Creature, Question, Situation
from judge.game.turn import (
    MAIN_PHASES,
    PHASE_LABELS,
    Moment,
    PlannedStep,
    first_index,
    gives_priority,
    locate,
    plan_turn,
)


class RuleSource(Protocol):
    """What the checks need of the rule graph."""

    def get(self, edition: str, number: str) -> Rule | None: ...

    def edition(self, edition_id: str) -> Edition: ...

    def rules(self, edition: str | None = None) -> tuple[Rule, ...]: ...

    @property
    def edition_ids(self) -> tuple[str, ...]: ...

    @property
    def newest_edition(self) -> str: ...


JSON = object


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """What a check returns: the value, the deciding rules and the French reason."""

    value: JSON
    rules: tuple[str, ...]
    why: str
    extra: tuple[tuple[str, JSON], ...] = ()


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


CheckFunction = Callable[["Context", Question], Verdict]


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckSpec:
    """A registered check (or, with `function` None, a rule-implementing mechanism)."""

    name: str
    ask: str | None
    rules: Mapping[str, tuple[str, ...]]
    function: CheckFunction | None = None


REGISTRY: dict[str, CheckSpec] = {}


def check(
    ask: str, *, rules: Mapping[str, list[str] | tuple[str, ...]]
) -> Callable[[CheckFunction], CheckFunction]:
    """Register the check answering `ask`, with the rules it implements per edition."""

    def register(function: CheckFunction) -> CheckFunction:
        REGISTRY[ask] = CheckSpec(
            name=ask, ask=ask, rules={e: tuple(n) for e, n in rules.items()}, function=function
        )
        return function

    return register


def register_mechanism(name: str, *, rules: Mapping[str, tuple[str, ...]]) -> None:
    """Register rules implemented by a mechanism that answers no question (the replay)."""
    REGISTRY[name] = CheckSpec(name=name, ask=None, rules=dict(rules))


def checks_for(edition: str, number: str) -> tuple[str, ...]:
    """Names of the checks implementing a rule of an edition."""
    return tuple(spec.name for spec in REGISTRY.values() if number in spec.rules.get(edition, ()))


# -- the context ---------------------------------------------------------------------

_KNOWN: dict[int, tuple[RuleSource, dict[str, frozenset[str]]]] = {}


def known_numbers(graph: RuleSource, edition: str) -> frozenset[str]:
    """Rule numbers of an edition in the graph (cached per graph object)."""
    entry = _KNOWN.get(id(graph))
    if entry is None or entry[0] is not graph:
        entry = (graph, {})
        _KNOWN[id(graph)] = entry
    table = entry[1]
    if edition not in table:
        table[edition] = frozenset(rule.number for rule in graph.rules(edition))
    return table[edition]


@dataclass(frozen=True, slots=True, kw_only=True)
class Context:
    """A situation placed in its turn plan, under one edition."""

    graph: RuleSource
    edition: str
    situation: Situation
    plan: tuple[PlannedStep, ...]
    index: int
    priority: str | None  # who holds priority now (None: nobody)
    ended: bool = False

    @property
    def moment(self) -> Moment:
        return self.plan[self.index].moment

    @property
    def active(self) -> str:
        return self.situation.active

    @property
    def in_main(self) -> bool:
        return self.moment.phase in MAIN_PHASES

    def cite(self, *numbers: str) -> tuple[str, ...]:
        """The given numbers that exist in the graph, without duplicates."""
        out: list[str] = []
        for number in numbers:
            if ":" in number:
                edition, plain = number.split(":", 1)
                present = plain in known_numbers(self.graph, edition)
            else:
                present = number in known_numbers(self.graph, self.edition)
            if present and number not in out:
                out.append(number)
        return tuple(out)

    def verdict(self, value: JSON, by_edition: Mapping[str, tuple[str, ...]], why: str,
                topic: str, extra: tuple[tuple[str, JSON], ...] = ()) -> Verdict:
        """A verdict citing the edition's rules; says so when its text is not in the corpus."""
        rules = tuple(sorted(self.cite(*by_edition.get(self.edition, ())), key=_rule_order))
        if not rules:
            why += (f" Le texte de l'édition {self.edition} sur {topic} n'est pas dans le "
                    "corpus : aucune règle n'est citée.")
        return Verdict(value=value, rules=rules, why=why, extra=extra)

    def creature(self, name: str | None) -> Creature:
        creature = self.situation.creature(name or "")
        if creature is None:
            raise SituationError("creatures", f"aucune créature ne s'appelle « {name} »")
        return creature

    def at_or_after(self, step: str) -> bool:
        at = first_index(self.plan, step)
        return at is not None and self.index >= at

    def after(self, step: str) -> bool:
        at = first_index(self.plan, step)
        if at is None:
            return False
        last = max(i for i, e in enumerate(self.plan) if e.moment.step == step)
        return self.index > last

    def skip_rule(self, step: str) -> str | None:
        for entry in self.plan:
            if entry.moment.step == step and entry.skipped:
                return entry.skip_rule
        return None


def _rule_order(number: str) -> tuple[str, tuple[int, int, str]]:
    edition, _, plain = number.rpartition(":")
    return edition, sort_key(plain)


def where_label(moment: Moment) -> str:
    if moment.step is None:
        return f"la {moment.label}"
    return f"l'étape « {moment.label} » de la {PHASE_LABELS[moment.phase]}"


def build_context(graph: RuleSource, edition: str, situation: Situation, *,
                  ended: bool = False, no_attackers: bool | None = None) -> Context:
    """Place a situation in its turn plan.

    `no_attackers` says whether the combat had no attacker (308.4); None infers it: in the
    declare attackers step with no attacking creature.
    """
    s = situation
    step = s.step
    attackers = [c for c in s.creatures if c.is_creature and c.attacking]
    in_combat = [c for c in s.creatures if c.in_combat]
    if no_attackers is None:
        no_attackers = step == "declare_attackers" and not attackers
    any_dealt = any(c.dealt_first_strike_damage for c in s.creatures)
    two = (any(c.strikes_first for c in in_combat) or any_dealt
           or s.damage_step == "first_strike")
    damage_step = s.damage_step if two else None
    if step == "combat_damage" and two and damage_step is None:
        damage_step = "regular" if any_dealt else "first_strike"
    repeats = 1 if step == "cleanup" and (s.stack or s.priority is not None) else 0
    plan = plan_turn(skip=frozenset(s.skip), no_attackers=no_attackers, two_damage_steps=two,
                     cleanup_repeats=repeats)
    index = locate(plan, Moment(phase=s.phase, step=step, damage_step=damage_step))
    if ended:
        holder = None
    elif s.priority is not None:
        holder = s.priority
    elif gives_priority(step) or (step == "cleanup" and s.stack):
        holder = s.active
    else:
        holder = None
    return Context(graph=graph, edition=edition, situation=s, plan=plan, index=index,
                   priority=holder, ended=ended)


def answer(ctx: Context, question: Question) -> Answer:
    spec = REGISTRY[question.ask]
    assert spec.function is not None
    verdict = spec.function(ctx, question)
    return Answer(ask=question.ask, params=question.params(), value=verdict.value,
                  rules=verdict.rules, why=verdict.why, check=spec.name, extra=verdict.extra)


# -- rules per step -------------------------------------------------------------------

# The 2004 rule saying who receives priority in each step (2010: only the main phases).
STEP_PRIORITY_RULE: dict[str | None, str] = {
    "untap": "302.3", "upkeep": "303.1", "draw": "304.1", None: "305.3",
    "beginning_of_combat": "307.1", "declare_attackers": "308.1", "declare_blockers": "309.1",
    "combat_damage": "310.1", "end_of_combat": "311.1", "end_of_turn": "313.1",
    "cleanup": "314.3",
}
PHASE_RULE_2004 = {"beginning": "301.1", "precombat_main": "305.1", "combat": "306.1",
                   "postcombat_main": "305.1", "ending": "312.1"}


def priority_rules(ctx: Context) -> dict[str, tuple[str, ...]]:
    return {"2004": (STEP_PRIORITY_RULE[ctx.moment.step],),
            "2010": ("505.5",) if ctx.in_main else ()}


def who_label(name: str | None) -> str:
    return "personne" if name is None else name
