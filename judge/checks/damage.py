"""Combat damage: whether a division of a creature's combat damage is legal, the division the
replay uses when none is given, and what the last combat damage resolution dealt.

The edition's model says whether blocked attackers follow a damage assignment order with lethal
damage first (`damage_assignment_order`) and whether damage uses the stack.
"""

from __future__ import annotations

from collections.abc import Iterable

from judge.checks.context import JSON, Context, Hit, Verdict, check
from judge.checks.words import plural
from judge.errors import SituationError
from judge.game.model import Creature, Question, Situation


def defending_player(situation: Situation) -> str:
    players = situation.players
    return players[(players.index(situation.active) + 1) % len(players)]


def current_blockers(situation: Situation, attacker: Creature) -> list[Creature]:
    """The creatures blocking `attacker` now, in its damage assignment order (then as listed)."""
    blockers = [c for c in situation.creatures if c.blocking == attacker.name and c.in_combat]
    rank = {name: i for i, name in enumerate(attacker.damage_order)}
    return sorted(blockers, key=lambda c: rank.get(c.name, len(rank)))


def lethal(creature: Creature) -> int:
    """Damage that is lethal to a creature: its toughness minus damage already marked."""
    if creature.toughness is None:
        return 1
    return max(creature.toughness - creature.damage, 0)


def default_hits(situation: Situation, dealers: Iterable[Creature]) -> tuple[Hit, ...]:
    """A legal division for each dealer: lethal damage to each blocker in order, the rest to
    the last one (or, with trample, to the defending player)."""
    out: list[Hit] = []
    player = defending_player(situation)
    for creature in dealers:
        power = creature.power or 0
        if power <= 0:
            continue
        if creature.attacking:
            blockers = current_blockers(situation, creature)
            if not creature.blocked or (not blockers and creature.has("trample")):
                out.append(Hit(source=creature.name, target=player, amount=power))
                continue
            left = power
            for i, blocker in enumerate(blockers):
                share = left if i == len(blockers) - 1 and not creature.has("trample") else min(
                    left, lethal(blocker))
                if share:
                    out.append(Hit(source=creature.name, target=blocker.name, amount=share))
                left -= share
            if left and creature.has("trample"):
                out.append(Hit(source=creature.name, target=player, amount=left))
        elif creature.blocking is not None:
            target = situation.creature(creature.blocking)
            if target is not None and target.in_combat:
                out.append(Hit(source=creature.name, target=target.name, amount=power))
    return tuple(out)


# -- assign_damage ------------------------------------------------------------------------


def _assignment_problems(ctx: Context, creature: Creature, given: dict[str, int]
                         ) -> tuple[list[str], list[str]]:
    s = ctx.situation
    player = defending_player(s)
    power = creature.power
    if power is None:
        raise SituationError("creatures", f"la force de {creature.name} (power) est nécessaire "
                             "pour la question assign_damage")
    total = sum(given.values())
    problems: list[str] = []
    concepts: list[str] = ["damage.divide"]
    if power <= 0:
        if total:
            problems.append(f"sa force est {power} : elle n'assigne aucune blessure")
        return problems, [*concepts, "damage.power"]
    if total != power:
        problems.append(f"elle assigne des blessures égales à sa force ({power}), pas {total}")
        concepts.append("damage.power")
    if creature.attacking:
        blockers = current_blockers(s, creature)
        names = [b.name for b in blockers]
        if not creature.blocked:
            concepts.append("damage.unblocked")
            if any(t != player and a for t, a in given.items()):
                problems.append(f"non bloquée, elle assigne toutes ses blessures au joueur "
                                f"défenseur ({player})")
            return problems, concepts
        if not blockers:
            if creature.has("trample"):
                concepts.append("damage.trample")
                if any(t != player and a for t, a in given.items()):
                    problems.append("bloquée mais sans bloqueur restant, avec le piétinement "
                                    f"elle assigne toutes ses blessures à {player}")
                return problems, concepts
            concepts.append("damage.blocked")
            return ["bloquée et plus aucune créature ne la bloque : elle n'assigne aucune "
                    "blessure"] if total else [], concepts
        concepts.append("damage.blocked")
        gone = [n for n in creature.damage_order if n not in names]
        if gone and ctx.rules("damage.order_removed"):
            concepts.append("damage.order_removed")
        strangers = [t for t, a in given.items() if a and t not in names and t != player]
        if strangers:
            problems.append(f"{', '.join(strangers)} ne la bloque pas")
        if given.get(player):
            concepts.append("damage.trample_lethal")
            if not creature.has("trample"):
                problems.append(f"sans le piétinement, elle n'assigne rien au joueur ({player})")
            elif any(given.get(b.name, 0) < lethal(b) for b in blockers):
                problems.append("avec le piétinement, chaque bloqueur doit recevoir des blessures "
                                "mortelles avant que le reste aille au joueur")
        if ctx.fact("damage_assignment_order") and len(blockers) > 1:
            concepts += ["damage.order", "damage.lethal_first"]
            for i, blocker in enumerate(blockers[1:], 1):
                if given.get(blocker.name, 0) and any(
                        given.get(b.name, 0) < lethal(b) for b in blockers[:i]):
                    before = blockers[i - 1]
                    problems.append(f"{blocker.name} ne peut recevoir de blessures que si "
                                    f"{before.name}, avant elle dans l'ordre d'assignation "
                                    f"({', '.join(names)}), reçoit des blessures mortelles "
                                    f"({lethal(before)})")
                    break
        return problems, concepts
    if creature.blocking is None:
        return [f"{creature.name} n'est ni attaquante ni bloqueuse"], [*concepts, "damage.power"]
    concepts.append("damage.blocker")
    wrong = [t for t, a in given.items() if a and t != creature.blocking]
    if wrong:
        problems.append(f"elle assigne ses blessures à la créature qu'elle bloque "
                        f"({creature.blocking}), pas à {', '.join(wrong)}")
    return problems, concepts


@check("assign_damage", cites=("damage.divide", "damage.power", "damage.unblocked",
                               "damage.blocked", "damage.blocker", "damage.trample_lethal",
                               "damage.trample", "damage.order",
                               "damage.lethal_first", "damage.whole", "damage.illegal",
                               "damage.order_removed"))
def check_assign_damage(ctx: Context, question: Question) -> Verdict:
    creature = ctx.creature(question.creature)
    given = dict(question.assignment or ())
    problems, concepts = _assignment_problems(ctx, creature, given)
    topic = "l'assignation des blessures de combat"
    note = ""
    if "damage.order_removed" in concepts:
        present = {b.name for b in current_blockers(ctx.situation, creature)}
        gone = [n for n in creature.damage_order if n not in present]
        note = (f" {', '.join(gone)} ne bloque plus : retirée de l'ordre d'assignation, l'ordre "
                "des autres bloqueurs reste le même.")
    shown = ", ".join(f"{plural(a, 'blessure')} à {t}" for t, a in given.items() if a) or "rien"
    if problems:
        why = (f"Non : {creature.name} ne peut pas assigner {shown} : " + " ; ".join(problems)
               + ".") + note
        if ctx.rules("damage.illegal"):
            concepts.append("damage.illegal")
            why += (" Une assignation illégale est annulée : le jeu revient au moment où le "
                    "joueur a commencé à assigner.")
        return ctx.verdict(False, tuple(concepts), why, topic)
    why = f"Oui : {creature.name} peut assigner {shown}." + note
    several = creature.attacking and len(current_blockers(ctx.situation, creature)) > 1
    if not several:
        return ctx.verdict(True, tuple(concepts), why, topic)
    if ctx.fact("damage_assignment_order"):
        concepts.append("damage.whole")
        why += (" Toutes ses blessures sont assignées avant celles d'une autre créature, en "
                "suivant l'ordre d'assignation ; plus que des blessures mortelles peuvent aller "
                "à un bloqueur.")
    else:
        why += " Son contrôleur répartit librement ses blessures entre les créatures qui la bloquent."
    return ctx.verdict(True, tuple(concepts), why, topic)


# -- damage_dealt ---------------------------------------------------------------------------


@check("damage_dealt", cites=("damage.resolves", "damage.as_assigned", "damage.source",
                              "damage.recipient_gone", "damage.not_spell"))
def check_damage_dealt(ctx: Context, question: Question) -> Verdict:
    topic = "les blessures de combat infligées"
    record = ctx.damage
    if not ctx.replayed:
        raise SituationError("events", "la question damage_dealt suit le tour joué : décrivez-le "
                             "avec events (les blessures assignées puis infligées)")
    if record is None:
        return ctx.verdict([], ("damage.resolves",), "Aucune : aucune blessure de combat n'a "
                           "encore été infligée ce tour-ci.", topic)
    value: list[JSON] = [{"source": h.source, "target": h.target, "amount": h.amount}
                         for h in record.dealt]
    listed = "; ".join(f"{h.source} inflige {plural(h.amount, 'blessure')} à {h.target}"
                       for h in record.dealt) or "aucune"
    if not record.on_stack:
        return ctx.verdict(value, ("damage.resolves",), f"Les blessures de combat assignées "
                           f"sont infligées simultanément, sans la pile : {listed}.", topic)
    concepts = ["damage.resolves", "damage.not_spell"]
    why = (f"Les blessures de combat, mises sur la pile comme un seul objet (qui n'est ni un sort "
           f"ni une capacité), se résolvent et sont infligées telles qu'assignées : {listed}.")
    if record.dropped:
        concepts.append("damage.recipient_gone")
        why += " Non infligées, car leur destinataire n'est plus en jeu : " + "; ".join(
            f"{plural(h.amount, 'blessure')} de {h.source} à {h.target}" for h in record.dropped) + "."
    if record.sources_gone:
        concepts += ["damage.as_assigned", "damage.source"]
        why += (f" {', '.join(record.sources_gone)} a quitté le jeu : ses blessures sont quand même "
                "infligées, la source étant la créature telle qu'elle existait en dernier.")
    if record.power_changed:
        concepts.append("damage.as_assigned")
        why += (f" La force de {', '.join(record.power_changed)} a changé après l'assignation : "
                "les blessures restent celles qui ont été assignées.")
    return ctx.verdict(value, tuple(concepts), why, topic)
