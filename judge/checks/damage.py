"""Combat damage checks: whether a division of a creature's combat damage is legal, and what the
last combat damage resolution of a replay dealt (dealing it is `judge.procedure.combatdamage`'s).

The edition's model says whether blocked attackers follow a damage assignment order with lethal
damage first (`damage_assignment_order`) and whether damage uses the stack. `Hit`,
`DamageRecord` and the default assignment are `judge.legality.damage`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judge.checks.context import check
from judge.errors import SituationError
from judge.game.situationmodel import Creature, Question
from judge.legality.context import JSON, Context, Verdict
from judge.legality.damage import (
    DamageRecord,
    blocked_attackers,
    current_blockers,
    lethal,
    needed,
)
from judge.legality.defenders import attack_target, controller_of, defenders, defending_player
from judge.legality.words import plural


def _order_problems(targets: list[Creature], given: dict[str, int],
                    need: Callable[[Creature], int] = lethal) -> list[str]:
    """Damage to a creature of the order before each one ahead of it gets lethal damage."""
    names = ", ".join(t.name for t in targets)
    for i, target in enumerate(targets[1:], 1):
        if given.get(target.name, 0) and any(given.get(b.name, 0) < need(b)
                                             for b in targets[:i]):
            before = targets[i - 1]
            return [f"{target.name} ne peut recevoir de blessures que si {before.name}, avant "
                    f"elle dans l'ordre d'assignation ({names}), reçoit des blessures mortelles "
                    f"({need(before)})"]
    return []


def _lethal_concepts(ctx: Context, creature: Creature, targets: list[Creature],
                     others: dict[str, int]) -> list[str]:
    """Why lethal damage is less than toughness minus damage: deathtouch, other creatures'
    damage assigned at the same time."""
    out = []
    if creature.abilities and ctx.model.grants(creature.abilities, "lethal_any_damage") and any(
            lethal(t) > 1 for t in targets):
        out.append("damage.deathtouch")
    if any(others.get(t.name) for t in targets):
        out.append("damage.others")
    return out


# -- assign_damage ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class _Division:
    """One creature's division of its combat damage (`given`), and what it is read against:
    what the creature attacks (`attacked`; in Two-Headed Giant the defending player its team
    chose), the player or planeswalker its excess goes to (`player`, said as `whom`), the
    planeswalker it attacks (`walker`), damage others assign at the same time (`others`)."""

    ctx: Context
    creature: Creature
    given: dict[str, int]
    others: dict[str, int]
    total: int
    attacked: str | None
    player: str
    walker: str | None
    whom: str

    def need(self, target: Creature) -> int:
        """Lethal damage for `target`, from this creature, after the others' damage."""
        return needed(self.ctx.model, self.creature, target, self.others.get(target.name, 0))

    def elsewhere(self) -> bool:
        """Whether any damage goes to something other than `player`."""
        return any(t != self.player and a for t, a in self.given.items())


Found = tuple[list[str], list[str]]  # problems (French), concepts


def _team_defender(ctx: Context, creature: Creature, given: dict[str, int],
                   attacked: str | None, problems: list[str]) -> str | None:
    """810.7f: the active team chooses one defending player for each attacker's damage."""
    team = defenders(ctx.situation).players
    chosen = [t for t, a in given.items() if a and t in team]
    if len(chosen) > 1:
        problems.append(f"l'équipe active choisit un seul des joueurs défenseurs "
                        f"({', '.join(team)}) à qui elle assigne ses blessures")
    if chosen:
        return chosen[0]
    return creature.damage_to if creature.damage_to is not None else attacked


def _division(ctx: Context, creature: Creature, given: dict[str, int], others: dict[str, int],
              found: Found) -> _Division:
    s = ctx.situation
    attacked = attack_target(ctx, creature) if creature.attacking else None
    if s.variant == "two_headed_giant" and creature.attacking and creature.attacks is None:
        attacked = _team_defender(ctx, creature, given, attacked, found[0])
        found[1].append("damage.team_defender")
    player = attacked or defending_player(s)
    # 702.17d: a creature attacking a planeswalker assigns nothing to the defending player,
    # even once that planeswalker has left combat
    walker = creature.attacks if creature.attacking and creature.attacks and (
        creature.attacks not in s.players) else None
    whom = (f"au planeswalker qu'elle attaque ({player})" if walker and attacked else
            f"au joueur défenseur ({player})")
    return _Division(ctx=ctx, creature=creature, given=given, others=others,
                     total=sum(given.values()), attacked=attacked, player=player, walker=walker,
                     whom=whom)


def _assignment_problems(ctx: Context, creature: Creature, given: dict[str, int],
                         others: dict[str, int] | None = None) -> Found:
    found: Found = ([], ["damage.divide"])
    division = _division(ctx, creature, given, others or {}, found)
    problems, concepts = found
    power = creature.power
    if power is None:
        raise SituationError("creatures", f"la force de {creature.name} (power) est nécessaire "
                             "pour la question assign_damage")
    if power <= 0:
        if division.total:
            problems.append(f"sa force est {power} : elle n'assigne aucune blessure")
        return problems, [*concepts, "damage.power"]
    if division.total != power:
        problems.append(f"elle assigne des blessures égales à sa force ({power}), pas "
                        f"{division.total}")
        concepts.append("damage.power")
    if creature.attacking:
        blockers = current_blockers(ctx, creature)
        if not creature.blocked:
            return _unblocked(division, found)
        if not blockers:
            return _no_blocker_left(division, found)
        return _blocked(division, blockers, found)
    if not creature.blocking:
        return [f"{creature.name} n'est ni attaquante ni bloqueuse"], [*concepts, "damage.power"]
    return _blocking(division, found)


def _unblocked(d: _Division, found: Found) -> Found:
    problems, concepts = found
    creature = d.creature
    if d.attacked is None:
        concepts += ["damage.unblocked", "combat.walker_removed"]
        return ([f"le planeswalker qu'elle attaquait ({creature.attacks}) a été retiré du "
                 "combat : elle n'attaque plus rien et n'assigne aucune blessure"]
                if d.total else []), concepts
    concepts.append("damage.unblocked")
    if d.elsewhere():
        whom = (f"au planeswalker qu'elle attaque ({d.player})" if creature.attacks
                and creature.attacks not in d.ctx.situation.players
                else f"au joueur qu'elle attaque ({d.player})")
        problems.append(f"non bloquée, elle assigne toutes ses blessures {whom}")
    return problems, concepts


def _no_blocker_left(d: _Division, found: Found) -> Found:
    """Blocked, and every blocker removed from combat."""
    problems, concepts = found
    if not d.creature.has("trample"):
        concepts.append("damage.blocked")
        return ["bloquée et plus aucune créature ne la bloque : elle n'assigne aucune "
                "blessure"] if d.total else [], concepts
    concepts.append("damage.trample")
    if d.walker and d.attacked is None:
        concepts.append("damage.trample_walker")
        if d.total:
            problems.append(f"le planeswalker qu'elle attaquait ({d.walker}) a été "
                            "retiré du combat, et aucune blessure d'une créature qui "
                            "attaque un planeswalker ne peut être assignée au joueur "
                            "défenseur, même avec le piétinement")
        return problems, concepts
    if d.elsewhere():
        problems.append("bloquée mais sans bloqueur restant, avec le piétinement "
                        f"elle assigne toutes ses blessures {d.whom}")
    return problems, concepts


def _blocked(d: _Division, blockers: list[Creature], found: Found) -> Found:
    problems, concepts = found
    ctx, creature, given = d.ctx, d.creature, d.given
    names = [b.name for b in blockers]
    concepts.append("damage.blocked")
    gone = [n for n in creature.damage_order if n not in names]
    if gone and ctx.fact("damage_assignment_order"):
        concepts.append("damage.order_removed")
    defender = defending_player(ctx.situation)
    strangers = [t for t, a in given.items() if a and t not in names and t != d.player
                 and not (d.walker and t == defender)]
    if strangers:
        problems.append(f"{', '.join(strangers)} ne la bloque pas")
    if d.walker and given.get(defender) and defender != d.player:
        concepts.append("damage.trample_walker")
        problems.append(f"elle attaque le planeswalker {d.walker} : aucune de ses blessures ne "
                        f"peut être assignée au joueur défenseur ({defender}), même avec le "
                        "piétinement ; l'excédent va au planeswalker")
    if given.get(d.player) or creature.has("trample"):
        _trample(d, blockers, found)
    _in_order(d, blockers, "damage.band_blockers", ("damage.order", "damage.lethal_first"), found)
    return problems, concepts


def _trample(d: _Division, blockers: list[Creature], found: Found) -> None:
    """Damage past the blockers (or trample): only with trample, once each blocker has
    lethal damage."""
    problems, concepts = found
    concepts.append("damage.trample_lethal")
    if not d.creature.has("trample"):
        problems.append(f"sans le piétinement, elle n'assigne rien {d.whom}")
    elif any(d.given.get(b.name, 0) < d.need(b) for b in blockers):
        problems.append("avec le piétinement, chaque bloqueur doit recevoir des blessures "
                        "mortelles avant que le reste aille au joueur")
    concepts += _lethal_concepts(d.ctx, d.creature, blockers, d.others)


def _blocking(d: _Division, found: Found) -> Found:
    """A blocking creature's division among the attackers it blocks."""
    problems, concepts = found
    concepts.append("damage.blocker")
    targets = blocked_attackers(d.ctx, d.creature)
    names = [a.name for a in targets]
    if not targets:
        return (["elle ne bloque plus aucune créature attaquante : elle n'assigne aucune "
                 "blessure"] if d.total else []), concepts
    wrong = [t for t, a in d.given.items() if a and t not in names]
    if wrong:
        problems.append(f"elle assigne ses blessures à ce qu'elle bloque ({', '.join(names)}), "
                        f"pas à {', '.join(wrong)}")
    gone = [n for n in d.creature.damage_order if n not in names]
    if gone and d.ctx.fact("damage_assignment_order"):
        concepts.append("damage.blocker_order_removed")
    _in_order(d, targets, "damage.band_attackers", ("damage.blocker_order",), found)
    return problems, concepts


def _in_order(d: _Division, targets: list[Creature], band: str, ordered: tuple[str, ...],
              found: Found) -> None:
    """A band among `targets` divides freely (`band`); else, with an assignment order and
    several targets, lethal damage goes first in that order (`ordered`)."""
    problems, concepts = found
    if any(t.has("banding") for t in targets):
        concepts.append(band)
    elif d.ctx.fact("damage_assignment_order") and len(targets) > 1:
        concepts += ordered
        problems += _order_problems(targets, d.given, d.need)
        concepts += _lethal_concepts(d.ctx, d.creature, targets, d.others)


@check("assign_damage", cites=("damage.divide", "damage.power", "damage.unblocked",
                               "damage.blocked", "damage.blocker", "damage.trample_lethal",
                               "damage.trample", "damage.order",
                               "damage.lethal_first", "damage.whole", "damage.illegal",
                               "damage.order_removed", "damage.blocker_order",
                               "damage.blocker_order_removed", "combat.walker_removed",
                               "damage.trample_walker",
                               "damage.band_blockers", "damage.band_attackers",
                               "damage.deathtouch", "damage.others", "damage.team_defender"))
def check_assign_damage(ctx: Context, question: Question) -> Verdict:
    creature = ctx.creature(question.creature)
    given = dict(question.assignment or ())
    others: dict[str, int] = {}
    for name, assigned in question.others:
        if name == creature.name:
            raise SituationError("others", f"{name} est la créature dont on demande l'assignation")
        for target, amount in assigned:
            others[target] = others.get(target, 0) + amount
    problems, concepts = _assignment_problems(ctx, creature, given, others)
    topic = "l'assignation des blessures de combat"
    note = _order_note(ctx, creature, concepts)
    shown = ", ".join(f"{plural(a, 'blessure')} à {t}" for t, a in given.items() if a) or "rien"
    if problems:
        why = (f"Non : {creature.name} ne peut pas assigner {shown} : " + " ; ".join(problems)
               + ".") + note
        if ctx.fact("illegal_assignment_undone"):
            concepts.append("damage.illegal")
            why += (" Une assignation illégale est annulée : le jeu revient au moment où le "
                    "joueur a commencé à assigner.")
        return ctx.verdict(False, tuple(concepts), why, topic)
    why = f"Oui : {creature.name} peut assigner {shown}." + note
    why += _division_said(ctx, creature, concepts)  # adds to `concepts`
    return ctx.verdict(True, tuple(concepts), why, topic)


def _order_note(ctx: Context, creature: Creature, concepts: list[str]) -> str:
    """What became of a damage assignment order whose creatures left combat."""
    note = ""
    if "damage.order_removed" in concepts:
        present = {b.name for b in current_blockers(ctx, creature)}
        gone = [n for n in creature.damage_order if n not in present]
        note = (f" {', '.join(gone)} ne bloque plus : retirée de l'ordre d'assignation, l'ordre "
                "des autres bloqueurs reste le même.")
    if "damage.blocker_order_removed" in concepts:
        present = {a.name for a in blocked_attackers(ctx, creature)}
        gone = [n for n in creature.damage_order if n not in present]
        note = (f" {', '.join(gone)} n'est plus bloquée par {creature.name} : retirée de son "
                "ordre d'assignation, l'ordre des autres attaquants reste le même.")
    return note


def _division_said(ctx: Context, creature: Creature, concepts: list[str]) -> str:
    """Why a legal division is legal: deathtouch, others' damage, a band's free division, the
    assignment order or a free division among several (concepts added in place)."""
    why = ""
    if "damage.deathtouch" in concepts:
        why += (f" {creature.name} a le contact mortel : toute blessure qu'elle assigne à une "
                "créature est considérée comme mortelle.")
    if "damage.others" in concepts:
        why += (" Les blessures que d'autres créatures assignent en même temps à ces créatures "
                "comptent pour savoir si des blessures mortelles leur sont assignées.")
    several = len(current_blockers(ctx, creature) if creature.attacking
                  else blocked_attackers(ctx, creature)) > 1
    if "damage.band_blockers" in concepts or "damage.band_attackers" in concepts:
        chooser = ("le joueur défenseur (un de ses bloqueurs a le regroupement)" if
                   creature.attacking else "le joueur actif (une créature qu'elle bloque a le "
                   "regroupement)")
        return why + (f" C'est {chooser} qui répartit ces blessures, librement entre les "
                      "créatures concernées, sans ordre d'assignation.")
    if not several:
        return why
    if ctx.fact("damage_assignment_order"):
        concepts.append("damage.whole")
        why += (" Toutes ses blessures sont assignées avant celles d'une autre créature, en "
                "suivant l'ordre d'assignation ; plus que des blessures mortelles peuvent aller "
                "à une créature.")
    elif creature.attacking:
        why += " Son contrôleur répartit librement ses blessures entre les créatures qui la bloquent."
    else:
        why += (" Son contrôleur répartit librement ses blessures entre les créatures "
                "attaquantes qu'elle bloque.")
    return why


# -- damage_dealt ---------------------------------------------------------------------------


_ASSIGNED = {
    "damage.unblocked": "une créature attaquante non bloquée assigne ses blessures au joueur ou "
                        "planeswalker qu'elle attaque",
    "damage.blocked": "une créature bloquée les assigne aux créatures qui la bloquent encore",
    "damage.blocker_gone": "bloquée sans bloqueur restant, elle reste bloquée et n'assigne rien "
                           "(sauf avec le piétinement)",
    "damage.blocker": "une créature bloqueuse les assigne à la créature qu'elle bloque",
    "damage.two_steps": "dans chacune des deux étapes, seules les créatures qui y ont droit "
                        "(initiative, double initiative, puis les autres) assignent des blessures",
    "sba.removed_from_combat": "une créature mise au cimetière par une action basée sur un état "
                               "n'est plus là pour en assigner",
}


def _assigned(record: DamageRecord) -> str:
    said = [text for concept, text in _ASSIGNED.items() if concept in record.why]
    return (" Assignation : chaque créature assigne des blessures égales à sa force ; "
            + " ; ".join(said) + ".") if said else ""


@check("damage_dealt", cites=("damage.resolves", "damage.as_assigned", "damage.source",
                              "damage.recipient_gone", "damage.not_spell", "damage.assign",
                              "damage.power", "damage.unblocked", "damage.blocked",
                              "damage.blocker_gone", "damage.trample", "damage.trample_lethal",
                              "damage.order", "damage.blocker", "damage.tapped",
                              "damage.two_steps", "ability.first_strike", "ability.double_strike",
                              "sba.lethal_damage", "sba.zero_toughness", "sba.removed_from_combat",
                              "sba.legend_rule", "combat.walker_removed"))
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
        return ctx.verdict(value, ("damage.resolves", *record.why), f"Les blessures de combat "
                           f"assignées sont infligées simultanément, sans la pile : {listed}."
                           + _assigned(record), topic)
    concepts = ["damage.resolves", "damage.not_spell", *record.why]
    why = (f"Les blessures de combat, mises sur la pile comme un seul objet (qui n'est ni un sort "
           f"ni une capacité), se résolvent et sont infligées telles qu'assignées : {listed}."
           + _assigned(record))
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


# -- redirect ---------------------------------------------------------------------------------


@check("redirect", cites=("damage.redirect", "walker.none"))
def check_redirect(ctx: Context, question: Question) -> Verdict:
    """306.7: noncombat damage a source controlled by an opponent would deal to a player may be
    dealt to a planeswalker that player controls instead."""
    topic = "la redirection des blessures vers un planeswalker"
    player, source, target = question.player or "", question.source or "", question.planeswalker or ""
    owner = controller_of(ctx, source)
    walker = next((p for p in ctx.situation.permanents if p.name == target), None) or ctx.find(target)
    problems = []
    if "planeswalker" not in ctx.fact("spell_kinds"):  # type: ignore[operator]
        return ctx.verdict(False, ("walker.none",), f"Non : {target} n'est pas un planeswalker : "
                           f"le type planeswalker n'existe pas dans l'édition {ctx.edition}.",
                           topic)
    if walker is None or "planeswalker" not in walker.card_types:
        problems.append(f"{target} n'est pas un planeswalker")
    elif walker.controller != player:
        problems.append(f"{target} est contrôlé par {walker.controller}, pas par {player}, le "
                        "joueur à qui les blessures seraient infligées")
    if owner == player or owner in _team_of(ctx, player):
        problems.append(f"la source ({source}) est contrôlée par {owner}, qui n'est pas un "
                        f"adversaire de {player}")
    if problems:
        return ctx.verdict(False, ("damage.redirect",), "Non : " + " ; ".join(problems) + " "
                           "(seules des blessures non de combat qu'une source d'un adversaire "
                           "infligerait à un joueur peuvent être redirigées vers un planeswalker "
                           "de ce joueur).", topic)
    return ctx.verdict(True, ("damage.redirect",), f"Oui : {owner}, qui contrôle {source}, peut "
                       f"faire infliger ces blessures non de combat à {target}, un planeswalker "
                       f"que contrôle {player}, au lieu de {player} (pas des blessures de "
                       "combat).", topic)


def _team_of(ctx: Context, player: str) -> tuple[str, ...]:
    return next((team for team in ctx.situation.teams if player in team), ())
