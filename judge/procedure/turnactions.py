"""Turn-based actions that change permanents and pools: the untap step's phasing and untapping,
and mana pools emptying as a step or phase ends (with mana burn where the edition has it).

Mutate the replay's tables; return the trail's French sentences with the concept deciding each.
`perform_action` performs on a `Turn` the turn-based actions the edition's game model lists at
the start of each step (phasing, untapping, triggers, draw, combat damage, discard, damage
wearing off); `empty_mana` and `end_combat` what ends with a step or phase.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from judge.game.objects import Permanent, StackItem
from judge.game.situationmodel import Creature
from judge.game.turnplan import Step
from judge.legality.damage import Hit, assignment_concepts, default_hits
from judge.legality.words import plural
from judge.procedure.combatdamage import damage_dealers, deal, split_resolved
from judge.procedure.state import Turn

Notes = list[tuple[str, str]]


def phase(active: str, creatures: dict[str, Creature], permanents: dict[str, Permanent]) -> Notes:
    """The active player's permanents with phasing phase out, those phased out phase in."""
    out, back = [], []
    tables: tuple[dict[str, Any], ...] = (creatures, permanents)
    for table in tables:
        for name, thing in list(table.items()):
            if thing.controller != active:
                continue
            if thing.phased_out:
                table[name] = (replace(thing, phased_out=False, phased_in=True)
                               if isinstance(thing, Creature) else replace(thing, phased_out=False))
                back.append(name)
            elif thing.phasing:
                table[name] = (replace(thing, phased_out=True, phased_in=False)
                               if isinstance(thing, Creature) else replace(thing, phased_out=True))
                out.append(name)
    said = ([f"{', '.join(out)} se déphase{'nt' if len(out) > 1 else ''}"] if out else []) + (
        [f"{', '.join(back)} se rephase{'nt' if len(back) > 1 else ''}"] if back else [])
    if not said:
        return []
    text = " ; ".join(said)
    return [(text[0].upper() + text[1:] + " (simultanément).", "action.phasing")]


def untap(active: str, creatures: dict[str, Creature], permanents: dict[str, Permanent]) -> Notes:
    """The active player's tapped permanents untap, except those an effect keeps tapped."""
    freed, kept = [], []
    tables: tuple[dict[str, Any], ...] = (creatures, permanents)
    for table in tables:
        for name, thing in list(table.items()):
            if thing.controller != active or not thing.tapped or thing.phased_out:
                continue
            if thing.doesnt_untap:
                kept.append(name)
                continue
            table[name] = replace(thing, tapped=False)
            freed.append(name)
    notes: Notes = []
    if freed:
        notes.append((f"{active} dégage ses permanents ({', '.join(freed)}).", "action.untap"))
    if kept:
        notes.append((f"{', '.join(kept)} ne se dégage{'nt' if len(kept) > 1 else ''} pas (un "
                      "effet l'en empêche).", "untap.doesnt_untap"))
    return notes


def empty_pools(pools: dict[str, int], *, burn: bool) -> list[tuple[str, str]]:
    """The replay's mana pools empty (in `pools`): what each player loses, and the concept."""
    notes = []
    for player, amount in list(pools.items()):
        if amount <= 0:
            continue
        pools[player] = 0
        unused = "inutilisé" if amount == 1 else "inutilisés"
        if burn:
            notes.append((f"{player} perd {plural(amount, 'mana')} {unused} et "
                          f"{plural(amount, 'point de vie')} (brûlure de mana).", "mana.burn"))
        else:
            notes.append((f"La réserve de {player} se vide de {plural(amount, 'mana')} "
                          f"{unused}, sans perte de points de vie.", "fact.mana_empties"))
    return notes


def empty_mana(turn: Turn, *, phase_ends: bool) -> None:
    """Unused mana empties when a step ends, or only when a phase ends (with mana burn)."""
    pools = turn.mana.pools
    if not pools or not any(amount > 0 for amount in pools.values()):
        return  # no pool holds mana: nothing empties, nobody burns
    if turn.model.fact("mana_empties").value == "step" or phase_ends:
        burn = bool(turn.model.fact("mana_burn").value)
        if burn:
            life = turn.seats.life
            for player, amount in pools.items():
                if player in life and amount > 0:
                    life[player] -= amount
                    turn.mana.burned.add(player)
                    turn.field.changed = True
        for what, concept in empty_pools(pools, burn=burn):
            turn.note(what, concept)


def end_combat(turn: Turn) -> None:
    """When the end of combat step ends, every creature leaves combat."""
    creatures = turn.field.creatures
    if any(c.in_combat for c in creatures.values()):
        turn.note("Fin de la phase de combat : toutes les créatures sont retirées du combat.",
                  "combat.end")
    for name, creature in creatures.items():
        if creature.attacking or creature.blocking or creature.blocked:
            creatures[name] = replace(creature, attacking=False, blocking=(), blocked=False)
    turn.position.no_attackers = None  # an extra combat phase has its own declarations
    turn.combat.attackers_due = False
    ending = [e.name for e in turn.field.effects if e.until == "end_of_combat"]
    if ending:
        turn.field.effects = [e for e in turn.field.effects if e.until != "end_of_combat"]
        verb = "cessent" if len(ending) > 1 else "cesse"
        turn.note(f"Fin de la phase de combat : {', '.join(ending)} {verb} (« jusqu'à la fin "
                  "du combat »).", "effects.until")


def _triggers(turn: Turn) -> None:
    triggers = turn.start.triggers
    if not (turn.stack.waiting or triggers):
        return  # nothing waits, nothing can trigger
    moment = turn.position.moment
    key = moment.step or moment.phase
    fresh = [t for t in triggers if t.at == key and not t.entered_this_step]
    if moment.step == Step.UNTAP:
        return
    waiting = [*turn.stack.waiting, *fresh]
    turn.stack.waiting = []
    gone = [t for t in waiting if t.controller in turn.seats.left]
    if gone:  # 2010 800.4c: a player who left controls nothing put on the stack
        waiting = [t for t in waiting if t.controller not in turn.seats.left]
        turn.note(f"{', '.join(t.name for t in gone)} : {'leur' if len(gone) > 1 else 'son'} "
                  "contrôleur a quitté la partie, rien ne va sur la pile.", "multiplayer.left_triggers")
    if not waiting:
        return
    waiting.sort(key=lambda t: turn.seat(t.controller))
    for trigger in waiting:
        turn.stack.items.append(StackItem(kind="trigger", controller=trigger.controller))
    names = ", ".join(t.name for t in waiting)
    turn.note(f"Capacités déclenchées mises sur la pile, celles du joueur actif d'abord : "
              f"{names}.", f"action.triggers.{key}", "triggers.beginning")


def resolve_effect(turn: Turn, effect: tuple[str, str, int, str]) -> tuple[str, ...] | None:
    """A triggered keyword ability resolves: +N/+N or -1/-1 until end of turn to a
    creature still on the battlefield (rampage counts its blockers now: 702.20b); the
    sentence, and the concepts of the ability."""
    does, target, n, ability = effect
    if does == "poison":
        poison = turn.seats.poison
        poison[target] = poison.get(target, 0) + n
        turn.field.changed = True
        return (f"{target} reçoit {plural(n, 'marqueur')} poison ({poison[target]} en "
                "tout)", f"ability.{ability}")
    creatures = turn.field.creatures
    creature = creatures.get(target)
    if creature is None or not creature.in_play:
        return None
    if does == "pump_self_per_extra_blocker":
        blockers = sum(1 for c in creatures.values() if c.blocks(target) and c.in_combat)
        n *= max(blockers - 1, 0)
    elif does == "shrink_blocker":
        n = -1
    if n == 0:
        return (f"{target} ne gagne rien (un seul bloqueur)", f"ability.{ability}")
    turn.field.pumps.append((target, n))
    creatures[target] = replace(_pumped(creature, n), changed_by=tuple(
        dict.fromkeys((*creature.changed_by, ability))))
    turn.field.changed = True
    sign = f"+{n}/+{n}" if n > 0 else f"{n}/{n}"
    return (f"{target} a {sign} jusqu'à la fin du tour", f"ability.{ability}")


def _wear_off(turn: Turn) -> None:
    creatures = turn.field.creatures
    for name, n in turn.field.pumps:  # « until end of turn » (514.2)
        if name in creatures:
            creatures[name] = _pumped(creatures[name], -n)
    turn.field.pumps = []
    healed = [n for n, c in creatures.items() if c.damage and c.in_play]
    for name in healed:
        creatures[name] = replace(creatures[name], damage=0)
    for name, creature in creatures.items():  # control « until end of turn » ends
        if creature.control_until in ("end_of_turn", "this_turn") and creature.owner:
            creatures[name] = replace(creature, controller=creature.owner,
                                      control_until=None, changed_control=True)
            turn.note(f"Le changement de contrôle de {name} « jusqu'à la fin du tour » "
                      f"cesse : {creature.owner} la contrôle de nouveau.", "cleanup.effects")
    effects = turn.field.effects
    ending = [e.name for e in effects if e.until in ("end_of_turn", "this_turn")]
    turn.field.effects = [e for e in effects if e.until not in ("end_of_turn", "this_turn")]
    text = "Les blessures sont retirées des permanents"
    if healed:
        text += f" ({', '.join(healed)})"
    text += " et les effets « jusqu'à la fin du tour » et « ce tour-ci » cessent"
    text += f" ({', '.join(ending)})." if ending else "."
    turn.note(text, "action.damage_wears_off", *(("cleanup.effects",) if ending else ()))


def _archenemy(turn: Turn) -> None:
    if turn.start.variant == "archenemy" and turn.start.archenemy == turn.active:
        turn.note(f"{turn.active}, l'archenemy, met la première carte de son deck de "
                  "machinations à exécution (action du tour, sans la pile).", "action.archenemy")


def _phasing(turn: Turn) -> None:
    for what, concept in phase(turn.active, turn.field.creatures, turn.field.permanents):
        turn.note(what, concept)


def _untap(turn: Turn) -> None:
    for what, concept in untap(turn.active, turn.field.creatures, turn.field.permanents):
        turn.note(what, concept)


def _attackers_due(turn: Turn) -> None:
    turn.combat.attackers_due = True


def _blockers_due(turn: Turn) -> None:
    turn.combat.blockers_due = True


def _combat_damage(turn: Turn) -> None:
    damage_step = turn.position.moment.damage_step
    creatures = turn.field.creatures
    dealers = damage_dealers(creatures, damage_step)
    if not dealers:
        return
    names = ", ".join(c.name for c in dealers)
    board = turn.board()
    hits = default_hits(board, dealers)
    combat = turn.combat
    combat.assignment = assignment_concepts(board, dealers, damage_step=damage_step, ordered=bool(
        turn.model.fact("damage_assignment_order").value))
    if turn.model.fact("combat_damage_on_stack").value:
        combat.assigned = hits
        combat.assigned_powers = {c.name: c.power for c in dealers}
        turn.stack.items.append(StackItem(kind="combat_damage", controller=turn.active))
        turn.note(f"Les blessures de combat ({names}) sont assignées et mises sur la pile "
                  "comme un seul objet.", "action.combat_damage", "fact.combat_damage_on_stack")
    else:
        combat.dealt_without_stack = True
        kept, gone = _to_players_in_game(turn, hits)
        combat.damage = deal(creatures, hits, kept, gone, combat.assigned_powers,
                             on_stack=False, why=combat.assignment, model=turn.model)
        _lose_life(turn, combat.damage.dealt)
        turn.note(f"Les blessures de combat ({names}) sont assignées puis infligées "
                  "simultanément, sans utiliser la pile.", "action.combat_damage",
                  "action.deal_combat_damage")


def _discard(turn: Turn) -> None:
    size = turn.start.max_hand_size
    hands = turn.cards.hands
    hand = hands.get(turn.active) if turn.active in turn.seats.in_game else None  # 800.4g
    if size is not None and hand is not None and hand > size:
        hands[turn.active] = size
        turn.cards.discarded = hand - size
        turn.note(f"{turn.active} a {plural(hand, 'carte')} en main et se défausse de "
                  f"{plural(hand - size, 'carte')} (taille maximale : {size}).",
                  "action.discard")


def _draw(turn: Turn) -> None:
    active, cards = turn.active, turn.cards
    if active not in turn.seats.in_game:  # left: his turn goes on without him (2010 800.4g)
        turn.note(f"{active} a quitté la partie : son tour continue sans joueur actif, "
                  "personne ne pioche.", "action.draw", "multiplayer.left_active")
        return
    library = cards.library.get(active)
    if library is not None and library <= 0:
        # 2004 420.5g, 2010 704.5b: checked when a player would next receive priority
        cards.drew_from_empty.append(active)
        turn.field.changed = True
        turn.note(f"{active} doit piocher une carte, mais sa bibliothèque est vide.",
                  "action.draw", "sba.empty_library")
        return
    if library is not None:
        cards.library[active] = library - 1
    hand = cards.hands.get(active)
    if hand is not None:
        cards.hands[active] = hand + 1
    said = (f"{active} pioche une carte"
            + (f" ({plural(hand + 1, 'carte')} en main)" if hand is not None else ""))
    if turn.start.first_turn:  # a multiplayer game where nobody skips it
        turn.note(said + " : dans une partie multijoueur autre que le Troll à deux têtes, "
                  "le joueur qui commence ne passe pas la pioche de son premier tour.",
                  "action.draw", "fact.first_turn_draw_multiplayer")
        return
    turn.note(said + ".", "action.draw")


# The turn-based actions a game model's step may list (its actions' `what`), performed as
# the step begins; the others (`choose_defender`, `damage_order`…) change nothing replayed.
# A step's own action (the declarations, combat damage) is named after its step.
_ACTIONS: dict[str, Callable[[Turn], None]] = {
    "phasing": _phasing,
    "untap": _untap,
    "triggers": _triggers,
    "draw": _draw,
    Step.DECLARE_ATTACKERS: _attackers_due,
    Step.DECLARE_BLOCKERS: _blockers_due,
    Step.COMBAT_DAMAGE: _combat_damage,
    "discard": _discard,
    "archenemy": _archenemy,
    "damage_wears_off": _wear_off,
}


def perform_action(turn: Turn, what: str) -> None:
    """The turn-based action `what` of the step being entered."""
    action = _ACTIONS.get(what)
    if action is not None:
        action(turn)


def resolve_damage(turn: Turn) -> None:
    """Combat damage on the stack resolves: dealt as assigned, except to recipients gone."""
    combat, creatures = turn.combat, turn.field.creatures
    dealt, dropped = split_resolved(combat.assigned, creatures)
    dealt, gone = _to_players_in_game(turn, dealt)
    dropped = (*dropped, *gone)
    combat.damage = deal(creatures, combat.assigned, dealt, dropped, combat.assigned_powers,
                         on_stack=True, why=combat.assignment, model=turn.model)
    _lose_life(turn, combat.damage.dealt)
    combat.assigned = ()


def _to_players_in_game(turn: Turn, hits: tuple[Hit, ...]
                        ) -> tuple[tuple[Hit, ...], tuple[Hit, ...]]:
    """Combat damage to a player who left the game isn't dealt (2010 800.4d)."""
    left = turn.seats.left
    if not left:
        return hits, ()
    return (tuple(h for h in hits if h.target not in left),
            tuple(h for h in hits if h.target in left))


def _lose_life(turn: Turn, hits: tuple[Hit, ...]) -> None:
    """Combat damage dealt to a player whose life total is known (and to creatures); to a
    planeswalker, that many loyalty counters removed (2010 306.8); a source with lifelink
    makes its controller gain that much life (2010 702.13b)."""
    turn.field.changed = True
    life, permanents = turn.seats.life, turn.field.permanents
    for hit in hits:
        if hit.target in life:
            turn.change_life(hit.target, -hit.amount)
        walker = permanents.get(hit.target)
        if walker is not None and walker.loyalty is not None:
            permanents[hit.target] = replace(walker, loyalty=walker.loyalty - hit.amount)
        source = turn.field.creatures.get(hit.source)
        if source is not None and source.controller in life and turn.model.grants(
                source.abilities, "lifelink"):
            turn.change_life(source.controller, hit.amount)
        if source is not None and hit.target in turn.seats.in_game and hit.amount > 0:
            _damage_triggers(turn, source, hit.target)


def _damage_triggers(turn: Turn, source: Creature, player: str) -> None:
    """Keyword abilities that trigger when a creature deals combat damage to a player
    (poisonous, 2010 702.67a): on the stack, each instance apart."""
    for ability in source.abilities:
        keyword = turn.model.keyword(ability)
        if keyword is None or keyword.trigger is None or keyword.trigger[0] != (
                "combat_damage_to_player"):
            continue
        for n in [int(v) for v in source.params(ability)] or [1]:
            turn.stack.items.append(StackItem(kind="trigger", controller=source.controller,
                                              effect=(keyword.trigger[1], player, n, ability)))
            turn.note(f"{source.name} inflige des blessures de combat à {player} : sa "
                      f"capacité {ability} se déclenche et va sur la pile.", f"ability.{ability}")


def _pumped(creature: Creature, n: int) -> Creature:
    """+n/+n (or -n/-n) on a creature whose power and toughness are said."""
    return replace(creature,
                   power=None if creature.power is None else creature.power + n,
                   toughness=None if creature.toughness is None else creature.toughness + n)
