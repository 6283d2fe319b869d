"""Noncombat damage in the replay: a spell or ability dealing damage to a player, a creature or
a planeswalker (2010 119.3), the redirection of damage to a player onto one of that player's
planeswalkers (2010 306.7), loyalty counters removed (306.8); the state-based actions that
follow are the replay's (`Turn.state_based`, after the event).

Owns the event's checks (IllegalEvent citing the rule) and its results; the damage's record
for the questions is `Turn.noncombat` (`Hit`s, in the order dealt).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from judge.errors import IllegalEvent
from judge.legality.combat import has_quality
from judge.legality.damage import Hit
from judge.legality.words import plural
from judge.procedure.priority import act, holding

if TYPE_CHECKING:
    from judge.game.events import DealDamage
    from judge.game.situationmodel import Creature
    from judge.procedure.state import Turn


def _controller(turn: Turn, event: DealDamage, holder: str) -> str:
    """The source's controller: said, or the controller of the permanent named, or the player
    holding priority (whose spell or ability resolves)."""
    if event.controller is not None:
        return event.controller
    thing = turn.field.creatures.get(event.source) or turn.field.permanents.get(event.source)
    return thing.controller if thing is not None else holder


def _redirected(turn: Turn, index: int, event: DealDamage, controller: str) -> str:
    """The planeswalker the damage to a player goes to instead (2010 306.7), checked."""
    walker_name = event.redirect_to or ""
    rule = turn.rule("damage.redirect")
    if not turn.model.rules("damage.redirect"):
        raise IllegalEvent(index, f"l'édition {turn.edition} n'a pas de planeswalkers : aucune "
                           "blessure n'est redirigée vers un planeswalker",
                           turn.rule("walker.none"))
    walker = turn.field.permanents.get(walker_name)
    if walker is None or "planeswalker" not in walker.card_types:
        raise IllegalEvent(index, f"{walker_name} n'est pas un planeswalker sur le champ de "
                           "bataille : les blessures ne peuvent être redirigées que vers un "
                           "planeswalker", rule)
    if event.to not in turn.seats.in_game:
        raise IllegalEvent(index, "seules des blessures qui seraient infligées à un joueur "
                           "peuvent être redirigées vers un planeswalker de ce joueur", rule)
    if walker.controller != event.to:
        raise IllegalEvent(index, f"{walker_name} est contrôlé par {walker.controller}, pas par "
                           f"{event.to} : les blessures ne vont qu'à un planeswalker du joueur "
                           "qui les recevrait", rule)
    if controller == event.to or controller in turn.teammates(event.to):
        raise IllegalEvent(index, f"la source ({event.source}) est contrôlée par {controller}, "
                           f"qui n'est pas un adversaire de {event.to} : seul un adversaire "
                           "peut rediriger vers un planeswalker", rule)
    return walker_name


def deal_noncombat(turn: Turn, index: int, event: DealDamage) -> None:
    """A spell or ability deals noncombat damage, while a player holds priority (that player
    keeps it); the state-based actions are checked after (`replay._play`)."""
    holder = holding(turn, index)
    controller = _controller(turn, event, holder)
    recipient = event.to
    concepts: list[str] = []
    said = ""
    if event.redirect_to is not None:
        recipient = _redirected(turn, index, event, controller)
        concepts.append("damage.redirect")
        said = (f" ; {controller}, adversaire de {event.to}, les redirige vers {recipient}, un "
                f"planeswalker de {event.to} (des blessures non de combat seulement)")
    if recipient in turn.seats.left:
        raise IllegalEvent(index, f"{recipient} a quitté la partie : rien ne peut plus lui être "
                           "infligé", turn.rule("multiplayer.left"))
    source = turn.field.creatures.get(event.source)
    result, more = _result(turn, index, recipient, event.amount, source)
    concepts += more
    gained = _lifelink(turn, source, event.amount if "damage.prevented" not in more else 0)
    if gained:
        concepts.append("ability.lifelink")
        result += f" ; lien de vie : {gained}"
    turn.noncombat.append(Hit(source=event.source, target=recipient,
                              amount=0 if "damage.prevented" in more else event.amount))
    turn.field.changed = True
    act(turn, holder, None)
    turn.note(f"{event.source} ({controller}) inflige {plural(event.amount, 'blessure')} non de "
              f"combat à {event.to}{said} : {result}.", *dict.fromkeys(concepts), event=index)


def _result(turn: Turn, index: int, recipient: str, amount: int, source: Creature | None
            ) -> tuple[str, list[str]]:
    """What the damage does to its recipient (2010 119.3a–d), and the concepts saying so."""
    if amount == 0:
        return "une source qui infligerait 0 blessure n'en inflige aucune", ["damage.zero"]
    if recipient in turn.seats.in_game:
        if not turn.knows_life(recipient):
            return f"{recipient} perd autant de points de vie", ["damage.to_player"]
        total = turn.change_life(recipient, -amount)
        team = turn.teammates(recipient) if turn.shared_life else ()
        shared = (f" (le total partagé de l'équipe {', '.join((recipient, *team))})"
                  if team else "")
        return (f"{recipient} perd {plural(amount, 'point')} de vie, il en reste {total}{shared}",
                ["damage.to_player", *(["team.life"] if team else [])])
    walker = turn.field.permanents.get(recipient)
    if walker is not None:
        if "planeswalker" not in walker.card_types:
            raise IllegalEvent(index, f"{recipient} n'est ni une créature ni un planeswalker : "
                               "seuls les créatures, les planeswalkers et les joueurs reçoivent "
                               "des blessures", turn.rule("damage.recipients"))
        if walker.loyalty is None:
            return (f"{recipient} perd autant de marqueurs loyauté (sa loyauté n'est pas dite)",
                    ["walker.damage"])
        loyalty = walker.loyalty - amount
        turn.field.permanents[recipient] = replace(walker, loyalty=loyalty)
        return (f"{plural(amount, 'marqueur')} loyauté retirés de {recipient} (loyauté "
                f"{loyalty})", ["walker.damage"])
    creature = turn.field.creatures[recipient]
    if not (creature.in_play and creature.is_creature) or creature.phased_out:
        raise IllegalEvent(index, f"{recipient} n'est plus une créature sur le champ de "
                           "bataille : rien ne lui est infligé", turn.rule("damage.recipients"))
    return _to_creature(turn, recipient, creature, amount, source)


def _to_creature(turn: Turn, name: str, creature: Creature, amount: int, source: Creature | None
                 ) -> tuple[str, list[str]]:
    model = turn.model
    abilities = source.abilities if source is not None else ()
    if source is not None and model.grants(creature.abilities, "protection") and any(
            has_quality(source, q) for q in creature.params("protection")):
        return (f"la protection de {name} prévient ces blessures",
                ["ability.protection.damage", "damage.prevented"])
    if abilities and model.grants(abilities, "damage_as_counters"):
        turn.field.creatures[name] = replace(
            creature, power=None if creature.power is None else creature.power - amount,
            toughness=None if creature.toughness is None else creature.toughness - amount)
        return (f"le flétrissement les change en {plural(amount, 'marqueur')} -1/-1 sur {name}",
                ["damage.to_creature", "ability.wither"])
    marked = replace(creature, damage=creature.damage + amount)
    concepts = ["damage.to_creature"]
    if abilities and model.grants(abilities, "destroys_damaged"):
        marked = replace(marked, deathtouch_damage=True)
        concepts.append("ability.deathtouch")
    turn.field.creatures[name] = marked
    marks = "marquées" if marked.damage > 1 else "marquée"
    return (f"{plural(marked.damage, 'blessure')} {marks} sur {name}"
            + (" (une source avec le contact mortel)" if marked.deathtouch_damage else ""),
            concepts)


def _lifelink(turn: Turn, source: Creature | None, amount: int) -> str:
    """A source with lifelink: its controller gains that much life (2010 119.3e, 702.13b)."""
    if source is None or amount <= 0 or not turn.model.grants(source.abilities, "lifelink"):
        return ""
    if not turn.knows_life(source.controller):
        return f"{source.controller} gagne {plural(amount, 'point')} de vie"
    total = turn.change_life(source.controller, amount)
    return f"{source.controller} gagne {plural(amount, 'point')} de vie ({total})"
