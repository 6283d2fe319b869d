"""Checks about the turn itself: where we are, who has priority, what comes next, lands, spells.

Registered in `judge.checks.catalog` order; combat checks are in `judge.checks.combat`.
"""

from __future__ import annotations

from judge.checks.context import (
    JSON,
    PHASE_RULE_2004,
    Context,
    Verdict,
    check,
    priority_rules,
    where_label,
    who_label,
)
from judge.game.model import SORCERY_SPEED, Question
from judge.game.turn import MAIN_PHASES, next_step, rest_of_turn, turn_order

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
    why = f"Nous sommes dans {where_label(moment)} ; {who_label(ctx.priority)} a la priorité."
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
        reasons.append(f"{player} n'a pas la priorité ({who_label(ctx.priority)} l'a)")
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
            why = (f"Non : {player} n'a pas la priorité ({who_label(ctx.priority)} l'a) ; on ne joue "
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
