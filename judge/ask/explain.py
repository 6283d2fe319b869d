"""« J'ai compris : … »: what `judge ask` understood, in French, before any answer.

Owns the sentence: the edition, whose turn, the moment, the objects, the question as a judge
would restate it; for a question not fully understood, what was understood, the words that
were not, and why nothing is answered.
"""

from __future__ import annotations

from typing import Any

from judge.ask.build import Plan
from judge.ask.parts import Part
from judge.checks.questions import KIND_LABELS, QUESTION_BY_ASK
from judge.checks.report import question_text
from judge.game.aliases import ABILITY_NAMES
from judge.game.turnplan import PHASE_LABELS, STEP_LABELS

_UNTIL = {"end_of_turn": "jusqu'à la fin du tour", "end_of_combat": "jusqu'à la fin du combat",
          "this_turn": "ce tour-ci"}


def _place(slug: str) -> str:
    """A step or a phase as the checks' answers name it (« l'étape « entretien » » there)."""
    if slug in STEP_LABELS:
        return f"étape « {STEP_LABELS[slug]} »"
    return PHASE_LABELS.get(slug, slug)


def _ability(slug: str) -> str:
    names = ABILITY_NAMES.get(slug, ())
    return names[0] if names else slug


def who(player: str, plan: Plan) -> str:
    if plan.players:
        return player
    if player in plan.names:
        return f"{plan.names[player]} ({player})"
    if plan.told_of:
        return f"{player} (le joueur actif)" if player == plan.active else f"{player} (le joueur non actif)"
    return f"{player} (vous)" if player == plan.me else f"{player} (votre adversaire)"


_COLORS = {"white": "blanche", "blue": "bleue", "black": "noire", "red": "rouge", "green": "verte"}


def _creature(data: dict[str, Any]) -> str:
    text = str(data["name"])
    details = []
    if data.get("abilities"):
        details.append(", ".join(_ability(a) for a in data["abilities"]))
    if "Mur" in data.get("types", ()):
        details.append("un Mur")
    if "artifact" in data.get("card_types", ()):
        details.append("créature-artefact")
    if data.get("colors"):
        details.append(", ".join(_COLORS.get(c, c) for c in data["colors"]))
    if data.get("power") is not None and str(data.get("name", "")).split(" ")[0] != f"{data['power']}/{data['toughness']}":
        details.append(f"{data['power']}/{data['toughness']}")
    if data.get("tapped") is False:
        details.append("dégagée")
    if data.get("since_turn_start") is False:
        details.append("arrivée ce tour-ci")
    if data.get("tapped"):
        details.append("engagée")
    if data.get("damage"):
        details.append(f"{data['damage']} blessure{'s' if data['damage'] > 1 else ''}")
    if data.get("cant_attack_alone"):
        details.append("ne peut pas attaquer seule")
    if data.get("attack_cost"):
        details.append(f"coût d'attaque : {data['attack_cost']} mana")
    if data.get("blocked"):
        details.append("bloquée")
    if data.get("attacking"):
        details.append("attaquante")
    if data.get("attacks"):
        details.append(f"attaque {data['attacks']}")
    if data.get("blocking"):
        details.append(f"bloque {data['blocking']}")
    return text + (f" ({' ; '.join(details)})" if details else "")


def _question(question: dict[str, Any]) -> str:
    """The question as the report words it (`judge.checks.questions`, one home for them)."""
    text = question_text(question["ask"], tuple((k, v) for k, v in question.items() if k != "ask"))
    return text[:1].lower() + text[1:]


def understood_as(plan: Plan | None, parts: tuple[Part, ...], unknown: tuple[str, ...],
                  reason: str | None) -> str:
    """The French sentence shown before the answer (or instead of it)."""
    if plan is None:
        said = _counted([s for s in (_part(p) for p in parts) if s])
        text = _sentence("J'ai compris : " + (_listed(said) if said else "rien"))
        if unknown:
            text += " Je n'ai pas compris : " + ", ".join(f"« {w} »" for w in unknown) + "."
        if reason:
            end = "" if reason.endswith(("?", ".")) else "."
            text += f" Il manque : {reason}{end}" if not unknown else f" ({reason}{end})"
        return text + " Je ne réponds pas à une question que je n'ai pas entièrement comprise."
    pieces = [f"règles de {plan.edition}"]
    if plan.players:
        pieces.append(f"{len(plan.players)} joueurs dans l'ordre du tour : {', '.join(plan.players)}")
        for team in plan.game.get("teams", ()):
            pieces.append("équipe de " + " et ".join(team))
        if plan.game.get("archenemy"):
            pieces.append(f"archennemi : {plan.game['archenemy']}")
    whose = who(plan.active, plan)
    turn = "c'est votre tour" if whose == "moi" else "c'est le tour " + (f"d'{whose}" if whose[:1] in "AEIOUYÉÈÂÎÔaeiouyéèâîô" and len(whose.split()[0]) > 1
                               else f"de {whose}")
    if not plan.turn_said and not plan.players and plan.events is None:
        turn += " — je le suppose : la question ne le dit pas"
    pieces.append(turn)
    if plan.extra_turns:
        pieces.append("tours supplémentaires créés ce tour-ci, dans l'ordre : " + ", ".join(plan.extra_turns))
    if plan.damage_step:
        pieces.append("première étape de blessures (initiative)" if plan.damage_step == "first_strike"
                      else "seconde étape de blessures")
    if plan.skip:
        pieces.append("sauté ce tour-ci : " + ", ".join(_place(s) for s in plan.skip))
    if plan.first_turn:
        pieces.append("premier tour de la partie")
    if plan.events is not None:
        pieces.append(f"le tour rejoué depuis son début ({len(plan.events)} événements)")
    elif plan.phase is not None:
        place = _place(plan.step or plan.phase)
        if plan.moment_end:
            place = ("à la fin de l'" if place.startswith("étape") else "à la fin de la ") + place
        pieces.append(place)
    pieces.extend(n for n in plan.notes if n != "to_player")
    if plan.stack and plan.events is None:
        pieces.append("sur la pile : " + ", ".join(
            f"{KIND_LABELS.get(i['kind'], i['kind'])} de {i['controller']}" for i in plan.stack))
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
    for walker in plan.permanents:
        pieces.append(f"le planeswalker {walker['name']} de {walker['controller']}")
    for trigger in plan.triggers:
        late = " (arrivée pendant l'étape)" if trigger.get("entered_this_step") else ""
        pieces.append(f"{trigger['name']}{late} : capacité déclenchée de {trigger['controller']} au début de "
                      f"{'l' + chr(39) if trigger['at'] in STEP_LABELS else 'la '}{_place(trigger['at'])}")
    for waiting in plan.pending_triggers:
        pieces.append(f"{waiting['name']} : capacité déclenchée de {waiting['controller']} en attente d'aller sur la pile")
    for effect in plan.effects:
        pieces.append(f"effet « {effect['name']} » {_UNTIL.get(effect['until'], effect['until'])}")
    for question in plan.questions:
        if question["ask"] == "damage_dealt" and "to_player" in plan.notes:
            pieces.append("combien de blessures de combat le joueur défenseur reçoit-il ?")
        else:
            pieces.append(_question(question))
    return _sentence("J'ai compris : " + " ; ".join(pieces))


def out_of_scope_said(words: tuple[str, ...]) -> str:
    """Why a question about a card's text, layers, tournaments, deck building or targets is
    declined: the words that said it."""
    return ("Hors de mon champ : la question parle de " + ", ".join(f"« {w} »" for w in words)
            + " ; je vérifie la structure du tour et le combat (phases, étapes, priorité, attaques, "
            "blocages, blessures), pas le texte d'une carte, les couches, les cibles, la construction "
            "d'un deck ni les pénalités de tournoi. Voici les règles qui en parlent peut-être.")


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
        slug = values["step"] or values["phase"]
        return _place(slug) if slug else ""
    if part.kind == "question":
        spec = QUESTION_BY_ASK.get(values["ask"])
        label = spec.label if spec is not None else "Que se passe-t-il ?"  # `happens`: untap or cleanup
        return f"la question « {label[:1].lower() + label[1:]} »"
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


_PLURALS = {"une créature": "créatures", "la pile": "la pile"}


def _counted(pieces: list[str]) -> list[str]:
    """Each thing said once, in order: « une créature » said three times is « 3 créatures »."""
    counts: dict[str, int] = {}
    for piece in pieces:
        counts[piece] = counts.get(piece, 0) + 1
    out = []
    for piece, count in counts.items():
        if count > 1 and piece in _PLURALS and _PLURALS[piece] != piece:
            out.append(f"{count} {_PLURALS[piece]}")
        else:
            out.append(piece)
    return out


def _listed(pieces: list[str]) -> str:
    """« a, b et c »."""
    return pieces[0] if len(pieces) == 1 else ", ".join(pieces[:-1]) + " et " + pieces[-1]


def _sentence(text: str) -> str:
    """`text` ended with a full stop, unless it ends with a question's own mark."""
    return text if text.endswith(("?", "!", ".")) else text + "."
