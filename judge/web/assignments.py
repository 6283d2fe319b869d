"""The legal divisions of a creature's combat damage, listed for an answer about damage.

Owns choosing the creatures an answer is about, the candidate divisions of their power among
those they may hit, and asking the checker (`assign_damage`, the same check `judge check`
runs) about each: only those it calls legal are listed. Nothing here decides a rule.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from judge.corpus.graph import RuleGraph
from judge.errors import JudgeError
from judge.game.turnplan import Phase, Step

MAX_POWER = 12  # a larger power is not listed (too many divisions to show)
MAX_CANDIDATES = 300  # divisions asked about, in batches of at most BATCH questions
BATCH = 100  # judge.game.situation's MAX_QUESTIONS
DAMAGE_ASKS = ("assign_damage", "damage_dealt", "deals_damage")
KEPT = ("edition", "players", "active", "variant", "teams", "attack_option", "defending", "archenemy",
        "permanents", "life")


@dataclass(frozen=True, slots=True, kw_only=True)
class Listing:
    """The legal divisions of one creature's combat damage, each in French."""

    creature: str
    power: int
    options: tuple[str, ...]
    rules: tuple[str, ...]
    note: str = ""


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else []


def _combat(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The creatures as they stand when combat damage is assigned: a replayed turn's last
    declarations, or the described creatures."""
    creatures = [dict(c) for c in data.get("creatures") or () if isinstance(c, Mapping)]
    events = data.get("events")
    if not isinstance(events, list):
        return creatures
    attackers: list[str] = []
    blocks: dict[str, str] = {}
    for event in events:
        if isinstance(event, Mapping) and isinstance(event.get("declare_attackers"), list):
            attackers, blocks = [str(n) for n in event["declare_attackers"]], {}
        if isinstance(event, Mapping) and isinstance(event.get("declare_blockers"), Mapping):
            blocks = {str(k): str(v) for k, v in event["declare_blockers"].items()}
    for creature in creatures:
        name = creature.get("name")
        creature["attacking"] = name in attackers
        creature["blocked"] = name in blocks.values()
        if name in blocks:
            creature["blocking"] = blocks[name]
        else:
            creature.pop("blocking", None)
        creature["since_turn_start"] = creature.get("since_turn_start", True)
    return creatures


def _recipients(data: Mapping[str, Any], creatures: Sequence[Mapping[str, Any]], creature: Mapping[str, Any]
                ) -> list[str]:
    name = creature.get("name")
    if creature.get("attacking"):
        blockers = [str(c["name"]) for c in creatures if name in _names(c.get("blocking"))]
        order = [n for n in _names(creature.get("damage_order")) if n in blockers]
        blockers = order + [b for b in blockers if b not in order]
        players = _names(data.get("players")) or ["A", "B"]
        active = data.get("active") or players[0]
        attacked = creature.get("attacks") or data.get("defending") or next(
            (p for p in players[players.index(active) + 1:] + players if p != active), None
        ) if active in players else None
        return blockers + ([str(attacked)] if attacked else [])
    return _names(creature.get("blocking"))


def _divisions(power: int, parts: int) -> list[tuple[int, ...]]:
    out = []
    for bars in itertools.combinations(range(power + parts - 1), parts - 1):
        edges = (-1, *bars, power + parts - 1)
        out.append(tuple(edges[i + 1] - edges[i] - 1 for i in range(parts)))
        if len(out) > MAX_CANDIDATES:
            break
    return out


def _asked(data: Mapping[str, Any], creatures: Sequence[Mapping[str, Any]]) -> set[str]:
    """The creatures the damage answers are about."""
    names: list[str] = []
    for question in data.get("questions") or ():
        if not isinstance(question, Mapping) or question.get("ask") not in DAMAGE_ASKS:
            continue
        if question.get("creature"):
            names.append(str(question["creature"]))
        else:
            names += [str(c["name"]) for c in creatures if c.get("attacking") and c.get("blocked")]
    return set(names)


def listed(graph: RuleGraph, data: Mapping[str, Any] | None, answers: Sequence[Mapping[str, Any]],
           edition: str) -> list[Listing]:
    """For each creature an answer about combat damage names (or, for « quelles blessures »,
    each blocked attacker), the divisions of its power the checker calls legal."""
    if not data or not any(a.get("ask") in DAMAGE_ASKS for a in answers):
        return []
    from judge.checks.report import check, report_json
    from judge.game.situation import load_situation

    creatures = _combat(data)
    base = {key: data[key] for key in KEPT if key in data}
    base.update(edition=edition, phase=Phase.COMBAT, step=Step.COMBAT_DAMAGE, creatures=creatures)
    out: list[Listing] = []
    asked = _asked(data, creatures)
    for creature in creatures:
        name = str(creature.get("name"))
        if name not in asked:
            continue
        power = creature.get("power")
        recipients = _recipients(data, creatures, creature)
        if not isinstance(power, int) or power <= 0 or len(recipients) < 2:
            continue
        if power > MAX_POWER:
            out.append(Listing(creature=name, power=power, options=(), rules=(),
                               note=f"force {power} : trop de répartitions pour les lister"))
            continue
        divisions = _divisions(power, len(recipients))[::-1]  # the most to the first recipient first
        if len(divisions) > MAX_CANDIDATES:
            out.append(Listing(creature=name, power=power, options=(), rules=(),
                               note="trop de répartitions possibles pour les lister"))
            continue
        legal: list[str] = []
        rules: list[str] = []
        try:
            for start in range(0, len(divisions), BATCH):
                batch = divisions[start:start + BATCH]
                questions = [{"ask": "assign_damage", "creature": name,
                              "assignment": {r: n for r, n in zip(recipients, split, strict=True) if n}}
                             for split in batch]
                situation = load_situation(json.dumps({**base, "questions": questions}, ensure_ascii=False),
                                           source="répartitions", fmt="json")
                report: dict[str, Any] = report_json(check(graph, situation))
                answered: list[dict[str, Any]] = report.get("answers") or []
                for split, answer in zip(batch, answered, strict=True):
                    if answer.get("answer") is True:
                        legal.append(", ".join(f"{n} à {r}" for r, n in zip(recipients, split, strict=True) if n))
                        rules += [str(r) for r in answer.get("rules", []) if str(r) not in rules]
        except JudgeError:
            continue  # the described combat cannot be asked about: nothing listed, nothing guessed
        out.append(Listing(creature=name, power=power, options=tuple(legal), rules=tuple(rules)))
    return out
