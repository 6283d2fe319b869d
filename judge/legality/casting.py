"""Playing a land and casting a spell: whether a player may, now, and why (2004 212.3d, 305,
406, 408; 2010 305, 307, 601, 116).

Shared by the questions `play_land` and `cast` (`judge.checks.turnflow`) and the replay's
`PlayLand` and `Cast` events (`judge.procedure.replay`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.game.situationmodel import SORCERY_SPEED
from judge.legality.context import priority_concept, where_label, who_holds
from judge.legality.words import plural

if TYPE_CHECKING:
    from judge.legality.context import Context, Verdict


def may_play_land(ctx: Context, player: str | None) -> Verdict:
    """Whether `player` (the active player by default) may play a land now, and why."""
    player = player or ctx.active
    s = ctx.situation
    reasons: list[str] = []
    rules: tuple[str, ...] = ("land.play",)
    # Two-Headed Giant: each player of the active team may play a land, when the team has
    # priority (2010 805.4c, 805.5a)
    team = next((t for t in s.teams if ctx.active in t), ()) if (
        s.variant == "two_headed_giant") else ()
    shared = player in team and player != ctx.active
    if shared:
        rules += ("team.turns",)
    if player != ctx.active and not shared:
        rules += ("land.turn",)
    reasons += _not_now(ctx, player, team, shared=shared)
    if s.lands_played >= s.land_plays and not shared:
        reasons.append(f"{ctx.active} a déjà joué {plural(s.lands_played, 'terrain')} ce "
                       f"tour-ci sur {s.land_plays} permis")
        rules += ("land.extra",)
    if s.hand(player) == 0:
        reasons.append(f"{player} n'a aucune carte en main")
        if s.first_turn and player == ctx.active:
            reasons[-1] += " (pas de pioche au premier tour du joueur qui commence)"
            rules += ("turn.first_turn",)
    if reasons:
        why = "Non : " + " ; ".join(reasons) + "."
        return ctx.verdict(False, rules, why[0].upper() + why[1:], "les terrains")
    return _may_play_land_yes(ctx, player, rules, shared=shared)


def _not_now(ctx: Context, player: str, team: tuple[str, ...], *, shared: bool) -> list[str]:
    """Why `player` can't play a land now: the turn, whose turn, the phase, the stack,
    priority."""
    reasons: list[str] = []
    if ctx.ended:
        reasons.append("le tour est terminé")
    if player != ctx.active and not shared:
        reasons.append(f"seul le joueur actif ({ctx.active}) peut jouer un terrain, pendant son "
                       "tour")
    if not ctx.in_main:
        reasons.append(f"nous ne sommes pas dans une phase principale mais dans "
                       f"{where_label(ctx.moment)}")
    if ctx.situation.stack:
        reasons.append("la pile n'est pas vide")
    if ctx.priority != player and not ctx.ended and not (shared and ctx.priority in team):
        reasons.append(f"{player} n'a pas la priorité ({who_holds(ctx.priority)})")
    return reasons


def _may_play_land_yes(ctx: Context, player: str, rules: tuple[str, ...], *,
                       shared: bool) -> Verdict:
    """Yes, and why: a main phase, the stack empty, priority, a land play left (a teammate's
    turn in Two-Headed Giant, an extra land play)."""
    s = ctx.situation
    why = (f"Oui : c'est une phase principale, la pile est vide, {player} est le joueur actif, "
           f"a la priorité et n'a pas encore joué de terrain ce tour-ci.")
    if shared:
        why = (f"Oui : partie de Troll à deux têtes : l'équipe de {ctx.active} joue son tour et a "
               f"la priorité ; chaque joueur de l'équipe, dont {player}, peut jouer un terrain "
               "pendant ce tour.")
    elif s.lands_played:
        rules = ("land.play", "land.extra")
        why = (f"Oui : c'est une phase principale, la pile est vide, {player} est le joueur actif "
               f"et a la priorité ; il a joué {plural(s.lands_played, 'terrain')} ce tour-ci, "
               f"mais un effet lui en permet {s.land_plays} : il annonce quel effet permet ce "
               "terrain supplémentaire.")
    return ctx.verdict(True, rules, why, "les terrains")


KIND_LABELS = {"instant": "un éphémère", "sorcery": "un rituel", "creature": "un sort de créature",
               "artifact": "un artefact", "enchantment": "un enchantement",
               "planeswalker": "un planeswalker"}


def may_cast(ctx: Context, player: str | None, kind: str | None, *, flash: bool) -> Verdict:
    """Whether `player` (the active player by default) may cast a spell of `kind` (an instant
    by default; `flash`: the card has flash) now, and why."""
    player = player or ctx.active
    kind = kind or "instant"
    label = KIND_LABELS[kind]
    topic = "le lancement des sorts"
    verb = str(ctx.fact("cast_verb"))
    kinds = ctx.fact("spell_kinds")
    assert isinstance(kinds, tuple)
    if kind not in kinds:
        labels = ", ".join(KIND_LABELS[k].split(" ", 1)[1] for k in kinds)
        return ctx.verdict(False, ("fact.spell_kinds",), f"Non : {label} n'existe pas dans "
                           f"l'édition {ctx.edition} (sorts connus : {labels}).", topic)
    if ctx.ended:
        return ctx.verdict(False, ("turn.ends",), "Non : le tour est terminé.", topic)
    if ctx.priority != player:
        if ctx.priority is None:
            why = f"Non : personne ne reçoit la priorité pendant {where_label(ctx.moment)}."
        else:
            why = (f"Non : {player} n'a pas la priorité ({who_holds(ctx.priority)}) ; on ne "
                   f"{verb[:-1]} un sort que lorsqu'on a la priorité.")
        return ctx.verdict(False, (priority_concept(ctx), "cast.timing"), why, topic)
    if ctx.situation.hand(player) == 0:
        return ctx.verdict(False, ("hand.cast",), f"Non : {player} n'a aucune carte en main ; un "
                           f"sort se {verb[:-2]}e depuis la main.", topic)
    # The rule of the card type that allows it (`cast.<kind>`), beside the timing rule.
    kind_rule = f"cast.{kind}"
    has_flash = flash and bool(ctx.model.ability_rules("flash"))
    if flash and not has_flash:
        label += " (le flash n'existe pas dans cette édition)"
    if has_flash:
        why = (f"Oui : {player} a la priorité dans {where_label(ctx.moment)} ; avec le flash, "
               f"{label} peut être {verb[:-2]}é chaque fois qu'on pourrait {verb} un éphémère.")
        return ctx.verdict(True, (priority_concept(ctx), "cast.flash", kind_rule), why, topic)
    if kind in SORCERY_SPEED:
        rules = ("main.sorcery_speed", "cast.timing", kind_rule)
        reasons = []
        if not ctx.in_main:
            reasons.append(f"on ne peut {verb} {label} que pendant une phase principale, et nous "
                           f"sommes dans {where_label(ctx.moment)}")
        if player != ctx.active:
            reasons.append(f"seul le joueur actif ({ctx.active}) peut {verb} {label}")
        if ctx.situation.stack:
            reasons.append("la pile n'est pas vide")
        if reasons:
            return ctx.verdict(False, rules, "Non : " + " ; ".join(reasons) + ".", topic)
        why = (f"Oui : {player} est le joueur actif, a la priorité, la pile est vide et c'est "
               f"une phase principale : il peut {verb} {label}.")
        return ctx.verdict(True, rules, why, topic)
    why = (f"Oui : {player} a la priorité dans {where_label(ctx.moment)} ; un éphémère peut "
           f"être {verb[:-2]}é chaque fois qu'on a la priorité.")
    return ctx.verdict(True, (priority_concept(ctx), "cast.timing", kind_rule), why, topic)
