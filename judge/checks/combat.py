"""Combat checks: who may attack or block, how many damage steps, who deals combat damage.

Why a creature may not attack or block, and what a whole declaration must obey, are
`judge.legality.combat`'s (shared with the replay's declarations); the costs, bands and
announcements of a declaration are answered here.
"""

from __future__ import annotations

from judge.checks.context import check
from judge.game.situationmodel import Creature, Question
from judge.game.turnplan import DamageStep, Moment, Phase, Step
from judge.legality.combat import (
    absent,
    attack_reasons,
    attack_rules,
    block_reasons,
    block_rules,
    landwalk_defenders,
    quality_word,
    too_many_blocks,
)
from judge.legality.context import Context, Verdict, where_label
from judge.legality.defenders import attack_target, attacked_player, defenders
from judge.legality.words import label, listing, plural

# -- combat -------------------------------------------------------------------------------


@check("attack", cites=("turn.skip", "turn.ends", "combat.players", "attack.declare",
                        "attack.legal", "attack.only_creatures", "attack.untapped",
                        "attack.defender", "attack.since_turn_start", "attack.haste",
                        "fact.walls_cannot_attack", "sba.check", "sba.zero_toughness", "sba.lethal_damage", "sba.removed_from_combat", "combat.removed", "phasing.absent",
                        "control.changed", "sba.legend_rule", "sba.world_rule", "variant.teams",
                        "fact.phased_in_haste"))
def check_attack(ctx: Context, question: Question) -> Verdict:
    creature = ctx.creature(question.creature)
    topic = "la déclaration des attaquants"
    name = creature.name
    skip = ctx.skip_reason(Step.DECLARE_ATTACKERS)
    if skip or ctx.ended:
        return ctx.verdict(False, (skip or "turn.ends",), f"Non : l'étape de déclaration "
                           f"des attaquants {'est sautée' if skip else 'est passée'} ce tour-ci.",
                           topic)
    if ctx.after(Step.DECLARE_ATTACKERS):
        return ctx.verdict(False, ("attack.declare",), f"Non : les attaquants se déclarent au "
                           f"début de l'étape de déclaration des attaquants, et nous sommes "
                           f"dans {where_label(ctx.moment)}.", topic)
    reasons, concepts = attack_reasons(ctx, creature)
    if reasons:
        why = f"Non : {name} ne peut pas attaquer : " + " ; ".join(reasons) + "."
        return ctx.verdict(False, tuple(concepts), why, topic)
    concepts = ["attack.legal"]
    who = ctx.active
    if creature.controller != ctx.active:  # a teammate of the active team (810.7a)
        who = f"{creature.controller}, joueur attaquant de l'équipe active,"
        concepts.append("variant.teams")
    why = f"Oui : {name} est une créature dégagée que {who} contrôle depuis le début du tour"
    if creature.has("haste") and not creature.since_turn_start:
        why = (f"Oui : {name} est une créature dégagée ; {who} ne la contrôle pas depuis "
               "le début du tour, mais elle a la célérité")
        concepts.append("attack.haste")
    elif creature.phased_in and not creature.since_turn_start and ctx.fact("phased_in_haste"):
        why = (f"Oui : {name} est une créature dégagée qui s'est rephasée ce tour-ci : elle peut "
               "attaquer comme si elle avait la célérité")
        concepts.append("fact.phased_in_haste")
    why += "."
    if ctx.moment.step != Step.DECLARE_ATTACKERS:
        why += " Elle pourra être déclarée au début de l'étape de déclaration des attaquants."
    if creature.is_wall and not ctx.fact("walls_cannot_attack"):
        why += (" Le type « Mur » n'interdit pas d'attaquer dans cette édition (seul le "
                "défenseur l'interdit).")
        concepts.append("fact.walls_cannot_attack")
    return ctx.verdict(True, tuple(concepts), why, topic)


@check("block", cites=("turn.skip", "combat.no_attackers", "turn.ends", "combat.players",
                       "block.declare", "block.legal", "block.attacked_player", "evasion.*",
                       "ability.landwalk", "team.defending_players",
                       "ability.protection.block", "sba.check", "sba.zero_toughness", "sba.lethal_damage", "sba.removed_from_combat", "combat.removed",
                       "phasing.absent", "sba.legend_rule", "sba.world_rule"))
def check_block(ctx: Context, question: Question) -> Verdict:
    blocker = ctx.creature(question.creature)
    attacker = ctx.creature(question.attacker)
    topic = "la déclaration des bloqueurs"
    skip = ctx.skip_reason(Step.DECLARE_BLOCKERS)
    if skip or ctx.ended:
        why = {"turn.skip": "Non : l'étape de déclaration des bloqueurs est sautée ce tour-ci.",
               "combat.no_attackers": "Non : aucune créature n'attaque, l'étape de déclaration "
                                      "des bloqueurs est sautée."}.get(
            skip or "", "Non : le tour est terminé.")
        return ctx.verdict(False, (skip or "turn.ends",), why, topic)
    if ctx.after(Step.DECLARE_BLOCKERS):
        return ctx.verdict(False, ("block.declare",), "Non : les bloqueurs se déclarent au "
                           "début de l'étape de déclaration des bloqueurs, et nous sommes dans "
                           f"{where_label(ctx.moment)}.", topic)
    reasons, concepts = block_reasons(ctx, blocker, attacker)
    if reasons:
        why = f"Non : {blocker.name} ne peut pas bloquer {attacker.name} : " + " ; ".join(
            reasons) + "."
        return ctx.verdict(False, tuple(concepts), why, topic)
    why = (f"Oui : {blocker.name} est une créature dégagée du défenseur et {attacker.name} "
           "attaque.")
    concepts = ["block.legal"]
    found = defenders(ctx.situation)
    if len(found.players) > 1 and ctx.situation.variant != "two_headed_giant":
        why += (f" Plusieurs joueurs défendent : {blocker.controller} ne bloque que les "
                f"créatures qui l'attaquent, lui ou ses planeswalkers, comme {attacker.name}.")
        concepts.append("block.attacked_player")
    for ability in blocker.abilities:
        if ctx.model.evasion(ability) is not None and ability not in attacker.abilities:
            why += (f" {blocker.name} a {label('ability', ability)}, qui ne l'empêche pas de "
                    "bloquer une créature qui ne l'a pas.")
            concepts.append(f"evasion.{ability}")
    for ability in attacker.abilities:
        evasion = ctx.model.evasion(ability)
        if evasion is not None:
            why += (f" {attacker.name} a {label('ability', ability)}, et {blocker.name} peut "
                    "quand même la bloquer.")
            concepts.append(f"evasion.{ability}")
    # The attacker's landwalk or protection that doesn't stop this blocker, said with its rule.
    if ctx.model.grants(attacker.abilities, "landwalk"):
        lands = ", ".join(label("land", land) for land in attacker.params("landwalk"))
        team = landwalk_defenders(ctx, attacker)
        why += (f" {attacker.name} a la traversée de terrain ({lands}), mais {listing(list(team))} "
                f"{'ne contrôle' if len(team) == 1 else 'ne contrôlent'} aucun terrain de ce "
                "type : elle peut être bloquée.")
        concepts += ["ability.landwalk", *(["team.defending_players"] if len(team) > 1 else [])]
    if ctx.model.grants(attacker.abilities, "protection"):
        qualities = attacker.params("protection")
        why += (f" {attacker.name} a la protection contre "
                f"{' et '.join(quality_word(q) for q in qualities)}, et {blocker.name} n'a "
                "pas cette qualité.")
        concepts.append("ability.protection.block")
    return ctx.verdict(True, tuple(concepts), why, topic)


def _two_damage_steps(ctx: Context) -> bool:
    return any(e.moment.damage_step is not None for e in ctx.plan)


def _strikes_first_abilities(ctx: Context) -> list[str]:
    """The keyword rules that give a combat two damage steps: first strike and double strike
    of the creatures attacking or blocking (2004 502.2b, 502.28b; 2010 702.7b, 702.4b)."""
    fighting = [c for c in ctx.situation.creatures if c.attacking or c.blocking]
    return [f"ability.{a}" for a in ("first_strike", "double_strike")
            if any(c.has(a) for c in fighting)]


@check("damage_steps", cites=("turn.skip", "combat.no_attackers", "damage.steps",
                              "damage.two_steps", "ability.first_strike", "ability.double_strike"))
def check_damage_steps(ctx: Context, question: Question) -> Verdict:
    topic = "les étapes des blessures de combat"
    skip = ctx.skip_reason(Step.COMBAT_DAMAGE)
    if skip == "turn.skip":
        return ctx.verdict(0, ("turn.skip",), "Aucune : l'étape des blessures de combat "
                           "est sautée ce tour-ci.", topic)
    if skip == "combat.no_attackers":
        return ctx.verdict(0, ("combat.no_attackers",), "Aucune : aucune créature n'a été déclarée "
                           "attaquante, les étapes des blessures de combat sont sautées.", topic)
    if _two_damage_steps(ctx):
        return ctx.verdict(2, ("damage.steps", "damage.two_steps", *_strikes_first_abilities(ctx)),
                           "Deux : au moins une créature "
                           "attaquante ou bloqueuse a l'initiative ou la double initiative, il y "
                           "a donc une seconde étape des blessures de combat.", topic)
    why = "Une : aucune créature attaquante ou bloqueuse n'a l'initiative ni la double initiative."
    concepts = ["damage.steps", "damage.two_steps"]  # the rule that would make a second one
    if not ctx.at_or_after(Step.DECLARE_ATTACKERS):
        concepts = ["damage.steps"]
        why = ("Une, tant qu'aucun attaquant n'est déclaré : la phase de combat prévoit une étape "
               "des blessures ; elle sera sautée si personne n'attaque, et doublée si une "
               "créature avec l'initiative combat.")
    elif ctx.after(Step.END_OF_COMBAT):
        why = ("Une d'après la situation décrite (la phase de combat est finie et plus aucune "
               "créature n'y est).")
        concepts = ["damage.steps"]
    return ctx.verdict(1, tuple(concepts), why, topic)


def _damage_step_for(ctx: Context) -> tuple[Moment | None, str]:
    """The damage step a `deals_damage` question is about (the current or the next one)."""
    moment = ctx.moment
    if moment.step == Step.COMBAT_DAMAGE:
        return moment, "dans l'étape en cours"
    if moment.phase == Phase.COMBAT and not ctx.after(Step.COMBAT_DAMAGE):
        later = next((e.moment for e in ctx.plan[ctx.index + 1:]
                      if e.moment.step == Step.COMBAT_DAMAGE and not e.skipped), None)
        return later, "lors de la prochaine étape des blessures de combat"
    return None, ""


@check("deals_damage", cites=("turn.skip", "combat.no_attackers", "damage.steps",
                              "damage.removed_from_combat", "damage.tapped", "damage.assign",
                              "damage.power", "damage.unblocked", "damage.blocked",
                              "damage.blocker", "damage.trample", "damage.two_steps",
                              "ability.first_strike", "ability.double_strike",
                              "combat.walker_removed", "sba.check", "sba.zero_toughness", "sba.lethal_damage", "sba.removed_from_combat", "combat.removed",
                              "phasing.absent", "damage.blocker_gone", "sba.legend_rule"))
def check_deals_damage(ctx: Context, question: Question) -> Verdict:
    creature = ctx.creature(question.creature)
    name, topic = creature.name, _DAMAGE_TOPIC
    step, when = _damage_step_for(ctx)
    if step is None:
        skip = ctx.skip_reason(Step.COMBAT_DAMAGE)
        why = {"combat.no_attackers": "Non : aucune créature n'attaque, l'étape des blessures de combat est "
                        "sautée.",
               "turn.skip": "Non : l'étape des blessures de combat est sautée ce tour-ci."}.get(
            skip or "", f"Non : il n'y a plus d'étape des blessures de combat ce tour-ci (nous "
                        f"sommes dans {where_label(ctx.moment)}).")
        return ctx.verdict(False, (skip or "damage.steps",), why, topic)
    out = _not_dealing(ctx, creature, step.damage_step)
    if out is not None:
        return out
    rules = ["damage.assign"]
    out = _no_target(ctx, creature, rules)
    if out is not None:
        return out
    if creature.power is not None and creature.power <= 0:
        return ctx.verdict(False, ("damage.power",), f"Non : la force de {name} est "
                           f"{creature.power} ; elle assigne autant de blessures que sa force.",
                           topic)
    why = f"Oui : {name} assigne ses blessures de combat {when}."
    if step.damage_step is not None:
        rules.append("damage.two_steps")
        # The keyword deciding its step: its own double strike or first strike, else the
        # abilities that made the second step it deals damage in.
        own = [f"ability.{a}" for a in ("double_strike", "first_strike") if creature.has(a)][:1]
        rules += own or _strikes_first_abilities(ctx)
        why += (" Elle a la double initiative." if creature.has("double_strike") else
                " C'est l'étape qui lui revient parmi les deux étapes des blessures.")
    if creature.tapped:
        rules.append("damage.tapped")
        why += " Être engagée ne l'empêche pas d'infliger des blessures de combat."
    return ctx.verdict(True, tuple(rules), why, topic)


_DAMAGE_TOPIC = "les blessures de combat"


def _not_dealing(ctx: Context, creature: Creature, damage_step: str | None) -> Verdict | None:
    """No: gone, not a creature, neither attacking nor blocking, or not its damage step."""
    name, topic = creature.name, _DAMAGE_TOPIC
    gone = absent(ctx, creature)
    if gone is not None:
        return ctx.verdict(False, gone[1], f"Non : {gone[0]} ; elle n'assigne pas de blessures "
                           "de combat.", topic)
    if not creature.is_creature:
        return ctx.verdict(False, ("damage.removed_from_combat",), f"Non : {name} a cessé d'être une "
                           "créature, elle est donc retirée du combat et n'inflige pas de "
                           "blessures de combat.", topic)
    if not creature.attacking and not creature.blocking:
        return ctx.verdict(False, ("damage.power",), f"Non : {name} n'est ni attaquante ni "
                           "bloqueuse ; seules celles-ci assignent des blessures de combat.", topic)
    if damage_step == DamageStep.FIRST_STRIKE and not creature.strikes_first:
        return ctx.verdict(False, ("damage.two_steps",), f"Non : c'est l'étape des blessures de "
                           f"l'initiative et {name} n'a ni l'initiative ni la double initiative ; "
                           "elle infligera ses blessures lors de la seconde étape.", topic)
    if damage_step == DamageStep.REGULAR and not creature.has("double_strike"):
        dealt = creature.dealt_first_strike_damage
        if dealt is None:
            dealt = creature.has("first_strike")
        if dealt:
            return ctx.verdict(False, ("damage.two_steps",), f"Non : {name} a déjà assigné ses "
                               "blessures lors de la première étape (initiative) et n'a pas la "
                               "double initiative.", topic)
    return None


def _no_target(ctx: Context, creature: Creature, rules: list[str]) -> Verdict | None:
    """No: an attacker blocked by nobody left (without trample: yes with it) or attacking a
    planeswalker removed from combat, a blocker blocking no attacker; else why it deals
    damage (`rules`, in place)."""
    name, topic = creature.name, _DAMAGE_TOPIC
    if creature.attacking:
        blockers = [c for c in ctx.situation.creatures if c.blocks(name) and c.in_combat]
        if creature.blocked and not blockers:
            if creature.has("trample"):
                why = (f"Oui : {name} est bloquée mais plus aucune créature ne la bloque ; avec le "
                       "piétinement, elle assigne toutes ses blessures de combat au joueur "
                       "défenseur.")
                return ctx.verdict(True, ("damage.blocked", "damage.blocker_gone",
                                          "damage.trample"), why, topic)
            why = (f"Non : {name} est bloquée mais plus aucune créature ne la bloque : elle "
                   "reste bloquée et n'inflige aucune blessure de combat.")
            return ctx.verdict(False, ("damage.blocked", "damage.blocker_gone"), why, topic)
        if not creature.blocked and attack_target(ctx, creature) is None:
            return ctx.verdict(False, ("damage.unblocked", "combat.walker_removed"),
                               f"Non : le planeswalker que {name} attaquait ({creature.attacks}) "
                               "a été retiré du combat ; elle reste attaquante mais n'attaque "
                               "plus rien : non bloquée, elle n'assigne aucune blessure.", topic)
        rules.append("damage.blocked" if creature.blocked else "damage.unblocked")
    else:
        targets = [ctx.situation.creature(a) for a in creature.blocking]
        if not any(t is not None and t.attacking and t.is_creature for t in targets):
            return ctx.verdict(False, ("damage.blocker",), f"Non : {name} ne bloque plus "
                               "aucune créature attaquante : elle n'assigne aucune blessure.",
                               topic)
        rules.append("damage.blocker")
    return None


# -- declaring a whole set of attackers or blockers, with their costs ---------------------


def _pay(ctx: Context, player: str, cost: int, kind: str) -> tuple[bool, str, list[str]]:
    """Can `player` pay `cost` mana now (pool plus what he or she can still produce)?"""
    if cost == 0:
        return True, "", []
    s = ctx.situation
    pool, can = s.mana(player), s.available(player)
    concepts = [f"{kind}.costs", f"{kind}.mana_abilities", f"{kind}.pay"]
    text = (f" Le coût total est de {plural(cost, 'mana')}, fixé une fois déterminé ; "
            f"{player} a {plural(pool, 'mana')} en réserve et peut encore en produire "
            f"{can - pool} (capacités de mana avant de payer)")
    if can >= cost:
        return True, text + " : il paie le tout.", concepts
    return False, text + " : il ne peut pas tout payer, et le paiement partiel n'est pas permis.", \
        concepts


def _obeyed(concepts: list[str], kind: str, verb: str) -> str:
    """The sentence saying a legal declaration obeys its restrictions and requirements."""
    if f"{kind}.requirements" in concepts:
        return (f" Elle respecte autant d'exigences que possible sans enfreindre de restriction "
                f"(une créature engagée ou qui a un coût à payer est dispensée {verb}).")
    if f"{kind}.restrictions" in concepts:
        return " Elle respecte les restrictions."
    return ""


def _bands(ctx: Context, names: tuple[str, ...]) -> tuple[str, list[str], list[str]]:
    """The attacking bands announced (`band`): any number of creatures with banding and at most
    one without, all attacking, and in 2010 all attacking the same player or planeswalker."""
    s = ctx.situation
    labels = list(dict.fromkeys(c.band for c in s.creatures if c.band is not None
                                and c.controller == ctx.active))
    if not labels:
        return "", [], []
    problems: list[str] = []
    concepts = ["attack.bands"]
    said = []
    for band in labels:
        members = [c for c in s.creatures if c.band == band and c.controller == ctx.active]
        away = [c.name for c in members if c.name not in names]
        if away:
            problems.append(f"{', '.join(away)} n'attaque pas et ne peut donc pas être du groupe "
                            f"« {band} »")
        others = [c.name for c in members if not c.has("banding")]
        if len(others) == len(members):
            problems.append(f"le groupe « {band} » n'a aucune créature avec le regroupement")
        elif len(others) > 1:
            problems.append(f"le groupe « {band} » a plus d'une créature sans le regroupement "
                            f"({', '.join(others)})")
        targets = {attacked_player(ctx, c) if c.attacks is None else c.attacks
                   for c in members}
        if len(targets) > 1 and ctx.fact("band_same_target"):
            problems.append(f"les créatures du groupe « {band} » n'attaquent pas toutes le même "
                            "joueur ou planeswalker")
            concepts.append("attack.band_target")
        said.append(f"{band} : {', '.join(c.name for c in members)}")
    text = (f" {ctx.active} annonce ses groupes d'attaquants (regroupement) : " + " ; ".join(said)
            + ".")
    return text, problems, concepts


def _announce(ctx: Context, names: tuple[str, ...]) -> tuple[str, list[str]]:
    """When the defending players control planeswalkers or are several, what each attacker
    attacks is announced (508.1b): the sentence saying so, and the targets that cannot be."""
    s = ctx.situation
    found = defenders(s)
    owned = [(p.name, p.card_types, p.controller) for p in s.permanents] + [
        (c.name, c.card_types, c.controller) for c in s.creatures]
    walkers = [name for name, types, owner in owned
               if "planeswalker" in types and owner in found.players]
    if not names or not (walkers or len(found.players) > 1):
        return "", []
    problems = []
    said = []
    for name in names:
        creature = ctx.creature(name)
        victim = attacked_player(ctx, creature)
        if creature.attacks is None:
            said.append(f"{name} : à annoncer")
        elif victim not in found.players:
            problems.append(f"{name} ne peut pas attaquer {creature.attacks}, qui n'est ni un joueur "
                            "défenseur ni un planeswalker d'un joueur défenseur")
        else:
            said.append(f"{name} attaque {creature.attacks}")
    choices = ", ".join((*found.players, *walkers))
    return (f" {ctx.active} annonce quel joueur ou planeswalker attaque chacune ({choices}) : "
            + "; ".join(said) + "."), problems


@check(Step.DECLARE_ATTACKERS, cites=("attack.procedure", "attack.legal", "attack.only_creatures",
                                   "attack.untapped", "attack.since_turn_start", "control.changed",
                                   "attack.defender", "fact.walls_cannot_attack",
                                   "combat.players", "attack.costs", "attack.mana_abilities",
                                   "attack.pay", "attack.becomes", "attack.declare",
                                   "attack.restrictions", "attack.requirements",
                                   "attack.announce", "attack.bands", "attack.band_target",
                                   "sba.check", "sba.legend_rule", "sba.removed_from_combat"))
def check_declare_attackers(ctx: Context, question: Question) -> Verdict:
    names = question.creatures or ()
    topic = "la déclaration des attaquants"
    if ctx.after(Step.DECLARE_ATTACKERS) or ctx.ended:
        return ctx.verdict({"legal": False, "cost": 0}, ("attack.declare",), "Non : les "
                           "attaquants se déclarent au début de l'étape de déclaration des "
                           f"attaquants, et nous sommes dans {where_label(ctx.moment)}.", topic)
    problems: list[str] = []
    concepts: list[str] = ["attack.procedure"]
    for name in names:
        reasons, deciding = attack_reasons(ctx, ctx.creature(name))
        if reasons:
            problems.append(f"{name} : " + ", ".join(reasons))
            concepts += deciding
    more_problems, more_concepts = attack_rules(ctx, names)
    problems += more_problems
    concepts += more_concepts
    announce, more_problems = _announce(ctx, names)
    problems += more_problems
    if announce:
        concepts.append("attack.announce")
    bands, more_problems, more_concepts = _bands(ctx, names)
    problems += more_problems
    concepts += more_concepts
    announce += bands
    cost = sum(ctx.creature(n).attack_cost for n in names)
    if problems:
        text = "Non : ce groupe ne peut pas attaquer — " + " ; ".join(problems) + "."
        return ctx.verdict({"legal": False, "cost": cost}, tuple(concepts), text, topic)
    paid, text, more = _pay(ctx, ctx.active, cost, "attack")
    concepts += more
    obeyed = _obeyed(concepts, "attack", "d'attaquer")
    if not names:
        return ctx.verdict({"legal": True, "cost": 0}, tuple(dict.fromkeys(
            ("attack.procedure", "attack.legal", *concepts))), f"Oui : {ctx.active} peut choisir "
            "de ne pas attaquer." + obeyed, topic)
    if not paid:
        return ctx.verdict({"legal": False, "cost": cost}, tuple(concepts),
                           (f"Non : {listing(names)} pourraient attaquer ensemble." if len(names) > 1
                            else f"Non : {names[0]} pourrait attaquer.") + text, topic)
    concepts += ["attack.legal", "attack.becomes"]
    word = "deviennent attaquantes" if len(names) > 1 else "devient attaquante"
    why = (f"Oui : {listing(names)} peuvent attaquer ensemble." if len(names) > 1 else
           f"Oui : {names[0]} peut attaquer.") + text
    why += announce + obeyed
    why += f" Une fois les coûts payés, {listing(names)} {word}."
    return ctx.verdict({"legal": True, "cost": cost}, tuple(concepts), why, topic)


@check(Step.DECLARE_BLOCKERS, cites=("block.procedure", "block.legal", "combat.players",
                                  "evasion.*", "ability.landwalk", "team.defending_players", "ability.protection.block",
                                  "block.costs", "block.mana_abilities",
                                  "block.pay", "block.becomes", "block.blocked",
                                  "block.declare", "combat.no_attackers",
                                  "block.restrictions", "block.requirements"))
def check_declare_blockers(ctx: Context, question: Question) -> Verdict:
    blocks = question.blocks or ()
    topic = "la déclaration des bloqueurs"
    if ctx.skip_reason(Step.DECLARE_BLOCKERS) == "combat.no_attackers":
        return ctx.verdict({"legal": False, "cost": 0}, ("combat.no_attackers",), "Non : aucune "
                           "créature n'attaque, l'étape de déclaration des bloqueurs est sautée.",
                           topic)
    if ctx.after(Step.DECLARE_BLOCKERS) or ctx.ended:
        return ctx.verdict({"legal": False, "cost": 0}, ("block.declare",), "Non : les bloqueurs "
                           "se déclarent au début de l'étape de déclaration des bloqueurs, et "
                           f"nous sommes dans {where_label(ctx.moment)}.", topic)
    problems: list[str] = []
    concepts: list[str] = ["block.procedure"]
    blockers = [b for b, _ in blocks]
    several = too_many_blocks(ctx, blocks)
    if several:
        problems += several
        concepts.append("block.legal")
    for blocker, attacker in blocks:
        reasons, deciding = block_reasons(ctx, ctx.creature(blocker), ctx.creature(attacker))
        if reasons:
            problems.append(f"{blocker} ne peut pas bloquer {attacker} : " + ", ".join(reasons))
            concepts += deciding
    more_problems, more_concepts = block_rules(ctx, blocks)
    problems += more_problems
    concepts += more_concepts
    cost = sum(ctx.creature(b).block_cost for b in dict.fromkeys(blockers))
    if problems:
        return ctx.verdict({"legal": False, "cost": cost}, tuple(concepts),
                           "Non : " + " ; ".join(problems) + ".", topic)
    defender = next((p for p in ctx.situation.players if p != ctx.active), ctx.active)
    if blocks:
        defender = ctx.creature(blocks[0][0]).controller
    paid, text, more = _pay(ctx, defender, cost, "block")
    concepts += more
    obeyed = _obeyed(concepts, "block", "de bloquer")
    if not blocks:
        return ctx.verdict({"legal": True, "cost": 0}, tuple(dict.fromkeys(
            ("block.procedure", "block.legal", *concepts))), f"Oui : {defender} peut choisir de "
            "ne pas bloquer." + obeyed, topic)
    pairs = ", ".join(f"{b} bloque {a}" for b, a in blocks)
    if not paid:
        return ctx.verdict({"legal": False, "cost": cost}, tuple(concepts),
                           f"Non : les blocages ({pairs}) seraient permis." + text, topic)
    concepts += ["block.legal", "block.becomes", "block.blocked"]
    attackers = list(dict.fromkeys(a for _, a in blocks))
    word = ("deviennent bloquées, même si leurs" if len(attackers) > 1 else
            "devient bloquée, même si ses")
    why = (f"Oui : {pairs}." + text + obeyed + f" {listing(attackers)} {word} bloqueurs quittent "
           "ensuite le combat.")
    return ctx.verdict({"legal": True, "cost": cost}, tuple(concepts), why, topic)


# -- who defends ------------------------------------------------------------------------


@check("defending_players", cites=("combat.players", "variant.*", "multiplayer.left"))
def check_defending_players(ctx: Context, question: Question) -> Verdict:
    found = defenders(ctx.situation)
    topic = "les joueurs défenseurs"
    if not found.chosen:
        return ctx.verdict([], (found.concept,), f"Pas encore choisi : {found.why}.", topic)
    names = list(found.players)
    head = (f"{', '.join(names)}" if names else "Personne")
    return ctx.verdict(names, (found.concept, *found.also), f"{head} : {found.why}.", topic)


@check("defending_player", cites=("attack.defending_player", "attack.defending_player_multi"))
def check_defending_player(ctx: Context, question: Question) -> Verdict:
    s = ctx.situation
    creature = ctx.creature(question.creature)
    topic = "le joueur défenseur d'une créature attaquante"
    player = attacked_player(ctx, creature)
    concepts = ["attack.defending_player"]
    target = creature.attacks or player
    what = (f"le joueur qu'elle attaque ({player})" if target in s.players else
            f"le contrôleur du planeswalker qu'elle attaque ({target} : {player})")
    why = (f"{player} : pour une capacité de {creature.name} (ou un effet qui parle d'elle et du "
           f"« joueur défenseur »), le joueur défenseur est {what} au moment où elle est devenue "
           "attaquante.")
    if len(defenders(s).players) > 1 or len(s.players) > 2:
        concepts.append("attack.defending_player_multi")
        why += (" En multijoueur, « le joueur défenseur » désigne un seul joueur, déterminé pour "
                "chaque créature attaquante.")
    if not creature.attacking:
        why += f" ({creature.name} n'est pas attaquante pour l'instant : d'après ce qu'elle attaquerait.)"
    return ctx.verdict(player, tuple(concepts), why, topic)
