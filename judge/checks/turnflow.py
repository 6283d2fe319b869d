"""Checks about the turn itself: where we are, who has priority, what comes next, lands, spells.

Registered in `judge.checks.catalog` order; combat checks are in `judge.checks.combat`.
"""

from __future__ import annotations

from judge.checks.context import check
from judge.game.situationmodel import Question, priority_receiver
from judge.game.states import first_turn_skip
from judge.game.turnplan import DamageStep, Phase, Step, next_step, rest_of_turn, turn_order
from judge.legality.casting import may_cast, may_play_land
from judge.legality.context import JSON, Context, Verdict, priority_concept, where_label

# -- where, priority, next, rest of turn ------------------------------------------------

# The state-based actions a described cleanup step performs (`Context.cleanup_actions`).
SBA_CLEANUP = ("sba.cleanup", "sba.legend_rule", "sba.world_rule")


def cleanup_sba(ctx: Context) -> tuple[tuple[str, ...], str]:
    """The concepts and the French sentence of the state-based actions performed in this
    cleanup step (they give the active player priority), or nothing."""
    acted = ctx.cleanup_actions
    if not acted:
        return (), ""
    name = str(ctx.fact("state_based_name"))
    return (("sba.cleanup", *acted),
            f" {name[0].upper()}{name[1:]} s'applique pendant le nettoyage : le joueur actif "
            f"({ctx.active}) reçoit la priorité, et une fois la pile vide et tous les joueurs "
            "ayant passé, une nouvelle étape de nettoyage commence.")


# The `main` of `where`'s answer: which main phase.
_MAIN_WORDS: dict[str, str] = {Phase.PRECOMBAT_MAIN: "precombat", Phase.POSTCOMBAT_MAIN: "postcombat"}


@check("where", cites=("turn.phases", "phase.*", "main.which", "turn.ends", "priority.*", "turn.step_ends",
                       "turn.skip", "combat.no_attackers", "damage.two_steps", "combat.end",
                       "damage.resolves", "holder.*", "stack.resolves", "turn.first_turn",
                       "turn.first_turn_team", *SBA_CLEANUP))
def check_where(ctx: Context, question: Question) -> Verdict:
    moment = ctx.moment
    main = _MAIN_WORDS.get(moment.phase)
    value: dict[str, JSON] = {"phase": moment.phase, "step": moment.step, "main": main,
                              "priority": ctx.priority}
    if moment.damage_step is not None:
        value["damage_step"] = moment.damage_step
    if ctx.ended:
        value["turn_ended"] = True
        why = ("Le tour est terminé : la dernière étape de nettoyage s'est achevée sans que "
               "personne ne reçoive la priorité.")
        return ctx.verdict(value, ("turn.ends",), why, "l'étape de nettoyage")
    holder = "personne n'a" if ctx.priority is None else f"{ctx.priority} a"
    why = f"Nous sommes dans {where_label(moment)} ; {holder} la priorité."
    if main == "precombat":
        why += " C'est la phase principale d'avant combat."
    elif main == "postcombat":
        why += " C'est une phase principale d'après combat."
    if ctx.arrival:
        # After a replay: why we are here (the transitions and who got priority last).
        return ctx.verdict(value, ctx.arrival, why, "l'enchaînement des étapes")
    acted, said = cleanup_sba(ctx)
    concepts = ("turn.phases", f"phase.{moment.phase}", *(("main.which",) if main else ()),
                *acted)
    return ctx.verdict(value, concepts, why + said, "les phases et étapes")


@check("priority", cites=("priority.*", "turn.ends", "cleanup.repeat", "multiplayer.left_active",
                          *SBA_CLEANUP))
def check_priority(ctx: Context, question: Question) -> Verdict:
    step = ctx.moment.step
    rules: tuple[str, ...] = (priority_concept(ctx),)
    if ctx.ended:
        return ctx.verdict(None, ("turn.ends",), "Le tour est terminé : personne ne reçoit "
                           "plus la priorité.", "l'étape de nettoyage")
    if ctx.priority is None and step != Step.CLEANUP:
        return ctx.verdict(None, rules, f"Aucun joueur ne reçoit la priorité pendant "
                           f"{where_label(ctx.moment)} : aucun sort ni capacité ne peut y être "
                           "lancé ou activé.", "la priorité dans cette étape")
    if step == Step.CLEANUP and ctx.priority is None:
        return ctx.verdict(None, rules, "Pendant le nettoyage, personne ne reçoit la priorité "
                           "sauf si une capacité s'est déclenchée ou qu'un effet basé sur un état "
                           "s'applique ; ici rien de tel (pile vide).", "l'étape de nettoyage")
    why = f"Dans {where_label(ctx.moment)}, le joueur actif ({ctx.active}) reçoit la priorité."
    acted, said = cleanup_sba(ctx)
    if step == Step.CLEANUP and acted and not ctx.situation.pending_triggers:
        why = said.strip()
        rules = (*acted, "cleanup.repeat")
    elif step == Step.CLEANUP:
        why = (f"Une capacité s'est déclenchée pendant le nettoyage : le joueur actif "
               f"({ctx.active}) reçoit la priorité, puis une nouvelle étape de nettoyage suivra.")
        rules = ("cleanup.repeat",)
    receiver = priority_receiver(ctx.situation.players, ctx.active, ctx.situation.left_game)
    if receiver != ctx.active:
        why = (f"Le joueur actif ({ctx.active}) a quitté la partie : son tour continue sans "
               f"joueur actif ; dans {where_label(ctx.moment)}, là où il recevrait la priorité, "
               f"le joueur suivant dans l'ordre du tour ({receiver}) la reçoit.")
        rules = (*rules, "multiplayer.left_active")
    if ctx.priority not in (None, receiver):
        why += f" En ce moment, c'est {ctx.priority} qui a la priorité."
    return ctx.verdict(receiver, rules, why, "la priorité dans cette étape")


def transition_concepts(ctx: Context, start: int, end: int | None) -> tuple[str, ...]:
    """The concepts deciding what follows plan[start], `end` being the next index or None."""
    here = ctx.plan[start].moment
    concepts: list[str] = []
    stop = len(ctx.plan) if end is None else end
    for entry in ctx.plan[start + 1:stop]:
        if entry.skip_reason:
            concepts.append(entry.skip_reason)
    if _first_turn_draw_kept(ctx, start, end):
        concepts.append("fact.first_turn_draw_multiplayer")
    if end is None:
        concepts.append("turn.ends")
        if ctx.situation.extra_turns:
            concepts.append("turn.extra_turns")
        return tuple(concepts)
    there = ctx.plan[end].moment
    if there.extra:
        added = [e.step for e in ctx.situation.extra_steps]
        concepts.append("turn.extra_steps" if there.step in added else "turn.extra_phases")
    if there.step == Step.CLEANUP and here.step == Step.CLEANUP:
        return (*concepts, "cleanup.repeat")
    if there.damage_step == DamageStep.REGULAR or here.damage_step == DamageStep.FIRST_STRIKE:
        concepts.append("damage.two_steps")
    if there.phase == here.phase:
        concepts.append(f"phase.{here.phase}")
    else:
        concepts.append("turn.phases")
        if here.step == Step.END_OF_COMBAT:
            concepts.append("combat.end")
        if Phase.COMBAT in (here.phase, there.phase):
            # the main phases are separated by the combat phase
            main = there.phase if here.phase == Phase.COMBAT else here.phase
            if main in (Phase.PRECOMBAT_MAIN, Phase.POSTCOMBAT_MAIN):
                concepts.append(f"phase.{main}")
    return tuple(concepts)


def _first_turn_draw_kept(ctx: Context, start: int, end: int | None) -> bool:
    """Whether the starting player's first-turn draw step, which a two-player game skips, is
    reached here because this multiplayer game keeps it (2010 103.7c)."""
    s = ctx.situation
    if not s.first_turn or ctx.model.fact("first_turn_draw").value or first_turn_skip(ctx.model, s):
        return False
    last = len(ctx.plan) if end is None else end + 1
    return any(e.moment.step == Step.DRAW and not e.skipped for e in ctx.plan[start + 1:last])


def _next_turn(ctx: Context) -> dict[str, JSON]:
    s = ctx.situation
    player = turn_order(s.players, s.active, s.extra_turns, 1, s.left_game)[0]
    return {"phase": Phase.BEGINNING, "step": Step.UNTAP, "new_turn": True, "player": player}


TRANSITIONS = ("turn.phases", "phase.*", "turn.skip", "combat.no_attackers", "damage.two_steps",
               "combat.end", "turn.ends", "cleanup.repeat", "turn.extra_phases", "turn.extra_steps",
               "fact.first_turn_draw_multiplayer")


@check("next", cites=(*TRANSITIONS, "turn.extra_turns", *SBA_CLEANUP))
def check_next(ctx: Context, question: Question) -> Verdict:
    later = None if ctx.ended else next_step(ctx.plan, ctx.index)
    rules = transition_concepts(ctx, ctx.index, later)
    skipped = [e for e in ctx.plan[ctx.index + 1:later] if e.skipped]
    skipped_text = ""
    if skipped:
        skipped_text = (f" ({'sautées' if len(skipped) > 1 else 'sautée'} : "
                        + ", ".join(e.moment.label for e in skipped) + ")")
    if later is None:
        value = _next_turn(ctx)
        why = (f"Le tour se termine{skipped_text} ; le tour suivant est celui de "
               f"{value['player']}, qui commence par l'étape de dégagement.")
        if ctx.situation.extra_turns:
            why += " Les tours supplémentaires passent avant, le plus récent d'abord."
        return ctx.verdict(value, rules, why, "l'enchaînement des étapes")
    moment = ctx.plan[later].moment
    why = f"Après {where_label(ctx.moment)} vient {where_label(moment)}{skipped_text}."
    acted, said = cleanup_sba(ctx) if moment.repeat else ((), "")
    if acted and not ctx.situation.pending_triggers:
        why += said
        rules = (*rules, *acted)
    elif moment.repeat:
        why += (" Une capacité s'est déclenchée pendant le nettoyage : une autre étape de "
                "nettoyage commence.")
    if moment.damage_step == DamageStep.REGULAR:
        why += (" Une créature avec l'initiative ou la double initiative combat : il y a une "
                "seconde étape des blessures de combat.")
    if any(e.skip_reason == "combat.no_attackers" for e in skipped):
        why += " Aucune créature n'attaque : les bloqueurs et les blessures sont sautés."
    return ctx.verdict(moment.as_dict(), rules, why, "l'enchaînement des étapes")


@check("rest_of_turn", cites=TRANSITIONS)
def check_rest_of_turn(ctx: Context, question: Question) -> Verdict:
    rest = () if ctx.ended else rest_of_turn(ctx.plan, ctx.index)
    indexes = [i for i in range(ctx.index + 1, len(ctx.plan)) if not ctx.plan[i].skipped]
    concepts: list[str] = []
    chain = [ctx.index, *indexes]
    for start, end in zip(chain, [*indexes, None], strict=True):
        if ctx.ended:
            break
        concepts.extend(c for c in transition_concepts(ctx, start, end)
                        if c != "turn.extra_turns")
    value = [entry.moment.as_dict() for entry in rest]
    skipped = [e for e in ctx.plan[ctx.index + 1:] if e.skipped]
    if not rest:
        why = "C'est la dernière étape du tour."
    else:
        why = "Restent : " + ", ".join(e.moment.label for e in rest) + "."
    if skipped and not ctx.ended:
        why += (f" {'Sautées' if len(skipped) > 1 else 'Sautée'} : "
                + ", ".join(e.moment.label for e in skipped) + ".")
    if not ctx.at_or_after(Step.DECLARE_ATTACKERS) and not ctx.ended:
        why += (" Si aucune créature n'est déclarée attaquante, les étapes de déclaration des "
                "bloqueurs et des blessures de combat seront sautées.")
    return ctx.verdict(value, tuple(concepts), why, "l'enchaînement des étapes")






# -- lands and spells (the rules are `judge.legality.casting`'s) ---------------------------


@check("play_land", cites=("land.play", "land.extra", "land.turn", "turn.first_turn",
                            "team.turns"))
def check_play_land(ctx: Context, question: Question) -> Verdict:
    return may_play_land(ctx, question.player)


@check("cast", cites=("priority.*", "turn.ends", "main.sorcery_speed", "fact.spell_kinds",
                      "hand.cast", "cast.*"))
def check_cast(ctx: Context, question: Question) -> Verdict:
    return may_cast(ctx, question.player, question.kind, flash=question.flash)
