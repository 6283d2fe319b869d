"""« J'ai compris : … »: what `judge ask` understood, in French, before any answer.

Owns the sentence: the edition, whose turn, the moment, the objects, the question as a judge
would restate it; for a question not fully understood, what was understood, the words that
were not, and why nothing is answered.
"""

from __future__ import annotations

from typing import Any

from judge.ask.build import FIRST, Plan, other
from judge.ask.parts import Part

_PLACES = {
    "untap": "étape de dégagement", "upkeep": "étape d'entretien", "draw": "étape de pioche",
    "precombat_main": "première phase principale", "beginning_of_combat": "étape de début du combat",
    "declare_attackers": "étape de déclaration des attaquants",
    "declare_blockers": "étape de déclaration des bloqueurs", "combat_damage": "étape des blessures de combat",
    "end_of_combat": "étape de fin du combat", "postcombat_main": "seconde phase principale",
    "end_of_turn": "étape de fin du tour", "cleanup": "étape de nettoyage", "beginning": "phase de début",
    "combat": "phase de combat", "ending": "phase de fin",
}
_KINDS = {"instant": "un éphémère", "sorcery": "un rituel", "creature": "un sort de créature",
          "artifact": "un artefact", "enchantment": "un enchantement", "planeswalker": "un planeswalker",
          "ability": "une capacité activée", "trigger": "une capacité déclenchée"}
_ABILITIES = {"haste": "célérité", "first_strike": "initiative", "double_strike": "double initiative",
              "defender": "défenseur", "vigilance": "vigilance", "trample": "piétinement", "flash": "flash",
              "flying": "vol", "reach": "portée", "fear": "peur", "banding": "regroupement"}


def who(player: str, me: str) -> str:
    return f"{player} (vous)" if player == me else f"{player} (votre adversaire)"


def _creature(data: dict[str, Any]) -> str:
    text = str(data["name"])
    details = []
    if data.get("abilities"):
        details.append(", ".join(_ABILITIES.get(a, a) for a in data["abilities"]))
    if "Mur" in data.get("types", ()):
        details.append("un Mur")
    if data.get("since_turn_start") is False:
        details.append("arrivée ce tour-ci")
    if data.get("tapped"):
        details.append("engagée")
    if data.get("attacking"):
        details.append("attaquante")
    if data.get("blocking"):
        details.append(f"bloque {data['blocking']}")
    return text + (f" ({' ; '.join(details)})" if details else "")


def _question(plan: Plan, question: dict[str, Any]) -> str:
    ask = question["ask"]
    player = question.get("player")
    if ask == "cast":
        return f"{player} demande s'il peut lancer {_KINDS.get(question['kind'], question['kind'])}"
    if ask == "play_land":
        return f"{player} demande s'il peut jouer un terrain"
    if ask == "attack":
        return f"{question['creature']} peut-elle attaquer ?"
    if ask == "block":
        return f"{question['creature']} peut-elle bloquer {question['attacker']} ?"
    if ask == "priority":
        return "qui reçoit la priorité ?"
    if ask == "where":
        return "où en est le tour ?"
    if ask == "next":
        return "qu'est-ce qui suit ?"
    if ask == "defending_players":
        return "qui sont les joueurs défenseurs ?"
    if ask == "defending_player":
        return f"qui est le joueur défenseur pour {question['creature']} ?"
    if ask == "in_combat":
        return f"{question['creature']} est-elle encore en combat ?"
    if ask == "untap":
        return "que se passe-t-il au dégagement ?"
    if ask == "cleanup":
        return "que se passe-t-il au nettoyage ?"
    if ask == "rest_of_turn":
        return "que reste-t-il du tour ?"
    if ask == "assign_damage":
        shares = ", ".join(f"{n} à {t}" for t, n in question["assignment"].items())
        return f"{question['creature']} peut-elle assigner {shares} ?"
    if ask == "discard":
        return f"combien de cartes {player} défausse-t-il au nettoyage ?"
    if ask == "mana_burn":
        return f"combien de points de vie {player} perd-il par brûlure de mana ?"
    if ask == "damage_dealt":
        if "to_player" in plan.notes:
            return f"combien de blessures {other(FIRST)} reçoit-il ?"
        return "quelles blessures de combat sont infligées ?"
    if ask == "damage_steps":
        return "combien d'étapes de blessures de combat ?"
    if ask == "deals_damage":
        return f"{question['creature']} inflige-t-elle ses blessures maintenant ?"
    return str(ask)


def understood_as(plan: Plan | None, parts: tuple[Part, ...], unknown: tuple[str, ...],
                  reason: str | None) -> str:
    """The French sentence shown before the answer (or instead of it)."""
    if plan is None:
        said = [_part(p) for p in parts]
        said = [s for s in said if s]
        text = "J'ai compris : " + (" ; ".join(said) if said else "rien") + "."
        if unknown:
            text += " Je n'ai pas compris : " + ", ".join(f"« {w} »" for w in unknown) + "."
        if reason:
            text += f" Il manque : {reason}." if not unknown else f" ({reason}.)"
        return text + " Je ne réponds pas à une question que je n'ai pas entièrement comprise."
    pieces = [f"règles de {plan.edition}", f"c'est le tour de {who(FIRST, plan.me)}"]
    if plan.damage_step:
        pieces.append("première étape de blessures (initiative)" if plan.damage_step == "first_strike"
                      else "seconde étape de blessures")
    if plan.skip:
        pieces.append("sauté ce tour-ci : " + ", ".join(_PLACES.get(s, s) for s in plan.skip))
    if plan.first_turn:
        pieces.append("premier tour de la partie")
    if plan.events is not None:
        pieces.append(f"le tour rejoué depuis son début ({len(plan.events)} événements)")
    elif plan.phase is not None:
        place = _PLACES.get(plan.step or plan.phase, plan.step or plan.phase)
        if plan.moment_end:
            place = ("à la fin de l'" if place.startswith("étape") else "à la fin de la ") + place
        pieces.append(place)
    pieces.extend(n for n in plan.notes if n != "to_player")
    if plan.stack:
        pieces.append("sur la pile : " + ", ".join(
            f"{_KINDS.get(i['kind'], i['kind'])} de {i['controller']}" for i in plan.stack))
    if plan.priority:
        pieces.append(f"{plan.priority} a la priorité")
    for player, count in plan.hands.items():
        pieces.append(f"{player} a {count} carte{'s' if count > 1 else ''} en main")
    for player, amount in plan.mana.items():
        pieces.append(f"{player} a {amount} mana inutilisé{'s' if amount > 1 else ''} dans sa réserve")
    if plan.lands_played:
        pieces.append("un terrain déjà joué ce tour-ci")
    for creature in plan.creatures:
        pieces.append(_creature(creature))
    for question in plan.questions:
        pieces.append(_question(plan, question))
    return "J'ai compris : " + " ; ".join(pieces) + "."


def _part(part: Part) -> str:
    values = part.values
    if part.kind == "edition":
        if "year" in values:
            return f"règles de {values['year']}"
        if "before" in values:
            return f"règles d'avant {values['before']}"
        if "mana_burn" in values:
            return "règles " + ("avec" if values["mana_burn"] else "sans") + " brûlure de mana"
        return "anciennes règles"
    if part.kind == "moment":
        return _PLACES.get(values["step"] or values["phase"] or "", "")
    if part.kind == "question":
        return str({"cast": "pouvoir lancer un sort", "play_land": "pouvoir jouer un terrain",
                "attack": "pouvoir attaquer", "block": "pouvoir bloquer", "priority": "qui a la priorité",
                "where": "où en est le tour", "next": "ce qui suit", "discard": "combien défausser",
                "mana_burn": "la brûlure de mana", "damage_dealt": "les blessures infligées",
                "damage_steps": "le nombre d'étapes de blessures",
                "deals_damage": "si une créature inflige ses blessures"}.get(values["ask"], values["ask"]))
    if part.kind == "turn":
        return "le tour d'un joueur"
    if part.kind in ("creature", "blocked", "attack"):
        return "une créature"
    if part.kind == "stack":
        return "la pile"
    if part.kind == "mana":
        return f"{values['amount']} mana"
    if part.kind == "hand":
        return f"{values['count']} cartes en main"
    return ""
