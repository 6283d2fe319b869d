"""Checks of the end of the turn and of mana: cleanup discard, mana burn, turn order.

Also registers the rules the replay (`judge.procedure.replay`) cites in its trail.
"""

from __future__ import annotations

from judge.checks.context import check, register_mechanism
from judge.errors import SituationError
from judge.game.situationmodel import Question, attacking_players
from judge.game.states import first_turn_skip
from judge.game.turnplan import PHASE_LABELS, STEP_LABELS, Phase, Step, turn_order
from judge.legality.context import JSON, Context, Verdict, where_label
from judge.legality.words import plural

# -- cleanup, mana burn, turn order -----------------------------------------------------


@check("discard", cites=("cleanup.discard", "team.active", "turn.first_turn",
                         "fact.first_turn_draw_multiplayer", "action.draw"))
def check_discard(ctx: Context, question: Question) -> Verdict:
    player = question.player or ctx.active
    topic = "l'étape de nettoyage"
    s = ctx.situation
    rules: tuple[str, ...] = ("cleanup.discard",)
    team = attacking_players(s)
    if player not in team:
        who = (f"l'équipe active ({', '.join(team)}) se défausse" if len(team) > 1 else
               f"le joueur actif ({ctx.active}) se défausse")
        return ctx.verdict(0, rules, f"Aucune : au nettoyage, seul {who} jusqu'à sa taille de "
                           "main maximale.", topic)
    if len(team) > 1:
        rules = (*rules, "team.active")
    if s.max_hand_size is None:
        return ctx.verdict(0, rules, f"Aucune : {player} n'a pas de taille de main "
                           "maximale.", topic)
    hand = s.hand(player)
    if ctx.discarded is not None and player == ctx.active:
        return ctx.verdict(ctx.discarded, rules, f"{player} s'est défaussé de "
                           f"{plural(ctx.discarded, 'carte')} au nettoyage de ce tour, jusqu'à sa "
                           f"taille de main maximale ({s.max_hand_size}).", topic)
    if hand is None:
        raise SituationError(f"hands.{player}", "nombre de cartes en main inconnu : il est "
                             "nécessaire pour la question discard")
    count = max(0, hand - s.max_hand_size)
    why = (f"{player} a {plural(hand, 'carte')} en main pour une taille maximale de "
           f"{s.max_hand_size} : ")
    if s.first_turn and ctx.replayed:
        skip = first_turn_skip(ctx.model, s)
        rules = (*rules, skip or "fact.first_turn_draw_multiplayer", "action.draw")
        why = ("Premier tour du joueur qui commence : "
               + ("pas de pioche. " if skip else "il pioche (partie multijoueur). ") + why)
    why += (f"il se défausse de {plural(count, 'carte')} au nettoyage." if count else
            "il ne se défausse d'aucune carte au nettoyage.")
    if ctx.moment.step != Step.CLEANUP and not ctx.ended:
        why += " (Si sa main ne change pas d'ici là.)"
    return ctx.verdict(count, rules, why, topic)


@check("mana_burn", cites=("mana.burn", "mana.removed", "fact.mana_empties"))
def check_mana_burn(ctx: Context, question: Question) -> Verdict:
    player = question.player or ctx.active
    phase = PHASE_LABELS[ctx.moment.phase]
    pool = ctx.situation.mana(player)
    topic = "la brûlure de mana"
    if not ctx.fact("mana_burn"):
        extra: tuple[tuple[str, JSON], ...] = (("at", {"phase": ctx.moment.phase,
                                                       "step": ctx.moment.step}),)
        where = where_label(ctx.moment)
        why = (f"Aucune : dans l'édition {ctx.edition}, le mana inutilisé se vide de la réserve "
               f"à la fin de chaque étape et de chaque phase, sans perte de points de vie ; les "
               f"{plural(pool, 'mana')} de {player} seront perdus à la fin de {where}.")
        for removed in ctx.cite(*ctx.rules("mana.removed")):
            home, _, number = removed.partition(":")
            change = ctx.graph.edition(ctx.edition).removed_by or "un changement de règles"
            why += f" La brûlure de mana (règle {number} de l'édition {home}) a été supprimée par {change}."
        if pool == 0:
            why = (f"Aucune : la réserve de {player} est vide, et la brûlure de mana n'existe "
                   f"pas dans l'édition {ctx.edition}.")
        return ctx.verdict(0, ("mana.burn", "mana.removed"), why, topic, extra)
    extra = (("at", {"phase": ctx.moment.phase}),)
    lost = ("le mana inutilisé de la réserve de {0} est perdu" if pool == 1 else
            "les {1} inutilisés de la réserve de {0} sont perdus").format(player, plural(pool, "mana"))
    why = (f"À la fin de la {phase} (la fin d'une phase, pas d'une étape), {lost} : il perd "
           f"{plural(pool, 'point de vie')}.")
    if ctx.moment.step is not None and ctx.fact("mana_empties") == "phase":
        why += (f" La fin de l'étape « {STEP_LABELS[ctx.moment.step]} » ne cause pas de brûlure "
                "de mana : le mana reste dans la réserve jusqu'à la fin de la phase.")
    if pool == 0:
        why = f"Aucune : la réserve de {player} est vide ; rien n'est perdu à la fin de la {phase}."
    return ctx.verdict(pool, ("mana.burn",), why, topic, extra)


@check("turn_order", cites=("turn.order", "turn.extra_turns", "multiplayer.left"))
def check_turn_order(ctx: Context, question: Question) -> Verdict:
    s = ctx.situation
    count = question.count or len(s.players)
    order = turn_order(s.players, s.active, s.extra_turns, count, s.left_game)
    why = "Prochains tours : " + ", ".join(order) + "."
    if s.left_game:
        why += (f" {', '.join(s.left_game)} a quitté la partie : une partie multijoueur continue "
                "sans lui, qui ne joue plus de tour.")
        return ctx.verdict(list(order), ("turn.order", "multiplayer.left"), why, "l'ordre des tours")
    if s.extra_turns:
        why += (" Les tours supplémentaires sont ajoutés juste après le tour actuel, le plus "
                "récemment créé en premier (ordre de création : " + ", ".join(s.extra_turns)
                + ").")
        return ctx.verdict(list(order), ("turn.extra_turns",), why, "les tours supplémentaires")
    why += (" Sans tour supplémentaire (qui viendrait juste après le tour en cours), les joueurs "
            "jouent chacun leur tour dans l'ordre des places.")
    return ctx.verdict(list(order), ("turn.order", "turn.extra_turns"), why, "l'ordre des tours")


# -- the replay's rules ------------------------------------------------------------------------

register_mechanism("replay", topic=__name__, cites=(
    "turn.phases", "turn.step_ends", "stack.resolves", "priority.*", "action.untap", "action.draw", "action.declare_attackers",
    "action.declare_blockers", "action.combat_damage", "action.deal_combat_damage",
    "action.discard", "action.damage_wears_off", "main.ends", "step.no_priority_ends",
    "cleanup.no_priority", "hand.cast", "land.play", "mana.burn", "mana.spent", "cast.flash",
    "attack.taps", "attack.vigilance", "block.becomes_blocking", "combat.no_attackers",
    "damage.resolves", "combat.end", "turn.ends", "hand.draw", "turn.first_turn",
    "fact.mana_empties", "fact.combat_damage_on_stack", "fact.first_turn_draw",
    "action.phasing", "untap.doesnt_untap", "action.triggers.upkeep", "triggers.beginning",
    "effects.until", "cleanup.effects", "combat.removed", "damage.tapped",
    "enters.*", "block.by_effect", "action.triggers.declare_blockers",
    "triggers.on.blocks", "triggers.on.blocked_by_creature", "action.archenemy",
    "turn.extra_phases", "turn.extra_steps", "cleanup.repeat", "holder.*",
    # the state-based actions the replay performs
    "sba.check", "sba.planeswalker_uniqueness", "team.loses", "sba.team_loses",
    # noncombat damage (the `deal_damage` event), players who leave a multiplayer game
    "damage.to_player", "damage.to_creature", "damage.zero", "damage.redirect", "walker.damage",
    "team.life", "multiplayer.left", "multiplayer.left_objects", "multiplayer.left_triggers", "sba.cleanup", "sba.removed_from_combat", "sba.zero_life", "sba.zero_toughness",
    "sba.lethal_damage", "sba.legend_rule", "sba.world_rule", "sba.deathtouch",
    "sba.zero_loyalty", "sba.regenerated", "sba.empty_library", "sba.poison",
    "fact.first_turn_draw_multiplayer", "turn.skip", "phasing.skipped_untap", "control.changed",
))


# -- durations and control ---------------------------------------------------------------------

# Where each duration ends: (phase, step) of the active player's turn, or the beginning of its
# controller's next turn, and the concept saying so.
_ENDS = {
    "end_of_turn": (Phase.ENDING, Step.CLEANUP, "cleanup.effects"),
    "this_turn": (Phase.ENDING, Step.CLEANUP, "cleanup.effects"),
    "end_of_combat": (Phase.COMBAT, Step.END_OF_COMBAT, "combat.end"),
    "your_next_turn": (Phase.BEGINNING, Step.UNTAP, "effects.until"),
}
_UNTIL_WORDS = {"end_of_turn": "« jusqu'à la fin du tour »", "this_turn": "« ce tour-ci »",
                "end_of_combat": "« jusqu'à la fin du combat »",
                "your_next_turn": "« jusqu'à votre prochain tour »"}


@check("effect_ends", cites=("cleanup.effects", "combat.end", "effects.until", "effects.duration"))
def check_effect_ends(ctx: Context, question: Question) -> Verdict:
    name = question.effect or ""
    effect = next((e for e in ctx.situation.effects if e.name == name), None)
    if effect is None:
        raise SituationError("effects", f"aucun effet ne s'appelle « {name} »")
    phase, step, concept = _ENDS[effect.until]
    player = ctx.active
    if effect.until == "your_next_turn":
        player = effect.controller or ctx.active
        why = (f"{name} dure {_UNTIL_WORDS[effect.until]} : il cesse quand commence le prochain "
               f"tour de {player} (au début de son étape de dégagement), pas au nettoyage de ce "
               "tour.")
    elif effect.until == "end_of_combat":
        why = (f"{name} dure {_UNTIL_WORDS[effect.until]} : il cesse à la fin de l'étape de fin "
               "du combat de ce tour.")
    else:
        why = (f"{name} dure {_UNTIL_WORDS[effect.until]} : il cesse à l'étape de nettoyage de "
               "ce tour, en même temps que les blessures sont retirées.")
    value = {"player": player, "phase": phase, "step": step}
    return ctx.verdict(value, (concept, "effects.duration"), why, "la durée des effets")


@check("controller", cites=("cleanup.effects", "effects.duration", "control.changed"))
def check_controller(ctx: Context, question: Question) -> Verdict:
    creature = ctx.creature(question.creature)
    topic = "le contrôle des permanents"
    if creature.control_until is not None and creature.owner and creature.owner != creature.controller:
        why = (f"{creature.controller} contrôle {creature.name} (dont {creature.owner} est le "
               f"propriétaire) {_UNTIL_WORDS.get(creature.control_until, '')} : cet effet cesse "
               f"à l'étape de nettoyage, et {creature.owner} la contrôlera de nouveau.")
        return ctx.verdict(creature.controller, ("cleanup.effects", "effects.duration"), why,
                           topic)
    if creature.changed_control or (creature.owner and creature.owner != creature.controller):
        why = f"{creature.controller} contrôle {creature.name} (le contrôle a changé)."
        if creature.owner and creature.owner == creature.controller:
            why = (f"{creature.controller}, son propriétaire, contrôle de nouveau {creature.name} : "
                   "l'effet qui en donnait le contrôle a cessé.")
            return ctx.verdict(creature.controller, ("cleanup.effects", "effects.duration"), why,
                               topic)
        return ctx.verdict(creature.controller, ("control.changed", "effects.duration"), why, topic)
    return ctx.verdict(creature.controller, ("effects.duration",),
                       f"{creature.controller} contrôle {creature.name}.", topic)
