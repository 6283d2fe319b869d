"""Checks of the end of the turn and of mana: cleanup discard, mana burn, turn order."""

from __future__ import annotations

from judge.checks.context import (
    JSON,
    Context,
    Verdict,
    check,
    register_mechanism,
)
from judge.errors import SituationError
from judge.game.model import Question
from judge.game.turn import PHASE_LABELS, STEP_LABELS, turn_order

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
        change = ctx.graph.edition(ctx.edition).removed_by or "un changement de règles"
        why = (f"Aucune : la brûlure de mana (règle 300.3 de l'édition 2004) a été supprimée par "
               f"{change} ; en {ctx.edition}, le mana inutilisé est perdu sans "
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


# -- the replay's rules ------------------------------------------------------------------------

register_mechanism("replay", rules={
    "2004": ("300.2", "302.3", "305.2", "308.2c", "308.4", "309.2e", "309.2f", "310.1",
             "310.4", "311.2", "314.3"),
    "2010": ("505.2", "505.5"),
})
