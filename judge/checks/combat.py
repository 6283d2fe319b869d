"""Combat checks: who may attack or block, how many damage steps, who deals combat damage.

The `attack_reasons` / `block_reasons` helpers are shared with the replay's declarations.
"""

from __future__ import annotations

from judge.checks.context import Context, Verdict, check, where_label
from judge.game.model import Creature, Question
from judge.game.turn import Moment

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
