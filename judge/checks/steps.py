"""Checks of what the steps do by themselves: untap and phasing, the triggers put on the stack
as a step begins, whether a creature is still in combat, what the cleanup step does.

Each answer cites the edition's rules through its game model's concepts (`action.untap`,
`action.triggers.upkeep`, `triggers.late.end_of_turn`…).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.checks.context import check
from judge.game.situationmodel import Creature, Question
from judge.game.turnplan import MAIN_PHASES, PHASE_LABELS, STEP_LABELS, Phase, Step
from judge.legality.combat import absent
from judge.legality.context import JSON, Context, Verdict, where_label
from judge.legality.defenders import attack_target
from judge.legality.words import label, plural
from judge.procedure.blocks import (
    Fired,
    declared_attack_triggers,
    declared_block_triggers,
    keyword_triggers,
)

if TYPE_CHECKING:
    from judge.game.objects import Permanent, Trigger

# The concepts of the keyword abilities whose effects a replay applies to a creature.
KEYWORD_EFFECT_CONCEPTS = ("ability.bushido", "ability.rampage", "ability.flanking",
                           "ability.exalted", "ability.protection.damage")


# -- untap ------------------------------------------------------------------------------


def untap_plan(ctx: Context) -> tuple[list[str], list[str], list[str], list[str]]:
    """The active player's untap step: what phases out, phases in, untaps, and stays tapped."""
    s = ctx.situation
    things: list[Creature | Permanent] = [*s.creatures, *s.permanents]
    # a creature a state-based action put into the graveyard is no longer there
    mine = [p for p in things if p.controller == ctx.active and getattr(p, "in_play", True)]
    phase_out = [p.name for p in mine if p.phasing and not p.phased_out]
    phase_in = [p.name for p in mine if p.phased_out]
    present = [p for p in mine if p.name not in phase_out]
    untap = [p.name for p in present if p.tapped and not p.doesnt_untap]
    kept = [p.name for p in present if p.tapped and p.doesnt_untap]
    return phase_out, phase_in, untap, kept


def _names(names: list[str]) -> str:
    return ", ".join(names)


@check(Step.UNTAP, cites=("action.phasing", "action.untap", "untap.doesnt_untap",
                       "priority.untap", "turn.skip", "phasing.skipped_untap", "sba.check",
                       "sba.legend_rule"))
def check_untap(ctx: Context, question: Question) -> Verdict:
    topic = "l'étape de dégagement"
    if ctx.skip_reason(Step.UNTAP) == "turn.skip":
        return ctx.verdict({"phase_out": [], "phase_in": [], "untap": []},
                           ("turn.skip", "phasing.skipped_untap"), f"Rien : l'étape de dégagement "
                           f"de {ctx.active} est sautée ce tour-ci ; on passe au-delà comme si "
                           "elle n'existait pas : aucun permanent ne se déphase, ne se rephase ni "
                           "ne se dégage.", topic)
    phase_out, phase_in, untap, kept = untap_plan(ctx)
    value: dict[str, JSON] = {"phase_out": phase_out, "phase_in": phase_in, "untap": untap}
    s = ctx.situation
    things: list[Creature | Permanent] = [*s.creatures, *s.permanents]
    others = [p.name for p in things
              if p.controller != ctx.active and (p.phasing or p.phased_out)]
    concepts = ["action.untap"]
    parts = [f"Pendant l'étape de dégagement de {ctx.active}"]
    if phase_out or phase_in or others:
        concepts.insert(0, "action.phasing")
    if phase_out or phase_in:
        parts.append(_phasing_said(phase_out, phase_in))
    if untap:
        verb = "se dégagent" if len(untap) > 1 else "se dégage"
        parts.append(f"ensuite {_names(untap)} {verb}")
    else:
        parts.append("ensuite aucun de ses permanents engagés ne se dégage")
    why = " ; ".join(parts) + "."
    if kept:
        concepts.append("untap.doesnt_untap")
        verb = "restent engagés" if len(kept) > 1 else "reste engagé"
        why += f" Un effet l'en empêche : {_names(kept)} {verb}."
    if phase_out:
        why += " Un permanent qui se déphase ne se dégage pas : il n'est plus en jeu."
    why += _untap_sba(ctx, concepts)
    if others:
        why += (f" Seuls les permanents du joueur actif se déphasent ou se rephasent : "
                f"{_names(others)} ne change pas.")
    if ctx.moment.step == Step.UNTAP:
        concepts.append("priority.untap")
        why += " Personne ne reçoit la priorité pendant cette étape."
    elif not ctx.ended:
        why += " (D'après l'état décrit, pour l'étape de dégagement de ce joueur.)"
    return ctx.verdict(value, tuple(concepts), why, topic)


def _phasing_said(phase_out: list[str], phase_in: list[str]) -> str:
    """« d'abord, X se déphase et Y se rephase (simultanément, sans la pile) »."""
    said = []
    if phase_out:
        verb = "se déphasent" if len(phase_out) > 1 else "se déphase"
        said.append(f"{_names(phase_out)} {verb}")
    if phase_in:
        verb = "se rephasent" if len(phase_in) > 1 else "se rephase"
        said.append(f"{_names(phase_in)} {verb}")
    return "d'abord, " + " et ".join(said) + " (simultanément, sans la pile)"


def _untap_sba(ctx: Context, concepts: list[str]) -> str:
    """The active player's creatures a state-based action put into the graveyard: they
    won't untap (concepts added in place)."""
    why = ""
    for creature in ctx.situation.creatures:
        gone = absent(ctx, creature) if creature.controller == ctx.active else None
        if creature.destroyed is not None and gone is not None:
            concepts += [creature.destroyed, "sba.check"]
            why += f" {gone[0][0].upper()}{gone[0][1:]} : elle ne se dégagera pas."
    return why


# -- triggers ---------------------------------------------------------------------------


def _step_key(ctx: Context) -> str:
    return ctx.moment.step or ctx.moment.phase


def _at_label(at: str) -> str:
    if at in MAIN_PHASES:
        return f"la {PHASE_LABELS[at]}"
    return f"l'étape « {STEP_LABELS[at]} »"


def _apnap(ctx: Context, triggers: list[Trigger]) -> list[Trigger]:
    players = ctx.situation.players
    seat = players.index(ctx.active)
    order = [players[(seat + k) % len(players)] for k in range(len(players))]
    return sorted(triggers, key=lambda t: order.index(t.controller))  # stable: given order kept


@check("triggers", cites=("action.triggers.*", "triggers.beginning", "triggers.untap_held",
                          "triggers.order", "triggers.late.*", "triggers.until_not_trigger",
                          "triggers.on.*", "enters.attacking",
                          "priority.untap", "cleanup.repeat", "ability.flanking",
                          "ability.rampage", "ability.bushido", "ability.exalted"))
def check_triggers(ctx: Context, question: Question) -> Verdict:
    s = ctx.situation
    key = _step_key(ctx)
    topic = "les capacités déclenchées"
    if not ctx.gives_priority(ctx.moment):
        return _no_triggers_without_priority(ctx, key)
    concepts = [f"action.triggers.{key}", "triggers.beginning"]
    now = [t for t in s.triggers if t.at == key and not t.entered_this_step]
    late = [t for t in s.triggers if t.at == key and t.entered_this_step]
    held = list(s.pending_triggers)
    fired, combat_why, combat_concepts = _combat_triggers(ctx, key)
    concepts += combat_concepts
    ordered = _apnap(ctx, [*held, *now, *fired])
    names = [t.name for t in ordered]
    if ordered:
        why = (f"Au début de {where_label(ctx.moment)}, "
               f"{plural(len(ordered), 'capacité')} "
               f"{'vont' if len(ordered) > 1 else 'va'} sur la pile : {', '.join(names)}")
        if held:
            why += (" (dont celles qui se sont déclenchées plus tôt, pendant le dégagement, et "
                    "attendaient qu'un joueur reçoive la priorité)")
            concepts.append("triggers.untap_held")
        why += "."
        if len({t.controller for t in ordered}) > 1:
            why += (f" Celles du joueur actif ({ctx.active}) d'abord, dans l'ordre qu'il choisit, "
                    "puis celles des autres joueurs dans l'ordre du tour.")
            concepts.append("triggers.order")
    else:
        why = f"Aucune capacité ne se déclenche au début de {where_label(ctx.moment)}."
    why += combat_why + _late_or_later(ctx, key, late, concepts, any_now=bool(ordered))
    return ctx.verdict(names, tuple(concepts), why, topic)


def _no_triggers_without_priority(ctx: Context, key: str) -> Verdict:
    """None in a step where nobody receives priority: they wait (the cleanup's: question
    cleanup)."""
    why = (f"Aucune : personne ne reçoit la priorité pendant {where_label(ctx.moment)}, "
           "rien n'y est mis sur la pile ; une capacité qui s'y déclenche attend la "
           "prochaine fois qu'un joueur reçoit la priorité (d'ordinaire l'entretien).")
    quiet: tuple[str, ...] = ("priority.untap", "triggers.untap_held") if key == Step.UNTAP else (
        f"priority.{key}",)
    if key == Step.CLEANUP:
        why = ("Aucune au début du nettoyage : les capacités en attente (pending_triggers) "
               "vont sur la pile après la défausse et le retrait des blessures, puis le "
               "joueur actif reçoit la priorité (question cleanup).")
        quiet = ("cleanup.repeat",)
    return ctx.verdict([], quiet, why, "les capacités déclenchées")


def _late_or_later(ctx: Context, key: str, late: list[Trigger], concepts: list[str], *,
                   any_now: bool) -> str:
    """Triggers that came too late for this step, « at end of turn » not being a duration,
    and the steps other triggers wait for (concepts added in place)."""
    why = ""
    if late:
        word = "capacités" if len(late) > 1 else "capacité"
        why += (f" {_names([t.name for t in late])} : {word} dont la source est arrivée en jeu "
                "(ou la condition remplie) après le début de l'étape ; l'étape ne « revient » pas "
                "en arrière, elle ne se déclenchera pas avant la prochaine fois.")
        concepts.append(f"triggers.late.{key}")
    if key == Step.END_OF_TURN:
        concepts.append("triggers.until_not_trigger")
        why += (" « À la fin du tour » est un déclenchement ; les effets « jusqu'à la fin du "
                "tour » ne se déclenchent pas : ils cessent au nettoyage.")
    others = sorted({t.at for t in ctx.situation.triggers if t.at != key and t.at is not None})
    if others and not any_now and not late:
        why += " (D'autres se déclencheront au début de " + ", ".join(
            _at_label(a) for a in others) + ".)"
    return why


def _alone_only(ctx: Context, key: str) -> tuple[str, list[str]]:
    """Why an « attacks alone » keyword (exalted) doesn't trigger: more than one attacker."""
    if key != Step.DECLARE_ATTACKERS:
        return "", []
    attackers = [c for c in ctx.situation.creatures if c.attacking and c.in_combat]
    if len(attackers) < 2:
        return "", []
    for creature in ctx.situation.creatures:
        for ability in creature.abilities:
            keyword = ctx.model.keyword(ability)
            if keyword and keyword.trigger and keyword.trigger[0] == "ally_attacks_alone":
                return (f" {label('ability', ability).capitalize()} de {creature.name} ne se "
                        f"déclenche pas : {len(attackers)} créatures attaquent, aucune "
                        "n'attaque seule.", [f"ability.{ability}"])
    return "", []


def _combat_triggers(ctx: Context, key: str) -> tuple[list[Trigger], str, list[str]]:
    """The abilities the declaration of attackers or blockers triggers (each instance), why,
    and the concepts deciding it."""
    s = ctx.situation
    if key == Step.DECLARE_ATTACKERS:
        fired = declared_attack_triggers(s.triggers, s.creatures)
    elif key == Step.DECLARE_BLOCKERS:
        fired = declared_block_triggers(s.triggers, s.creatures)
    else:
        return [], "", []
    keywords = keyword_triggers(ctx.model, s.creatures, attackers=key == Step.DECLARE_ATTACKERS)
    fired = [*fired, *keywords]
    instances = [f.trigger for f in fired for _ in range(f.times)]
    quiet = _alone_only(ctx, key) if not keywords else ("", [])
    why = "".join(f" {f.trigger.name} se déclenche {plural(f.times, 'fois')} : {f.why}."
                  for f in fired)
    concepts = [*(f.concept for f in fired), *quiet[1]]
    why += quiet[0] + _not_triggered(ctx, key, fired, concepts)
    return instances, why, concepts


def _not_triggered(ctx: Context, key: str, fired: list[Fired], concepts: list[str]) -> str:
    """Why the other triggers of the declaration's creatures don't trigger (concepts added in
    place): put onto the battlefield attacking, blocked, not the number of creatures."""
    why = ""
    s = ctx.situation
    for trigger in s.triggers:
        me = s.creature(trigger.creature or "")
        if me is None or any(f.trigger is trigger for f in fired):
            continue
        if trigger.on == "attacks" and key == Step.DECLARE_ATTACKERS and me.entered_attacking:
            concepts.append("enters.attacking")
            why += (f" {trigger.name} ne se déclenche pas : {me.name} a été mise sur le champ de "
                    "bataille attaquante, elle n'a jamais « attaqué ».")
        if trigger.on == "attacks_unblocked" and key == Step.DECLARE_BLOCKERS and me.blocked:
            concepts.append("triggers.on.unblocked")
            why += (f" {trigger.name} ne se déclenche pas : {me.name} est bloquée (même si ses "
                    "bloqueurs ont été retirés du combat depuis).")
        if (trigger.on or "").endswith("_count") and key == Step.DECLARE_BLOCKERS:
            concepts.append("triggers.on.count")
            many = "au moins " if trigger.at_least else ""
            why += (f" {trigger.name} ne se déclenche pas : le nombre de créatures n'est pas "
                    f"{many}{trigger.count} au moment où les bloqueurs sont déclarés.")
    return why


# -- in combat --------------------------------------------------------------------------

# Why a permanent put onto the battlefield attacking or blocking is not in combat.
_NEVER_IN_COMBAT = {
    "enters.noncreature": "attaquante ou bloqueuse, mais ce n'est pas une créature : elle n'est "
                          "jamais un permanent attaquant ou bloqueur",
    "enters.attacking_other": "attaquante sous le contrôle d'un joueur qui n'attaque pas : elle "
                              "n'est jamais une créature attaquante",
    "enters.blocking_other": "bloquant une créature qui n'attaque ni son contrôleur ni un "
                             "planeswalker qu'il contrôle : elle n'est jamais une créature "
                             "bloqueuse",
}


@check("in_combat", cites=("combat.removed", "damage.removed_from_combat", "damage.tapped",
                           "combat.declared_stays", "combat.end", "attack.becomes",
                           "block.becomes", "combat.alone", "enters.*",
                           "combat.walker_removed", "combat.blocker_walker", "sba.check",
                           "attack.legal", "attack.haste", "block.blocked", "ability.vigilance",
                           "damage.power",
                           "damage.blocker_gone", "block.legal", "damage.two_steps",
                           "phasing.skipped_untap", "action.phasing", "sba.zero_toughness", "sba.lethal_damage", "sba.removed_from_combat",
                           "phasing.absent", "sba.legend_rule", "sba.world_rule",
                           *KEYWORD_EFFECT_CONCEPTS))
def check_in_combat(ctx: Context, question: Question) -> Verdict:
    creature = ctx.creature(question.creature)
    left = _left_combat(ctx, creature)
    if left is not None:
        return left
    if not creature.in_combat:
        return _not_in_combat(ctx, creature)
    return _still_in_combat(ctx, creature)


_IN_COMBAT_TOPIC = "le retrait du combat"


def _left_combat(ctx: Context, creature: Creature) -> Verdict | None:
    """No (or, for an attacked planeswalker, yes): outside the combat phase, or the creature
    is gone, was never in combat, is phased out or stopped being a creature."""
    name, topic = creature.name, _IN_COMBAT_TOPIC
    if ctx.moment.phase != Phase.COMBAT or ctx.ended:
        return ctx.verdict(False, ("combat.end",), f"Non : nous ne sommes pas dans la phase de "
                           f"combat ({where_label(ctx.moment)}) ; à la fin de l'étape de fin du "
                           "combat, toutes les créatures sont retirées du combat.", topic)
    if creature.destroyed is not None:
        gone = absent(ctx, creature)
        assert gone is not None
        return ctx.verdict(False, gone[1], f"Non : {gone[0]} ; elle est retirée du combat.", topic)
    if not creature.in_play:
        return ctx.verdict(False, ("combat.removed",), f"Non : {name} a quitté le jeu, elle est "
                           "retirée du combat.", topic)
    if creature.entered in _NEVER_IN_COMBAT:
        return ctx.verdict(False, (creature.entered,), f"Non : {name} a été mise sur le champ "
                           f"de bataille {_NEVER_IN_COMBAT[creature.entered]}.", topic)
    if creature.phased_out:
        return ctx.verdict(False, ("combat.removed", "phasing.absent"), f"Non : {name} est "
                           "déphasée : traitée comme si elle n'existait pas, elle est retirée du "
                           "combat.", topic)
    attackers = [c.name for c in ctx.situation.creatures if c.attacking and c.in_combat
                 and c.attacks == name]
    if "planeswalker" in creature.card_types and attackers and (
            not creature.is_creature or creature.blocking):
        state = ("a cessé d'être une créature mais reste un planeswalker attaqué" if not
                 creature.is_creature else "est à la fois bloqueuse et un planeswalker attaqué")
        return ctx.verdict(True, ("combat.blocker_walker",), f"Oui : {name} {state} (par "
                           f"{', '.join(attackers)}) ; elle n'est retirée du combat que si elle "
                           "cesse d'être à la fois une créature et un planeswalker.", topic)
    if not creature.is_creature:
        return ctx.verdict(False, ("damage.removed_from_combat",), f"Non : {name} a cessé "
                           "d'être une créature, elle est retirée du combat.", topic)
    return None


def _not_in_combat(ctx: Context, creature: Creature) -> Verdict:
    """No: neither attacking nor blocking, and why it left (or never was in) combat."""
    name = creature.name
    why = f"Non : {name} n'est ni attaquante ni bloqueuse."
    if creature.regenerated:
        why = f"Non : {name} s'est régénérée, ce qui la retire du combat."
    elif creature.changed_control:
        why = f"Non : {name} a changé de contrôleur, ce qui la retire du combat."
    removal: tuple[str, ...] = (
        ("combat.removed",) if creature.regenerated or creature.changed_control
        else ("attack.becomes", "block.becomes") if ctx.at_or_after(Step.DECLARE_ATTACKERS)
        else ("combat.end",))
    if ctx.moment.extra and "combat.end" not in removal:
        removal += ("combat.end",)
        why += (" Une phase de combat supplémentaire a ses propres déclarations : ce qui "
                "attaquait ou bloquait lors d'un combat précédent a quitté le combat à sa fin.")
    return ctx.verdict(False, removal, why, _IN_COMBAT_TOPIC)


def _still_in_combat(ctx: Context, creature: Creature) -> Verdict:
    """Yes: attacking or blocking until removed from combat or the combat phase ends."""
    name = creature.name
    role = "attaquante" if creature.attacking else "bloqueuse"
    concepts = ["attack.becomes" if creature.attacking else "block.becomes"]
    why = (f"Oui : {name} est {role} et le reste jusqu'à ce qu'elle soit retirée du combat ou "
           "que la phase de combat se termine.")
    same = [c for c in ctx.situation.creatures if c.in_combat and (
        c.attacking if creature.attacking else bool(c.blocking))]
    alone = len(same) == 1
    if alone:
        concepts.append("combat.alone")
        why += f" Elle {'attaque' if creature.attacking else 'bloque'} seule."
    if creature.tapped:
        concepts.append("damage.tapped")
        why += (" Être engagée ne la retire pas du combat et n'empêche pas ses blessures de "
                "combat.")
    why += _still_there(ctx, creature, concepts)
    if creature.attacking and attack_target(ctx, creature) is None:
        concepts.append("combat.walker_removed")
        why += (f" Le planeswalker qu'elle attaquait ({creature.attacks}) a été retiré du combat : "
                "elle reste attaquante mais n'attaque plus rien ; elle peut être bloquée, et "
                "non bloquée, elle n'infligera aucune blessure de combat.")
    if creature.entered_attacking or creature.entered_blocking:
        concepts.append("enters.attacking" if creature.entered_attacking else "enters.blocking")
        why += (f" Mise sur le champ de bataille {role}, elle est {role} mais n'a jamais « "
                f"{'attaqué' if creature.entered_attacking else 'bloqué'} » (ni coût, ni "
                "capacité qui se déclenche quand elle le fait).")
    else:
        concepts.append("combat.declared_stays")
        why += (" Un effet qui l'aurait empêchée d'attaquer ou de bloquer, venu après sa "
                "déclaration, ne la retire pas du combat.")
    return ctx.verdict(True, tuple(concepts), why, _IN_COMBAT_TOPIC, (("alone", alone),))


def keyword_effects(ctx: Context, creature: Creature, concepts: list[str]) -> str:
    """What triggered keyword abilities and protection did to a creature this turn (concepts
    added in place): +N/+N or -1/-1 until end of turn, damage prevented."""
    why = ""
    for ability in creature.changed_by:
        concepts.append(f"ability.{ability}")
        why += (f" {label('ability', ability).capitalize()} a changé sa force et son endurance "
                f"jusqu'à la fin du tour ({creature.power}/{creature.toughness} maintenant).")
    if ctx.damage is not None and any(h.target == creature.name for h in ctx.damage.prevented):
        concepts.append("ability.protection.damage")
        why += " Les blessures que lui auraient infligées les sources de la qualité dont elle est protégée ont été prévenues."
    return why


def _still_there(ctx: Context, creature: Creature, concepts: list[str]) -> str:
    """Why a creature in combat is still there and still in it (concepts added in place)."""
    why = keyword_effects(ctx, creature, concepts) + _how_it_fights(ctx, creature, concepts)
    if creature.damage and creature.toughness is not None and creature.damage < creature.toughness:
        concepts.append("sba.lethal_damage")
        why += (f" Ses {plural(creature.damage, 'blessure')} ne sont pas mortelles (endurance "
                f"{creature.toughness}) : aucune action basée sur un état ne la détruit.")
    if ctx.moment.step == Step.COMBAT_DAMAGE and ctx.moment.damage_step is not None:
        concepts.append("damage.two_steps")
    if ctx.replayed and ctx.damage is not None and creature.toughness is not None and (
            creature.damage < creature.toughness):
        concepts.append("damage.power")
        why += (" Chaque créature a assigné des blessures égales à sa force : elle n'a pas reçu de "
                "blessures mortelles.")
    if ctx.moment.step == Step.END_OF_COMBAT:
        concepts.append("combat.end")
        why += " Elle ne quitte le combat qu'à la fin de l'étape de fin du combat."
    if creature.phasing and ctx.skip_reason(Step.UNTAP) == "turn.skip":
        concepts.append("phasing.skipped_untap")
        why += " L'étape de dégagement sautée, elle ne s'est pas déphasée."
    elif creature.phasing:
        concepts.append("action.phasing")
        why += (" Le déphasage ne la fait ni quitter le champ de bataille ni changer de "
                "contrôleur : elle a pu attaquer.")
    return why


def _how_it_fights(ctx: Context, creature: Creature, concepts: list[str]) -> str:
    """How it came to attack or block (haste, vigilance), and an attacker blocked by nobody
    left still blocked (concepts added in place)."""
    why = ""
    if creature.attacking and not creature.entered_attacking:
        concepts.append("attack.legal")
        if creature.has("haste") and not creature.since_turn_start:
            concepts.append("attack.haste")
            why += " Elle a pu attaquer grâce à la célérité."
        if creature.has("vigilance") and not creature.tapped:
            concepts.append("ability.vigilance")
            why += " Avec la vigilance, attaquer ne l'a pas engagée."
    if creature.attacking and creature.blocked:
        concepts.append("block.blocked")
        if not any(c.blocks(creature.name) and c.in_combat for c in ctx.situation.creatures):
            concepts.append("damage.blocker_gone")
            why += " Ses bloqueurs ne sont plus là, mais elle reste bloquée."
    if creature.blocking and not creature.entered_blocking:
        concepts.append("block.legal")
    return why


# -- cleanup ----------------------------------------------------------------------------


@check(Step.CLEANUP, cites=("action.discard", "action.damage_wears_off", "cleanup.effects",
                         "effects.until", "cleanup.no_priority", "cleanup.repeat", "sba.cleanup",
                         "sba.zero_toughness", "sba.legend_rule", "sba.world_rule"))
def check_cleanup(ctx: Context, question: Question) -> Verdict:
    s = ctx.situation
    topic = "l'étape de nettoyage"
    hand = s.hand(ctx.active)
    # a hand not said: how many cards are discarded is not known (null), the rest is
    discard = (None if hand is None and s.max_hand_size is not None else
               0 if s.max_hand_size is None or hand is None else max(0, hand - s.max_hand_size))
    damaged = [c.name for c in s.creatures if c.damage > 0 and c.in_play]
    ending = [e.name for e in s.effects if e.until in ("end_of_turn", "this_turn")]
    combat = [e.name for e in s.effects if e.until == "end_of_combat"]
    # the state-based actions checked in the cleanup step, after the damage is removed (2004
    # 420.3, 314.3; 2010 704.3, 514.3): any performed gives the active player priority
    performed = list(ctx.cleanup_actions)
    # « at the beginning of the (next) cleanup step » triggers, when that step is still to come
    # (or is the first one): they go on the stack and give priority (2004 314.3, 2010 514.3a)
    at_cleanup = [t for t in s.triggers if t.at == Step.CLEANUP and ctx.moment.step != Step.CLEANUP]
    waiting = [*s.pending_triggers, *at_cleanup]
    priority = bool(waiting) or bool(performed and ctx.moment.step == Step.CLEANUP)
    value: dict[str, JSON] = {"discard": discard, "damage_removed": damaged,
                              "effects_end": ending, "priority": priority}
    concepts = ["action.discard", "action.damage_wears_off", "cleanup.effects"]
    why = _cleanup_actions_said(ctx, hand, discard, damaged, ending)
    if combat:
        concepts.append("effects.until")
        verb = "ont cessé" if len(combat) > 1 else "a cessé"
        why += (f" {_names(combat)} {verb} à la fin de la phase de combat (« jusqu'à la fin du "
                "combat »), pas au nettoyage.")
    why += _cleanup_priority_said(ctx, performed, waiting, concepts)
    return ctx.verdict(value, tuple(concepts), why, topic)


def _cleanup_actions_said(ctx: Context, hand: int | None, discard: int | None,
                          damaged: list[str], ending: list[str]) -> str:
    """The cleanup's turn-based actions, in order: the discard, then damage removed and
    « until end of turn » effects ending at the same time."""
    s = ctx.situation
    why = (f"D'abord {ctx.active} se défausse jusqu'à {plural(s.max_hand_size or 0, 'carte')} "
           "en main (combien il en a n'est pas dit : clé hands)" if discard is None else
           f"D'abord {ctx.active} se défausse de {plural(discard, 'carte')}" if discard else
           f"D'abord {ctx.active} ne se défausse d'aucune carte")
    if hand is not None and s.max_hand_size is not None:
        why += f" ({plural(hand, 'carte')} en main, taille maximale {s.max_hand_size})"
    why += " ; puis, simultanément, "
    why += (f"les blessures sont retirées de {_names(damaged)}" if damaged else
            "aucune blessure n'est à retirer")
    if ending:
        verb = "cessent" if len(ending) > 1 else "cesse"
        why += f" et {_names(ending)} {verb} (« jusqu'à la fin du tour » / « ce tour-ci »)"
    return why + "."


def _cleanup_priority_said(ctx: Context, performed: list[str], waiting: list[Trigger],
                           concepts: list[str]) -> str:
    """Whether a player receives priority in the cleanup step (state-based actions performed,
    triggers waiting) and another cleanup step follows (concepts added in place)."""
    why = ""
    priority = bool(waiting) or bool(performed and ctx.moment.step == Step.CLEANUP)
    if performed and ctx.moment.step == Step.CLEANUP:
        concepts += ["sba.cleanup", *performed]
        why += (f" {str(ctx.fact('state_based_name'))[0].upper()}"
                f"{str(ctx.fact('state_based_name'))[1:]} s'applique pendant le nettoyage : le "
                f"joueur actif ({ctx.active}) reçoit la priorité.")
    if priority and waiting:
        concepts.append("cleanup.repeat")
        why += (f" Des capacités déclenchées attendent ({_names([t.name for t in waiting])}) : "
                f"elles vont sur la pile, le joueur actif ({ctx.active}) reçoit la priorité, et "
                "une fois la pile vide et tous les joueurs ayant passé, une autre étape de "
                "nettoyage commence.")
    elif priority:
        concepts.append("cleanup.repeat")
        why += (" Une fois la pile vide et tous les joueurs ayant passé, une autre étape de "
                "nettoyage commence.")
    else:
        concepts.append("cleanup.no_priority")
        why += " Aucune capacité n'attend : personne ne reçoit la priorité et l'étape se termine."
    return why
