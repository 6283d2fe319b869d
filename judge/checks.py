"""The checks: one small registered function per question, citing the rules that decide it.

Owns the `Context` a situation is judged in, the registry (`@check(ask, rules=…)`, the rule
numbers each check implements per edition), the answers and the table of rules that have
no check and why. A cross-edition citation is written `EDITION:NUMBER` (`2004:300.3`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from .errors import SituationError
from .model import Rule, sort_key
from .situation import SORCERY_SPEED, Creature, Question, Situation
from .turn import (
    MAIN_PHASES,
    PHASE_LABELS,
    STEP_LABELS,
    Moment,
    PlannedStep,
    first_index,
    gives_priority,
    locate,
    next_step,
    plan_turn,
    rest_of_turn,
    turn_order,
)


class RuleSource(Protocol):
    """What the checks need of the rule graph."""

    def get(self, edition: str, number: str) -> Rule | None: ...

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
    def stack_empty(self) -> bool:
        return not self.situation.stack

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


def _yes(value: bool) -> str:
    return "oui" if value else "non"


def _who(name: str | None) -> str:
    return "personne" if name is None else name


# -- where, priority, next, rest of turn ------------------------------------------------


@check("where", rules={"2004": ["300.1", "301.1", "305.1", "306.1", "312.1", "314.3"],
                       "2010": ["505.1", "505.1a"]})
def check_where(ctx: Context, question: Question) -> Verdict:
    moment = ctx.moment
    main = {"precombat_main": "precombat", "postcombat_main": "postcombat"}.get(moment.phase)
    value: dict[str, JSON] = {"phase": moment.phase, "step": moment.step, "main": main,
                              "priority": ctx.priority}
    if moment.damage_step is not None:
        value["damage_step"] = moment.damage_step
    if ctx.ended:
        value["turn_ended"] = True
        why = ("Le tour est terminé : la dernière étape de nettoyage s'est achevée sans que "
               "personne ne reçoive la priorité.")
        return ctx.verdict(value, {"2004": ("314.3",)}, why, "l'étape de nettoyage", )
    why = f"Nous sommes dans {where_label(moment)} ; {_who(ctx.priority)} a la priorité."
    if main == "precombat":
        why += " C'est la phase principale d'avant combat."
    elif main == "postcombat":
        why += " C'est une phase principale d'après combat."
    rules = {"2004": ("300.1", PHASE_RULE_2004[moment.phase]),
             "2010": ("505.1", "505.1a") if main else ()}
    return ctx.verdict(value, rules, why, "les phases et étapes hors phase principale")


@check("priority", rules={"2004": ["302.3", "303.1", "304.1", "305.3", "307.1", "308.1",
                                   "309.1", "310.1", "311.1", "313.1", "314.3"],
                          "2010": ["505.5"]})
def check_priority(ctx: Context, question: Question) -> Verdict:
    step = ctx.moment.step
    rules = priority_rules(ctx)
    if ctx.ended:
        return ctx.verdict(None, {"2004": ("314.3",)}, "Le tour est terminé : personne ne reçoit "
                           "plus la priorité.", "l'étape de nettoyage")
    if step == "untap":
        return ctx.verdict(None, rules, "Aucun joueur ne reçoit la priorité pendant l'étape de "
                           "dégagement : aucun sort ni capacité ne peut y être joué.",
                           "l'étape de dégagement")
    if step == "cleanup" and not ctx.situation.stack and ctx.situation.priority is None:
        return ctx.verdict(None, rules, "Pendant le nettoyage, personne ne reçoit la priorité "
                           "sauf si une capacité s'est déclenchée ou qu'un effet basé sur un état "
                           "s'applique ; ici rien de tel (pile vide).", "l'étape de nettoyage")
    why = f"Dans {where_label(ctx.moment)}, le joueur actif ({ctx.active}) reçoit la priorité."
    if step == "cleanup":
        why = (f"Une capacité s'est déclenchée pendant le nettoyage : le joueur actif "
               f"({ctx.active}) reçoit la priorité, puis une nouvelle étape de nettoyage suivra.")
    if ctx.priority not in (None, ctx.active):
        why += f" En ce moment, c'est {ctx.priority} qui a la priorité."
    return ctx.verdict(ctx.active, rules, why, "la priorité dans cette étape")


def _transition_rules(ctx: Context, start: int, end: int | None) -> tuple[str, ...]:
    """2004 rules deciding what follows plan[start], `end` being the next index or None."""
    here = ctx.plan[start].moment
    rules: list[str] = []
    stop = len(ctx.plan) if end is None else end
    for entry in ctx.plan[start + 1:stop]:
        if entry.skip_rule:
            rules.append(entry.skip_rule)
    if end is None:
        rules.append("314.3")
        if ctx.situation.extra_turns:
            rules.append("300.6")
        return tuple(rules)
    there = ctx.plan[end].moment
    if there.step == "cleanup" and here.step == "cleanup":
        return (*rules, "314.3")
    if there.damage_step == "regular" or here.damage_step == "first_strike":
        rules.append("310.5")
    if there.phase == here.phase:
        rules.append(PHASE_RULE_2004[here.phase])
    else:
        rules.append("300.1")
        if here.step == "end_of_combat":
            rules.append("311.2")
        if there.phase == "combat" or here.phase == "combat":
            rules.append("305.1")
    return tuple(rules)


def _transition_rules_2010(ctx: Context, start: int, end: int | None) -> tuple[str, ...]:
    if end is None:
        return ()
    phases = {ctx.plan[start].moment.phase, ctx.plan[end].moment.phase}
    if "combat" in phases and phases & MAIN_PHASES:
        return ("505.1",)
    return ()


def _next_turn(ctx: Context) -> dict[str, JSON]:
    s = ctx.situation
    player = turn_order(s.players, s.active, s.extra_turns, 1)[0]
    return {"phase": "beginning", "step": "untap", "new_turn": True, "player": player}


@check("next", rules={"2004": ["300.1", "300.6", "300.9", "301.1", "305.1", "306.1", "308.4",
                               "310.5", "311.2", "312.1", "314.3"],
                      "2010": ["505.1"]})
def check_next(ctx: Context, question: Question) -> Verdict:
    later = None if ctx.ended else next_step(ctx.plan, ctx.index)
    rules = {"2004": _transition_rules(ctx, ctx.index, later),
             "2010": _transition_rules_2010(ctx, ctx.index, later)}
    skipped = [e for e in ctx.plan[ctx.index + 1:later] if e.skipped]
    skipped_text = ""
    if skipped:
        skipped_text = " (sautées : " + ", ".join(e.moment.label for e in skipped) + ")"
    if later is None:
        value = _next_turn(ctx)
        why = (f"Le tour se termine{skipped_text} ; le tour suivant est celui de "
               f"{value['player']}, qui commence par l'étape de dégagement.")
        if ctx.situation.extra_turns:
            why += " Les tours supplémentaires passent avant, le plus récent d'abord."
        return ctx.verdict(value, rules, why, "l'enchaînement des étapes")
    moment = ctx.plan[later].moment
    why = f"Après {where_label(ctx.moment)} vient {where_label(moment)}{skipped_text}."
    if moment.repeat:
        why += (" Une capacité s'est déclenchée pendant le nettoyage : une autre étape de "
                "nettoyage commence.")
    if moment.damage_step == "regular":
        why += (" Une créature avec l'initiative ou la double initiative combat : il y a une "
                "seconde étape des blessures de combat.")
    if any(e.skip_rule == "308.4" for e in skipped):
        why += " Aucune créature n'attaque : les bloqueurs et les blessures sont sautés."
    return ctx.verdict(moment.as_dict(), rules, why, "l'enchaînement des étapes")


@check("rest_of_turn", rules={"2004": ["300.1", "300.9", "301.1", "305.1", "306.1", "308.4",
                                       "310.5", "311.2", "312.1", "314.3"],
                              "2010": ["505.1"]})
def check_rest_of_turn(ctx: Context, question: Question) -> Verdict:
    rest = () if ctx.ended else rest_of_turn(ctx.plan, ctx.index)
    indexes = [i for i in range(ctx.index + 1, len(ctx.plan)) if not ctx.plan[i].skipped]
    rules_2004: list[str] = []
    rules_2010: list[str] = []
    chain = [ctx.index, *indexes]
    for start, end in zip(chain, [*indexes, None], strict=True):
        if ctx.ended:
            break
        rules_2004.extend(r for r in _transition_rules(ctx, start, end) if r != "300.6")
        rules_2010.extend(_transition_rules_2010(ctx, start, end))
    value = [entry.moment.as_dict() for entry in rest]
    skipped = [e for e in ctx.plan[ctx.index + 1:] if e.skipped]
    if not rest:
        why = "C'est la dernière étape du tour."
    else:
        why = "Restent : " + ", ".join(e.moment.label for e in rest) + "."
    if skipped and not ctx.ended:
        why += " Sautées : " + ", ".join(e.moment.label for e in skipped) + "."
    if not ctx.at_or_after("declare_attackers") and not ctx.ended:
        why += (" Si aucune créature n'est déclarée attaquante, les étapes de déclaration des "
                "bloqueurs et des blessures de combat seront sautées.")
    return ctx.verdict(value, {"2004": tuple(rules_2004), "2010": tuple(rules_2010)}, why,
                       "l'enchaînement des étapes")


# -- lands and spells ---------------------------------------------------------------------


@check("play_land", rules={"2004": ["305.4"], "2010": ["505.5", "505.5b"]})
def check_play_land(ctx: Context, question: Question) -> Verdict:
    player = question.player or ctx.active
    s = ctx.situation
    reasons: list[str] = []
    if ctx.ended:
        reasons.append("le tour est terminé")
    if player != ctx.active:
        reasons.append(f"seul le joueur actif ({ctx.active}) peut jouer un terrain")
    if not ctx.in_main:
        reasons.append(f"nous ne sommes pas dans une phase principale mais dans "
                       f"{where_label(ctx.moment)}")
    if s.stack:
        reasons.append("la pile n'est pas vide")
    if ctx.priority != player and not ctx.ended:
        reasons.append(f"{player} n'a pas la priorité ({_who(ctx.priority)} l'a)")
    if s.lands_played >= s.land_plays:
        reasons.append(f"{ctx.active} a déjà joué {s.lands_played} terrain(s) ce tour-ci sur "
                       f"{s.land_plays} permis")
    if s.hand(player) == 0:
        reasons.append(f"{player} n'a aucune carte en main")
    rules = {"2004": ("305.4",), "2010": ("505.5b",)}
    if reasons:
        why = "Non : " + " ; ".join(reasons) + "."
        return ctx.verdict(False, rules, why[0].upper() + why[1:], "les terrains")
    why = (f"Oui : c'est une phase principale, la pile est vide, {player} est le joueur actif, "
           f"a la priorité et n'a pas encore joué de terrain ce tour-ci.")
    return ctx.verdict(True, rules, why, "les terrains")


KIND_LABELS = {"instant": "un éphémère", "sorcery": "un rituel", "creature": "un sort de créature",
               "artifact": "un artefact", "enchantment": "un enchantement",
               "planeswalker": "un planeswalker"}


@check("cast", rules={"2004": ["302.3", "303.1", "304.1", "305.3", "307.1", "308.1", "309.1",
                               "310.1", "311.1", "313.1", "314.3"],
                      "2010": ["505.5", "505.5a"]})
def check_cast(ctx: Context, question: Question) -> Verdict:
    player = question.player or ctx.active
    kind = question.kind or "instant"
    label = KIND_LABELS[kind]
    topic = "le lancement des sorts"
    if kind == "planeswalker" and ctx.edition == "2004":
        return ctx.verdict(False, {"2004": ("305.3",)}, "Non : le type planeswalker n'existe pas "
                           "dans l'édition 2004 (305.3 ne cite que les artefacts, créatures, "
                           "enchantements et rituels).", topic)
    if ctx.ended:
        return ctx.verdict(False, {"2004": ("314.3",)}, "Non : le tour est terminé.", topic)
    if ctx.priority != player:
        if ctx.moment.step == "untap":
            why = "Non : personne ne reçoit la priorité pendant l'étape de dégagement."
        else:
            why = (f"Non : {player} n'a pas la priorité ({_who(ctx.priority)} l'a) ; on ne joue "
                   "un sort que lorsqu'on a la priorité.")
        return ctx.verdict(False, priority_rules(ctx), why, topic)
    if kind in SORCERY_SPEED:
        rules = {"2004": ("305.3",), "2010": ("505.5a",)}
        reasons = []
        if not ctx.in_main:
            reasons.append(f"on ne peut jouer {label} que pendant une phase principale, et nous "
                           f"sommes dans {where_label(ctx.moment)}")
        if player != ctx.active:
            reasons.append(f"seul le joueur actif ({ctx.active}) peut jouer {label}")
        if ctx.situation.stack:
            reasons.append("la pile n'est pas vide (la règle qui exige une pile vide n'est pas "
                           "dans le corpus ; elle découle de la phase principale « sans rien sur "
                           "la pile »)")
        if reasons:
            return ctx.verdict(False, rules, "Non : " + " ; ".join(reasons) + ".", topic)
        why = (f"Oui : {player} est le joueur actif, a la priorité, la pile est vide et c'est "
               f"une phase principale : il peut jouer {label}.")
        return ctx.verdict(True, rules, why, topic)
    why = (f"Oui : {player} a la priorité dans {where_label(ctx.moment)} ; un éphémère peut "
           "être joué chaque fois qu'on a la priorité.")
    return ctx.verdict(True, priority_rules(ctx), why, topic)


# -- combat -------------------------------------------------------------------------------


def attack_reasons(ctx: Context, creature: Creature) -> tuple[list[str], list[str]]:
    """Why a creature may not attack, and the 2004 rules for each reason."""
    reasons: list[str] = []
    rules: list[str] = []
    if creature.controller != ctx.active:
        reasons.append(f"elle est contrôlée par {creature.controller}, or seul le joueur actif "
                       f"({ctx.active}) attaque")
        rules += ["306.3", "308.2a"]
    if not creature.is_creature:
        reasons.append("ce n'est plus une créature ; seules les créatures peuvent attaquer")
        rules.append("308.2a")
    if creature.tapped:
        text = "elle est engagée"
        if creature.has("vigilance"):
            text += (" (la vigilance lui permet d'attaquer sans s'engager, pas d'attaquer "
                     "en étant déjà engagée)")
        reasons.append(text)
        rules.append("308.2a")
    if ctx.edition == "2004" and any(t.casefold() in ("mur", "wall") for t in creature.types):
        reasons.append("elle a le type de créature « Mur »")
        rules.append("308.2a")
    if creature.has("defender"):
        reasons.append("elle a le défenseur, un effet qui l'empêche d'attaquer")
        rules.append("308.2a")
    if not creature.since_turn_start and not creature.has("haste"):
        reasons.append(f"{ctx.active} ne la contrôle pas continuellement depuis le début du tour "
                       "et elle n'a pas la célérité")
        rules.append("308.2a")
    return reasons, rules


@check("attack", rules={"2004": ["300.9", "306.3", "308.1", "308.2a", "314.3"], "2010": []})
def check_attack(ctx: Context, question: Question) -> Verdict:
    creature = ctx.creature(question.creature)
    topic = "la déclaration des attaquants"
    name = creature.name
    skip = ctx.skip_rule("declare_attackers")
    if skip or ctx.ended:
        return ctx.verdict(False, {"2004": (skip or "314.3",)}, f"Non : l'étape de déclaration "
                           f"des attaquants {'est sautée' if skip else 'est passée'} ce tour-ci.",
                           topic)
    if ctx.after("declare_attackers"):
        return ctx.verdict(False, {"2004": ("308.1",)}, f"Non : les attaquants se déclarent au "
                           f"début de l'étape de déclaration des attaquants, et nous sommes "
                           f"dans {where_label(ctx.moment)}.", topic)
    reasons, rules = attack_reasons(ctx, creature)
    if reasons:
        why = f"Non : {name} ne peut pas attaquer : " + " ; ".join(reasons) + "."
        return ctx.verdict(False, {"2004": tuple(rules)}, why, topic)
    why = (f"Oui : {name} est une créature dégagée que {ctx.active} contrôle depuis le début du "
           "tour" + (" (ou elle a la célérité)" if creature.has("haste") else "") + ".")
    if ctx.moment.step != "declare_attackers":
        why += " Elle pourra être déclarée au début de l'étape de déclaration des attaquants."
    if ctx.edition == "2010" and any(t.casefold() == "mur" for t in creature.types):
        why += " Le type « Mur » n'interdit plus d'attaquer depuis la création du défenseur."
    return ctx.verdict(True, {"2004": ("308.2a",)}, why, topic)


def block_reasons(ctx: Context, blocker: Creature, attacker: Creature
                  ) -> tuple[list[str], list[str]]:
    reasons: list[str] = []
    rules: list[str] = []
    if blocker.controller == ctx.active:
        reasons.append(f"{blocker.name} est contrôlée par le joueur actif ({ctx.active}), qui "
                       "attaque ; seul le défenseur bloque")
        rules += ["306.3"]
    if not blocker.is_creature:
        reasons.append(f"{blocker.name} n'est plus une créature")
        rules.append("309.2a")
    if blocker.tapped:
        reasons.append(f"{blocker.name} est engagée ; seules les créatures dégagées peuvent "
                       "bloquer")
        rules.append("309.2a")
    if not (attacker.attacking and attacker.is_creature):
        reasons.append(f"{attacker.name} n'est pas une créature attaquante")
        rules.append("309.2a")
    return reasons, rules


@check("block", rules={"2004": ["300.9", "306.3", "308.4", "309.1", "309.2a", "314.3"],
                       "2010": []})
def check_block(ctx: Context, question: Question) -> Verdict:
    blocker = ctx.creature(question.creature)
    attacker = ctx.creature(question.attacker)
    topic = "la déclaration des bloqueurs"
    skip = ctx.skip_rule("declare_blockers")
    if skip or ctx.ended:
        why = {"300.9": "Non : l'étape de déclaration des bloqueurs est sautée ce tour-ci.",
               "308.4": "Non : aucune créature n'attaque, l'étape de déclaration des bloqueurs "
                        "est sautée."}.get(skip or "", "Non : le tour est terminé.")
        return ctx.verdict(False, {"2004": (skip or "314.3",)}, why, topic)
    if ctx.after("declare_blockers"):
        return ctx.verdict(False, {"2004": ("309.1",)}, "Non : les bloqueurs se déclarent au "
                           "début de l'étape de déclaration des bloqueurs, et nous sommes dans "
                           f"{where_label(ctx.moment)}.", topic)
    reasons, rules = block_reasons(ctx, blocker, attacker)
    if reasons:
        why = f"Non : {blocker.name} ne peut pas bloquer {attacker.name} : " + " ; ".join(
            reasons) + "."
        return ctx.verdict(False, {"2004": tuple(rules)}, why, topic)
    why = (f"Oui : {blocker.name} est une créature dégagée du défenseur et {attacker.name} "
           "attaque.")
    return ctx.verdict(True, {"2004": ("309.2a",)}, why, topic)


def _two_damage_steps(ctx: Context) -> bool:
    return any(e.moment.damage_step is not None for e in ctx.plan)


@check("damage_steps", rules={"2004": ["300.9", "306.1", "308.4", "310.5"], "2010": []})
def check_damage_steps(ctx: Context, question: Question) -> Verdict:
    topic = "les étapes des blessures de combat"
    skip = ctx.skip_rule("combat_damage")
    if skip == "300.9":
        return ctx.verdict(0, {"2004": ("300.9",)}, "Aucune : l'étape des blessures de combat "
                           "est sautée ce tour-ci.", topic)
    if skip == "308.4":
        return ctx.verdict(0, {"2004": ("308.4",)}, "Aucune : aucune créature n'a été déclarée "
                           "attaquante, les étapes des blessures de combat sont sautées.", topic)
    if _two_damage_steps(ctx):
        return ctx.verdict(2, {"2004": ("306.1", "310.5")}, "Deux : au moins une créature "
                           "attaquante ou bloqueuse a l'initiative ou la double initiative, il y "
                           "a donc une seconde étape des blessures de combat.", topic)
    why = "Une : aucune créature attaquante ou bloqueuse n'a l'initiative ni la double initiative."
    if not ctx.at_or_after("declare_attackers"):
        why = ("Une, tant qu'aucun attaquant n'est déclaré : la phase de combat prévoit une étape "
               "des blessures ; elle sera sautée si personne n'attaque, et doublée si une "
               "créature avec l'initiative combat.")
    elif ctx.after("end_of_combat"):
        why = ("Une d'après la situation décrite (la phase de combat est finie et plus aucune "
               "créature n'y est).")
    return ctx.verdict(1, {"2004": ("306.1",)}, why, topic)


def _damage_step_for(ctx: Context) -> tuple[Moment | None, str]:
    """The damage step a `deals_damage` question is about (the current or the next one)."""
    moment = ctx.moment
    if moment.step == "combat_damage":
        return moment, "dans l'étape en cours"
    if moment.phase == "combat" and not ctx.after("combat_damage"):
        later = next((e.moment for e in ctx.plan[ctx.index + 1:]
                      if e.moment.step == "combat_damage" and not e.skipped), None)
        return later, "lors de la prochaine étape des blessures de combat"
    return None, ""


@check("deals_damage", rules={"2004": ["300.9", "306.1", "306.2", "306.2b", "308.4", "310.1",
                                       "310.2a", "310.2b", "310.2c", "310.2d", "310.5"],
                              "2010": []})
def check_deals_damage(ctx: Context, question: Question) -> Verdict:
    creature = ctx.creature(question.creature)
    name = creature.name
    topic = "les blessures de combat"
    step, when = _damage_step_for(ctx)
    if step is None:
        skip = ctx.skip_rule("combat_damage")
        why = {"308.4": "Non : aucune créature n'attaque, l'étape des blessures de combat est "
                        "sautée.",
               "300.9": "Non : l'étape des blessures de combat est sautée ce tour-ci."}.get(
            skip or "", f"Non : il n'y a plus d'étape des blessures de combat ce tour-ci (nous "
                        f"sommes dans {where_label(ctx.moment)}).")
        return ctx.verdict(False, {"2004": (skip or "306.1",)}, why, topic)
    if not creature.is_creature:
        return ctx.verdict(False, {"2004": ("306.2",)}, f"Non : {name} a cessé d'être une "
                           "créature, elle est donc retirée du combat et n'inflige pas de "
                           "blessures de combat.", topic)
    if not creature.attacking and creature.blocking is None:
        return ctx.verdict(False, {"2004": ("310.2a",)}, f"Non : {name} n'est ni attaquante ni "
                           "bloqueuse ; seules celles-ci assignent des blessures de combat.", topic)
    if step.damage_step == "first_strike" and not creature.strikes_first:
        return ctx.verdict(False, {"2004": ("310.5",)}, f"Non : c'est l'étape des blessures de "
                           f"l'initiative et {name} n'a ni l'initiative ni la double initiative ; "
                           "elle infligera ses blessures lors de la seconde étape.", topic)
    if step.damage_step == "regular" and not creature.has("double_strike"):
        dealt = creature.dealt_first_strike_damage
        if dealt is None:
            dealt = creature.has("first_strike")
        if dealt:
            return ctx.verdict(False, {"2004": ("310.5",)}, f"Non : {name} a déjà assigné ses "
                               "blessures lors de la première étape (initiative) et n'a pas la "
                               "double initiative.", topic)
    rules = ["310.1"]
    if creature.attacking:
        blockers = [c for c in ctx.situation.creatures
                    if c.blocking == name and c.is_creature]
        if creature.blocked and not blockers:
            why = (f"Non : {name} est bloquée mais plus aucune créature ne la bloque : elle "
                   "n'inflige aucune blessure de combat.")
            if creature.has("trample"):
                why += " (Le piétinement relève de règles absentes du corpus.)"
            return ctx.verdict(False, {"2004": ("310.2c",)}, why, topic)
        rules.append("310.2c" if creature.blocked else "310.2b")
    else:
        target = ctx.situation.creature(creature.blocking or "")
        if target is None or not target.attacking or not target.is_creature:
            return ctx.verdict(False, {"2004": ("310.2d",)}, f"Non : {name} ne bloque plus "
                               "aucune créature attaquante : elle n'assigne aucune blessure.",
                               topic)
        rules.append("310.2d")
    if creature.power is not None and creature.power <= 0:
        return ctx.verdict(False, {"2004": ("310.2a",)}, f"Non : la force de {name} est "
                           f"{creature.power} ; elle assigne autant de blessures que sa force.",
                           topic)
    why = f"Oui : {name} assigne ses blessures de combat {when}."
    if step.damage_step is not None:
        rules.append("310.5")
        why += (" Elle a la double initiative." if creature.has("double_strike") else
                " C'est l'étape qui lui revient parmi les deux étapes des blessures.")
    if creature.tapped:
        rules.append("306.2b")
        why += " Être engagée ne l'empêche pas d'infliger des blessures de combat."
    return ctx.verdict(True, {"2004": tuple(rules)}, why, topic)


# -- cleanup, mana burn, turn order -----------------------------------------------------


@check("discard", rules={"2004": ["314.1"], "2010": []})
def check_discard(ctx: Context, question: Question) -> Verdict:
    player = question.player or ctx.active
    topic = "l'étape de nettoyage"
    s = ctx.situation
    if player != ctx.active:
        return ctx.verdict(0, {"2004": ("314.1",)}, f"Aucune : au nettoyage, seul le joueur actif "
                           f"({ctx.active}) se défausse jusqu'à sa taille de main maximale.", topic)
    if s.max_hand_size is None:
        return ctx.verdict(0, {"2004": ("314.1",)}, f"Aucune : {player} n'a pas de taille de main "
                           "maximale.", topic)
    hand = s.hand(player)
    if hand is None:
        raise SituationError(f"hands.{player}", "nombre de cartes en main inconnu : il est "
                             "nécessaire pour la question discard")
    count = max(0, hand - s.max_hand_size)
    why = (f"{player} a {hand} carte(s) en main pour une taille maximale de {s.max_hand_size} : "
           f"il se défausse de {count} carte(s) au nettoyage.")
    if ctx.moment.step != "cleanup":
        why += " (Si sa main ne change pas d'ici là.)"
    return ctx.verdict(count, {"2004": ("314.1",)}, why, topic)


@check("mana_burn", rules={"2004": ["300.3"], "2010": ["2004:300.3"]})
def check_mana_burn(ctx: Context, question: Question) -> Verdict:
    player = question.player or ctx.active
    phase = PHASE_LABELS[ctx.moment.phase]
    extra: tuple[tuple[str, JSON], ...] = (("at", {"phase": ctx.moment.phase}),)
    if ctx.edition != "2004":
        why = (f"Aucune : la brûlure de mana (règle 300.3 de l'édition 2004) a été supprimée par "
               f"un changement de règles ; en {ctx.edition}, le mana inutilisé est perdu sans "
               "perte de points de vie.")
        return ctx.verdict(0, {ctx.edition: ("2004:300.3",)}, why, "la brûlure de mana", extra)
    pool = ctx.situation.mana(player)
    why = (f"À la fin de la {phase} (la fin d'une phase, pas d'une étape), les {pool} mana "
           f"inutilisés de la réserve de {player} sont perdus : il perd {pool} point(s) de vie.")
    if ctx.moment.step is not None:
        why += (f" La fin de l'étape « {STEP_LABELS[ctx.moment.step]} » ne cause pas de brûlure "
                "de mana : le mana reste dans la réserve jusqu'à la fin de la phase.")
    if pool == 0:
        why = f"Aucune : la réserve de {player} est vide ; rien n'est perdu à la fin de la {phase}."
    return ctx.verdict(pool, {"2004": ("300.3",)}, why, "la brûlure de mana", extra)


@check("turn_order", rules={"2004": ["300.6"], "2010": []})
def check_turn_order(ctx: Context, question: Question) -> Verdict:
    s = ctx.situation
    count = question.count or len(s.players)
    order = turn_order(s.players, s.active, s.extra_turns, count)
    why = "Prochains tours : " + ", ".join(order) + "."
    if s.extra_turns:
        why += (" Les tours supplémentaires sont ajoutés juste après le tour actuel, le plus "
                "récemment créé en premier (ordre de création : " + ", ".join(s.extra_turns)
                + ").")
        return ctx.verdict(list(order), {"2004": ("300.6",)}, why, "les tours supplémentaires")
    why += " L'ordre normal des tours n'est pas décrit par les règles du corpus."
    return Verdict(value=list(order), rules=(), why=why)


# -- the replay's rules and the rules without check -------------------------------------------

register_mechanism("replay", rules={
    "2004": ("300.2", "302.3", "305.2", "308.2c", "308.4", "309.2e", "309.2f", "310.1",
             "310.4", "311.2", "314.3"),
    "2010": ("505.2", "505.5"),
})

# Why a rule of 300–314 (2004) or 505 (2010) has no check. Section headings need none.
NO_CHECK: dict[str, dict[str, str]] = {
    "2004": {
        "300.4": "hors du modèle : durée des effets « jusqu'à la fin de »",
        "300.5": "hors du modèle : capacités déclenchées au début d'une phase",
        "300.7": "pas de clé de situation pour les phases supplémentaires (modèle : turn.py)",
        "300.8": "pas de clé de situation pour les étapes supplémentaires (modèle : turn.py)",
        "302.1": "hors du modèle : déphasage",
        "302.2": "hors du modèle : dégagement des permanents",
        "306.2a": "hors du modèle : effets qui empêchent d'attaquer ou de bloquer",
        "306.4": "définition : attaquer ou bloquer seul",
        "308.2": "définition : procédure détaillée dans les sous-règles",
        "308.2b": "hors du modèle : regroupement",
        "308.2d": "hors du modèle : coûts d'attaque",
        "308.2e": "hors du modèle : coûts d'attaque",
        "308.2f": "hors du modèle : coûts d'attaque",
        "308.2g": "hors du modèle : coûts d'attaque",
        "308.3": "hors du modèle : capacités déclenchées",
        "309.2": "définition : procédure détaillée dans les sous-règles",
        "309.2b": "hors du modèle : coûts de blocage",
        "309.2c": "hors du modèle : coûts de blocage",
        "309.2d": "hors du modèle : coûts de blocage",
        "309.3": "hors du modèle : capacités déclenchées",
        "310.2": "définition : restrictions détaillées dans les sous-règles",
        "310.2e": "hors du modèle : effets qui changent l'assignation",
        "310.3": "définition : nature de l'assignation des blessures",
        "310.4a": "hors du modèle : résolution des blessures",
        "310.4b": "hors du modèle : source des blessures",
        "310.4c": "hors du modèle : destinataires des blessures",
        "313.2": "hors du modèle : capacités déclenchées « à la fin du tour »",
        "314.2": "hors du modèle : retrait des blessures et fin des effets",
    },
    "2010": {
        "505.3": "hors du modèle : Archenemy",
        "505.4": "hors du modèle : capacités déclenchées",
    },
}
