"""Turn-based actions that change permanents and pools: the untap step's phasing and untapping,
and mana pools emptying as a step or phase ends (with mana burn where the edition has it).

Mutate the replay's tables; return the trail's French sentences with the concept deciding each.
`TurnActions` performs the turn-based actions the edition's game model lists at the start of
each step (phasing, untapping, triggers, draw, combat damage, discard, damage wearing off) and
what ends with a step or phase (mana, combat).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from judge.game.objects import Permanent, StackItem
from judge.game.situationmodel import Creature
from judge.legality.damage import Hit, assignment_concepts, default_hits
from judge.legality.words import plural
from judge.procedure.combatdamage import damage_dealers, deal, split_resolved
from judge.procedure.state import TurnState

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


class TurnActions(TurnState):
    """The turn-based actions the edition's game model lists at the start of a step (and the
    mana and combat endings as a step or phase ends)."""

    def _empty_mana(self, *, phase_ends: bool) -> None:
        """Unused mana empties when a step ends, or only when a phase ends (with mana burn)."""
        if not self.pools or not any(amount > 0 for amount in self.pools.values()):
            return  # no pool holds mana: nothing empties, nobody burns
        if self.model.fact("mana_empties").value == "step" or phase_ends:
            burn = bool(self.model.fact("mana_burn").value)
            if burn:
                for player, amount in self.pools.items():
                    if player in self.life and amount > 0:
                        self.life[player] -= amount
                        self.burned.add(player)
                        self.dirty = True
            for what, concept in empty_pools(self.pools, burn=burn):
                self.note(what, concept)

    def _end_combat(self) -> None:
        """When the end of combat step ends, every creature leaves combat."""
        if any(c.in_combat for c in self.creatures.values()):
            self.note("Fin de la phase de combat : toutes les créatures sont retirées du combat.",
                      "combat.end")
        for name, creature in self.creatures.items():
            if creature.attacking or creature.blocking or creature.blocked:
                self.creatures[name] = replace(creature, attacking=False, blocking=(),
                                               blocked=False)
        self.no_attackers = None  # an extra combat phase has its own declarations
        self.pending_attackers = False
        ending = [e.name for e in self.effects if e.until == "end_of_combat"]
        if ending:
            self.effects = [e for e in self.effects if e.until != "end_of_combat"]
            verb = "cessent" if len(ending) > 1 else "cesse"
            self.note(f"Fin de la phase de combat : {', '.join(ending)} {verb} (« jusqu'à la fin "
                      "du combat »).", "effects.until")

    def _phasing(self) -> None:
        for what, concept in phase(self.active, self.creatures, self.permanents):
            self.note(what, concept)

    def _untap(self) -> None:
        for what, concept in untap(self.active, self.creatures, self.permanents):
            self.note(what, concept)

    def _triggers(self) -> None:
        if not (self.pending or self.start.triggers):
            return  # nothing waits, nothing can trigger
        key = self.moment.step or self.moment.phase
        fresh = [t for t in self.start.triggers if t.at == key and not t.entered_this_step]
        if self.moment.step == "untap":
            return
        waiting = [*self.pending, *fresh]
        self.pending = []
        if not waiting:
            return
        waiting.sort(key=lambda t: self._seat(t.controller))
        for trigger in waiting:
            self.stack.append(StackItem(kind="trigger", controller=trigger.controller))
        names = ", ".join(t.name for t in waiting)
        self.note(f"Capacités déclenchées mises sur la pile, celles du joueur actif d'abord : "
                  f"{names}.", f"action.triggers.{key}", "triggers.beginning")

    def _resolve_effect(self, effect: tuple[str, str, int, str]) -> tuple[str, ...] | None:
        """A triggered keyword ability resolves: +N/+N or -1/-1 until end of turn to a
        creature still on the battlefield (rampage counts its blockers now: 702.20b); the
        sentence, and the concepts of the ability."""
        does, target, n, ability = effect
        if does == "poison":
            self.poison[target] = self.poison.get(target, 0) + n
            self.dirty = True
            return (f"{target} reçoit {plural(n, 'marqueur')} poison ({self.poison[target]} en "
                    "tout)", f"ability.{ability}")
        creature = self.creatures.get(target)
        if creature is None or not creature.in_play:
            return None
        if does == "pump_self_per_extra_blocker":
            blockers = sum(1 for c in self.creatures.values() if c.blocks(target) and c.in_combat)
            n *= max(blockers - 1, 0)
        elif does == "shrink_blocker":
            n = -1
        if n == 0:
            return (f"{target} ne gagne rien (un seul bloqueur)", f"ability.{ability}")
        self.pumps.append((target, n))
        self.creatures[target] = replace(_pumped(creature, n), changed_by=tuple(
            dict.fromkeys((*creature.changed_by, ability))))
        self.dirty = True
        sign = f"+{n}/+{n}" if n > 0 else f"{n}/{n}"
        return (f"{target} a {sign} jusqu'à la fin du tour", f"ability.{ability}")

    def _wear_off(self) -> None:
        for name, n in self.pumps:  # « until end of turn » (514.2)
            if name in self.creatures:
                self.creatures[name] = _pumped(self.creatures[name], -n)
        self.pumps = []
        healed = [n for n, c in self.creatures.items() if c.damage and c.in_play]
        for name in healed:
            self.creatures[name] = replace(self.creatures[name], damage=0)
        for name, creature in self.creatures.items():  # control « until end of turn » ends
            if creature.control_until in ("end_of_turn", "this_turn") and creature.owner:
                self.creatures[name] = replace(creature, controller=creature.owner,
                                               control_until=None, changed_control=True)
                self.note(f"Le changement de contrôle de {name} « jusqu'à la fin du tour » "
                          f"cesse : {creature.owner} la contrôle de nouveau.", "cleanup.effects")
        ending = [e.name for e in self.effects if e.until in ("end_of_turn", "this_turn")]
        self.effects = [e for e in self.effects if e.until not in ("end_of_turn", "this_turn")]
        text = "Les blessures sont retirées des permanents"
        if healed:
            text += f" ({', '.join(healed)})"
        text += " et les effets « jusqu'à la fin du tour » et « ce tour-ci » cessent"
        text += f" ({', '.join(ending)})." if ending else "."
        self.note(text, "action.damage_wears_off", *(("cleanup.effects",) if ending else ()))

    def _action(self, what: str) -> None:
        if what == "phasing":
            self._phasing()
        elif what == "untap":
            self._untap()
        elif what == "triggers":
            self._triggers()
        elif what == "draw":
            self._draw()
        elif what == "declare_attackers":
            self.pending_attackers = True
        elif what == "declare_blockers":
            self.pending_blockers = True
        elif what == "combat_damage":
            self._combat_damage(self.moment.damage_step)
        elif what == "discard":
            self._discard()
        elif what == "archenemy" and self.start.variant == "archenemy" and (
                self.start.archenemy == self.active):
            self.note(f"{self.active}, l'archenemy, met la première carte de son deck de "
                      "machinations à exécution (action du tour, sans la pile).",
                      "action.archenemy")
        elif what == "damage_wears_off":
            self._wear_off()

    def _draw(self) -> None:
        library = self.library.get(self.active)
        if library is not None and library <= 0:
            # 2004 420.5g, 2010 704.5b: checked when a player would next receive priority
            self.drew_empty.append(self.active)
            self.dirty = True
            self.note(f"{self.active} doit piocher une carte, mais sa bibliothèque est vide.",
                      "action.draw", "sba.empty_library")
            return
        if library is not None:
            self.library[self.active] = library - 1
        hand = self.hands.get(self.active)
        if hand is not None:
            self.hands[self.active] = hand + 1
        said = (f"{self.active} pioche une carte"
                + (f" ({plural(hand + 1, 'carte')} en main)" if hand is not None else ""))
        if self.start.first_turn:  # a multiplayer game where nobody skips it
            self.note(said + " : dans une partie multijoueur autre que le Troll à deux têtes, "
                      "le joueur qui commence ne passe pas la pioche de son premier tour.",
                      "action.draw", "fact.first_turn_draw_multiplayer")
            return
        self.note(said + ".", "action.draw")

    def _combat_damage(self, damage_step: str | None) -> None:
        dealers = damage_dealers(self.creatures, damage_step)
        if not dealers:
            return
        names = ", ".join(c.name for c in dealers)
        board = self.board()
        hits = default_hits(board, dealers)
        self.why = assignment_concepts(board, dealers, damage_step=damage_step, ordered=bool(
            self.model.fact("damage_assignment_order").value))
        if self.model.fact("combat_damage_on_stack").value:
            self.assigned = hits
            self.powers = {c.name: c.power for c in dealers}
            self.stack.append(StackItem(kind="combat_damage", controller=self.active))
            self.note(f"Les blessures de combat ({names}) sont assignées et mises sur la pile "
                      "comme un seul objet.", "action.combat_damage", "fact.combat_damage_on_stack")
        else:
            self.dealt = True
            kept, gone = self._to_players_in_game(hits)
            self.damage = deal(self.creatures, hits, kept, gone, self.powers, on_stack=False,
                               why=self.why, model=self.model)
            self._lose_life(self.damage.dealt)
            self.note(f"Les blessures de combat ({names}) sont assignées puis infligées "
                      "simultanément, sans utiliser la pile.", "action.combat_damage",
                      "action.deal_combat_damage")

    def _discard(self) -> None:
        size = self.start.max_hand_size
        hand = self.hands.get(self.active)
        if size is not None and hand is not None and hand > size:
            self.hands[self.active] = size
            self.discarded = hand - size
            self.note(f"{self.active} a {plural(hand, 'carte')} en main et se défausse de "
                      f"{plural(hand - size, 'carte')} (taille maximale : {size}).",
                      "action.discard")

    def _resolve_damage(self) -> None:
        """Combat damage on the stack resolves: dealt as assigned, except to recipients gone."""
        dealt, dropped = split_resolved(self.assigned, self.creatures)
        dealt, gone = self._to_players_in_game(dealt)
        dropped = (*dropped, *gone)
        self.damage = deal(self.creatures, self.assigned, dealt, dropped, self.powers,
                           on_stack=True, why=self.why, model=self.model)
        self._lose_life(self.damage.dealt)
        self.assigned = ()

    def _to_players_in_game(self, hits: tuple[Hit, ...]) -> tuple[tuple[Hit, ...], tuple[Hit, ...]]:
        """Combat damage to a player who left the game isn't dealt (2010 800.4d)."""
        if not self.left:
            return hits, ()
        return (tuple(h for h in hits if h.target not in self.left),
                tuple(h for h in hits if h.target in self.left))

    def _lose_life(self, hits: tuple[Hit, ...]) -> None:
        """Combat damage dealt to a player whose life total is known (and to creatures); to a
        planeswalker, that many loyalty counters removed (2010 306.8); a source with lifelink
        makes its controller gain that much life (2010 702.13b)."""
        self.dirty = True
        for hit in hits:
            if hit.target in self.life:
                self.life[hit.target] -= hit.amount
            walker = self.permanents.get(hit.target)
            if walker is not None and walker.loyalty is not None:
                self.permanents[hit.target] = replace(walker, loyalty=walker.loyalty - hit.amount)
            source = self.creatures.get(hit.source)
            if source is not None and source.controller in self.life and self.model.grants(
                    source.abilities, "lifelink"):
                self.life[source.controller] += hit.amount
            if source is not None and hit.target in self.players and hit.amount > 0:
                self._damage_triggers(source, hit.target)

    def _damage_triggers(self, source: Creature, player: str) -> None:
        """Keyword abilities that trigger when a creature deals combat damage to a player
        (poisonous, 2010 702.67a): on the stack, each instance apart."""
        for ability in source.abilities:
            keyword = self.model.keyword(ability)
            if keyword is None or keyword.trigger is None or keyword.trigger[0] != (
                    "combat_damage_to_player"):
                continue
            for n in [int(v) for v in source.params(ability)] or [1]:
                self.stack.append(StackItem(kind="trigger", controller=source.controller,
                                            effect=(keyword.trigger[1], player, n, ability)))
                self.note(f"{source.name} inflige des blessures de combat à {player} : sa "
                          f"capacité {ability} se déclenche et va sur la pile.", f"ability.{ability}")


def _pumped(creature: Creature, n: int) -> Creature:
    """+n/+n (or -n/-n) on a creature whose power and toughness are said."""
    return replace(creature,
                   power=None if creature.power is None else creature.power + n,
                   toughness=None if creature.toughness is None else creature.toughness + n)
