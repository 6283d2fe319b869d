"""The questions a situation may ask, in French: one row per `ask`, with its parameters.

The one table the situation form (`judge.web.forms`) and the rule pages (« vérifiable : … »)
read; a check registered in `judge.checks.context.REGISTRY` must have its row here (a test
holds them together). Also the French names of the parameters and of the stack kinds.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.game.turnplan import Step


@dataclass(frozen=True, slots=True, kw_only=True)
class QuestionSpec:
    """A question the form offers: its `ask`, its French wording, the parameters it takes and
    the parts of a situation it reads besides the moment (`PARTS`)."""

    ask: str
    label: str
    params: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()


# The parts of a situation a question may read besides the moment: the stack, lands played,
# hands, mana, creatures, and "more" (players, skipped steps, extra turns, the attack option).
PARTS = ("stack", "lands", "hands", "mana", "creatures", "more")

# The one table of questions: a new check adds its row here and the form offers it.
QUESTIONS: tuple[QuestionSpec, ...] = (
    QuestionSpec(ask="where", label="Où en est le tour ?", reads=("stack", "more")),
    QuestionSpec(ask="priority", label="Qui reçoit la priorité ?", reads=("stack",)),
    QuestionSpec(ask="next", label="Quelle étape suit ?", reads=("more",)),
    QuestionSpec(ask="rest_of_turn", label="Que reste-t-il du tour ?", reads=("more",)),
    QuestionSpec(ask="play_land", label="Ce joueur peut-il jouer un terrain ?", params=("player",),
                 reads=("stack", "lands")),
    QuestionSpec(ask="cast", label="Ce joueur peut-il lancer un sort de ce type ?", params=("player", "kind"),
                 reads=("stack",)),
    QuestionSpec(ask="attack", label="Cette créature peut-elle attaquer ?", params=("creature",),
                 reads=("creatures",)),
    QuestionSpec(ask="block", label="Cette créature peut-elle bloquer cet attaquant ?",
                 params=("creature", "attacker"), reads=("creatures",)),
    QuestionSpec(ask="damage_steps", label="Combien d'étapes de blessures de combat ?", reads=("creatures",)),
    QuestionSpec(ask="deals_damage", label="Cette créature inflige-t-elle ses blessures maintenant ?",
                 params=("creature",), reads=("creatures",)),
    QuestionSpec(ask="discard", label="Combien de cartes ce joueur défausse-t-il au nettoyage ?",
                 params=("player",), reads=("hands", "more")),
    QuestionSpec(ask="mana_burn", label="Combien de points de vie ce joueur perd-il par brûlure de mana ?",
                 params=("player",), reads=("mana",)),
    QuestionSpec(ask="turn_order", label="À qui sont les prochains tours ?", params=("count",),
                 reads=("more",)),
    QuestionSpec(ask=Step.UNTAP, label="Que se passe-t-il au dégagement (déphasage, dégagement) ?",
                 reads=("creatures",)),
    QuestionSpec(ask="triggers", label="Quelles capacités vont sur la pile au début de l'étape, dans quel ordre ?",
                 reads=("creatures",)),
    QuestionSpec(ask=Step.DECLARE_ATTACKERS, label="Ces créatures peuvent-elles attaquer ensemble, pour quel coût ?",
                 params=("creatures",), reads=("creatures", "mana")),
    QuestionSpec(ask=Step.DECLARE_BLOCKERS, label="Ces blocages sont-ils permis, pour quel coût ?",
                 params=("blocks",), reads=("creatures", "mana")),
    QuestionSpec(ask="assign_damage", label="Cette répartition des blessures de combat est-elle permise ?",
                 params=("creature", "assignment"), reads=("creatures",)),
    QuestionSpec(ask="damage_dealt", label="Quelles blessures de combat ont été infligées ?",
                 reads=("creatures",)),
    QuestionSpec(ask="in_combat", label="Cette créature est-elle encore en combat ?", params=("creature",),
                 reads=("creatures",)),
    QuestionSpec(ask=Step.CLEANUP, label="Que se passe-t-il au nettoyage ?", reads=("hands", "more")),
    QuestionSpec(ask="defending_players", label="Qui sont les joueurs défenseurs de ce combat ?",
                 reads=("more",)),
    QuestionSpec(ask="defending_player", label="Qui est « le joueur défenseur » pour cette créature attaquante ?",
                 params=("creature",), reads=("creatures", "more")),
    QuestionSpec(ask="combat_timing", label="Un sort « seulement avant/après … » du combat peut-il "
                 "être lancé maintenant ?", params=("when",)),
)
QUESTIONS += (
    QuestionSpec(ask="state_based", label="Que font les actions basées sur un état maintenant ?",
                 reads=("creatures", "more")),
    QuestionSpec(ask="life", label="Combien de points de vie a ce joueur ?", params=("player",),
                 reads=("more",)),
    QuestionSpec(ask="poison_counters", label="Combien de marqueurs poison a ce joueur ?",
                 params=("player",), reads=("more",)),
    QuestionSpec(ask="controller", label="Qui contrôle cette créature ?", params=("creature",),
                 reads=("creatures",)),
    QuestionSpec(ask="effect_ends", label="Quand cet effet cesse-t-il ?", params=("effect",),
                 reads=("more",)),
    QuestionSpec(ask="loyalty", label="Quelle est la loyauté de ce planeswalker ?",
                 params=("permanent",), reads=("more",)),
    QuestionSpec(ask="redirect", label="Ces blessures non de combat peuvent-elles être "
                 "redirigées vers ce planeswalker ?", params=("source", "player", "planeswalker"),
                 reads=("creatures", "more")),
)
QUESTION_BY_ASK = {spec.ask: spec for spec in QUESTIONS}
PARAM_LABELS = {
    "player": "joueur", "kind": "type de sort", "creature": "créature", "attacker": "attaquant",
    "count": "nombre de tours", "creatures": "créatures attaquantes", "blocks": "blocages (bloqueur=attaquant)",
    "assignment": "répartition des blessures (cible=nombre)",
    "others": "autres assignations (créature : cible=nombre)",
    "when": "moment du combat",
    "permanent": "permanent", "source": "source des blessures", "planeswalker": "planeswalker",
    "effect": "effet",  # one of COMBAT_POINT_WORDS (the form offers them in French)
}
# The points of combat that `combat_timing`'s `when` names, as the cards word them.
COMBAT_POINT_WORDS = {
    "before_attackers": "avant la déclaration des attaquants",
    "after_attackers": "après la déclaration des attaquants",
    "before_blockers": "avant la déclaration des bloqueurs",
    "after_blockers": "après la déclaration des bloqueurs",
    "during_combat_after_blockers": "pendant le combat, après la déclaration des bloqueurs",
}
KIND_LABELS = {
    "instant": "éphémère", "sorcery": "rituel", "creature": "créature", "artifact": "artefact",
    "enchantment": "enchantement", "planeswalker": "planeswalker", "ability": "capacité activée",
    "trigger": "capacité déclenchée", "combat_damage": "blessures de combat",
}
# Registered mechanisms that answer no question, by what they do.
MECHANISM_LABELS = {"replay": "Le déroulé des actions du tour (événements rejoués) respecte-t-il cette règle ?"}


def param_text(name: str, value: object) -> str:
    """A question's parameter value in French words (a spell kind, a point of combat, blocks)."""
    if name == "kind" and isinstance(value, str):
        return KIND_LABELS.get(value, value)
    if name == "when" and isinstance(value, str):
        return COMBAT_POINT_WORDS.get(value, value)
    if isinstance(value, dict):
        arrow = " bloque " if name == "blocks" else " : "
        return ", ".join(f"{k}{arrow}{param_text('assignment', v) if isinstance(v, dict) else ' et '.join(v) if isinstance(v, list) else v}"
                         for k, v in value.items()) or "aucun"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "aucune"
    return str(value)


def check_label(name: str) -> str:
    """A registered check (a question or a mechanism) as the French question it answers."""
    spec = QUESTION_BY_ASK.get(name)
    return spec.label if spec is not None else MECHANISM_LABELS.get(name, name)
