"""The French (and English) names a situation file may use for each slug, and `fold_name()`.

Owns the alias tables and the folded form they are compared in; not the readers using them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from judge.game.turnplan import DamageStep, Phase, Step
from judge.normalize import fold

_SEPARATORS = re.compile(r"[_\-']")


@lru_cache(maxsize=4096)
def fold_name(text: str) -> str:
    """`judge.normalize.fold` with `_ - '` as spaces: the form aliases are compared in."""
    return " ".join(_SEPARATORS.sub(" ", fold(text)).split())


def _aliases(table: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for slug, names in table.items():
        for name in (slug, *names):
            out[fold_name(name)] = slug
    return out


PHASE_ALIASES = _aliases({
    Phase.BEGINNING: ("début", "phase de début", "debut du tour"),
    Phase.PRECOMBAT_MAIN: (
        "main", "main1", "main 1", "phase principale", "première phase principale",
        "phase principale 1", "phase principale d'avant combat", "principale 1",
        "phase principale précombat",
    ),
    Phase.COMBAT: ("phase de combat",),
    Phase.POSTCOMBAT_MAIN: (
        "main2", "main 2", "seconde phase principale", "deuxième phase principale",
        "phase principale 2", "phase principale d'après combat", "principale 2",
        "phase principale postcombat",
    ),
    Phase.ENDING: ("end", "fin", "phase de fin"),
})
STEP_ALIASES = _aliases({
    Step.UNTAP: ("dégagement", "étape de dégagement"),
    Step.UPKEEP: ("entretien", "étape d'entretien"),
    Step.DRAW: ("pioche", "étape de pioche"),
    Step.BEGINNING_OF_COMBAT: ("début du combat", "début de combat", "étape de début du combat"),
    Step.DECLARE_ATTACKERS: ("déclaration des attaquants", "étape de déclaration des attaquants"),
    Step.DECLARE_BLOCKERS: ("déclaration des bloqueurs", "étape de déclaration des bloqueurs"),
    Step.COMBAT_DAMAGE: ("blessures de combat", "étape des blessures de combat", "dégâts de combat"),
    Step.END_OF_COMBAT: ("fin du combat", "fin de combat", "étape de fin de combat"),
    Step.END_OF_TURN: ("end step", "fin du tour", "fin de tour", "étape de fin du tour"),
    Step.CLEANUP: ("nettoyage", "étape de nettoyage"),
})
DAMAGE_STEP_ALIASES = _aliases({
    DamageStep.FIRST_STRIKE: ("initiative", "première", "premiere etape"),
    DamageStep.REGULAR: ("normale", "normales", "seconde", "seconde etape"),
})
KIND_ALIASES = _aliases({
    "instant": ("éphémère",),
    "sorcery": ("rituel",),
    "creature": ("créature",),
    "artifact": ("artefact",),
    "enchantment": ("enchantement",),
    "planeswalker": (),
    "ability": ("capacité", "capacité activée"),
    "trigger": ("capacité déclenchée", "déclenchée", "triggered"),
    "combat_damage": ("blessures de combat",),
})
# A creature spell with flash (« créature avec le flash »): cast whenever an instant could be.
FLASH_CREATURE_ALIASES = _aliases({
    "creature_with_flash": ("créature avec le flash", "créature avec flash", "creature with flash",
                            "flash creature", "créature flash"),
})
ABILITY_NAMES: dict[str, tuple[str, ...]] = {  # the keyword abilities the engine knows
    "haste": ("célérité",),
    "first_strike": ("initiative",),
    "double_strike": ("double initiative",),
    "defender": ("défenseur",),
    "vigilance": (),
    "trample": ("piétinement",),
    "flash": (),
    "flying": ("vol",),
    "reach": ("portée",),
    "fear": ("peur",),
    "banding": ("regroupement",),
    # issue 33: evasion, damage, state-based and triggered keywords (names as in the
    # terminology, `rules/glossary-fr-en.toml`, which is also read for any other name)
    "deathtouch": ("contact mortel", "toucher mortel"),
    "lifelink": ("lien de vie",),
    "wither": ("flétrissement",),
    "intimidate": ("intimidation",),
    "shadow": ("ombre",),
    "horsemanship": ("équitation",),
    "landwalk": ("traversée de terrain", "traversée des terrains"),
    "protection": (),
    "flanking": ("débordement",),
    "rampage": ("déchaînement",),
    "bushido": (),
    "exalted": ("exalté",),
    "poisonous": ("venimeux",),
}
ABILITY_ALIASES = _aliases(ABILITY_NAMES)
# Abilities that take a parameter (`{ability = "protection", from = [...]}`), and its key.
ABILITY_PARAMS: dict[str, str] = {"protection": "from", "landwalk": "land", "bushido": "n",
                                  "rampage": "n", "poisonous": "n"}
# The basic land types (landwalk's `land`), English and French.
LAND_TYPE_ALIASES = _aliases({
    "island": ("île", "iles", "îles"),
    "swamp": ("marais",),
    "forest": ("forêt", "forêts"),
    "mountain": ("montagne", "montagnes"),
    "plains": ("plaine",),
})
# « islandwalk », « traversée des îles »: landwalk of a basic land type, as one name.
LANDWALK_ALIASES = _aliases({
    "island": ("islandwalk", "traversée des îles"),
    "swamp": ("swampwalk", "traversée des marais"),
    "forest": ("forestwalk", "traversée des forêts"),
    "mountain": ("mountainwalk", "traversée des montagnes"),
    "plains": ("plainswalk", "traversée des plaines"),
})
# What protection may be from besides a colour or a card type (702.14i).
PROTECTION_ALIASES = _aliases({"everything": ("tout", "tout le reste")})
COLOR_ALIASES = _aliases({
    "white": ("blanc", "blanche"),
    "blue": ("bleu", "bleue"),
    "black": ("noir", "noire"),
    "red": ("rouge",),
    "green": ("vert", "verte"),
})
CARD_TYPE_ALIASES = _aliases({
    "artifact": ("artefact",),
    "creature": ("créature",),
    "land": ("terrain",),
    "enchantment": ("enchantement",),
    "instant": ("éphémère",),
    "sorcery": ("rituel",),
    "planeswalker": (),
    "tribal": ("tribal",),
})
# Supertypes (2004: the Legend subtype, « enchant world » cards; 2010: supertypes).
SUPERTYPE_ALIASES = _aliases({
    "legendary": ("légendaire", "legend", "légende"),
    "world": ("monde", "enchant world", "enchantement du monde"),
})
NO_MAXIMUM = frozenset({"none", "aucune", "aucun", "illimitee", "sans maximum", "null"})
# The French names of the keys added by format 3 (any key is compared folded; the English
# name is the canonical one). One table for every kind of table: no French word names two keys.
KEY_ALIASES = _aliases({
    "permanents": (),
    "cost": ("coût",),
    "life": ("points de vie", "vie"),
    "max_attackers": ("attaquants au plus", "au plus n attaquants"),
    "min_blockers": ("bloqueurs au moins", "bloquée par au moins"),
    "effects": ("effets",),
    "triggers": ("déclenchements", "capacités déclenchées"),
    "pending_triggers": ("déclenchements en attente", "capacités en attente"),
    "mana_available": ("mana disponible",),
    "extra_phases": ("phases supplémentaires",),
    "extra_steps": ("étapes supplémentaires",),
    "damage": ("blessures",),
    "attack_cost": ("coût d'attaque", "cout pour attaquer"),
    "block_cost": ("coût de blocage", "cout pour bloquer"),
    "damage_order": ("ordre des blessures", "ordre d'assignation"),
    "phasing": ("déphasage",),
    "phased_out": ("déphasé", "déphasée"),
    "doesnt_untap": ("ne se dégage pas",),
    "supertypes": ("surtypes", "supertype"),
    "card_name": ("nom de carte", "nom de la carte"),
    "timestamp": ("horodatage",),
    "cant_attack_alone": ("ne peut pas attaquer seule",),
    "must_attack": ("attaque si possible", "doit attaquer"),
    "cant_block_alone": ("ne peut pas bloquer seule",),
    "must_block": ("bloque si possible", "doit bloquer"),
    "until": ("jusqu'à", "durée"),
    "at": ("au début de", "moment"),
    "entered_this_step": ("arrivé pendant l'étape", "arrivée pendant l'étape",
                          "venu en jeu pendant l'étape"),
    "creatures": ("créatures",),
    "blocks": ("blocages",),
    "assignment": ("assignation", "répartition"),
    "others": ("autres assignations", "autres"),
    "permanent": (),
    "damage_to": ("blessures à",),
    "must_be_blocked_by_all": ("doit être bloquée par toutes", "leurre"),
    "blocks_any_number": ("bloque n'importe quel nombre",),
    "blocks_extra": ("bloque en plus",),
    "owner": ("propriétaire",),
    "draw": ("pioche",),
    "leaves_game": ("quitte la partie",),
    "deal_damage": ("inflige des blessures", "blessures non de combat"),
    "enters_battlefield": ("arrive sur le champ de bataille", "arrive en jeu"),
    "shield": ("bouclier de régénération",),
    "destroy": ("détruit", "détruire"),
    "control_until": ("contrôle jusqu'à",),
    "once": ("une seule fois",),
    "effect": ("effet",),
    "source": (),
    "step": ("étape",),
    "after": ("après",),
    "before": ("avant",),
    "leaves_play": ("quitte le jeu",),
    "regenerate": ("régénère", "régénération"),
    "set_power": ("change la force",),
    "gain_control": ("prend le contrôle",),
    "tap": ("engage",),
    "untap": ("dégage",),
    "when": ("quand",),
    "on": ("événement", "déclencheur"),
    "creature": ("créature",),
    "count": ("nombre",),
    "at_least": ("au moins",),
    "attacks": ("attaque qui", "cible de l'attaque"),
    "enters_attacking": ("arrive attaquante", "mise en jeu attaquante"),
    "enters_blocking": ("arrive bloqueuse", "mise en jeu bloqueuse"),
    "block": ("bloque",),
    "position": ("place", "rang"),
    "variant": ("variante",),
    "attack_option": ("option d'attaque",),
    "teams": ("équipes",),
    "defending": ("joueur défenseur", "défenseur choisi"),
    "archenemy": ("archennemi",),
    "band": ("groupe", "bande"),
    "ability": ("capacité",),
    "subtypes": ("sous-types", "sous types"),
    "loyalty": ("loyauté",),
    "poison": ("marqueurs poison",),
    "library": ("bibliothèque",),
    "drew_from_empty": ("a pioché dans une bibliothèque vide", "pioche dans une bibliothèque vide"),
    "left_game": ("ont quitté la partie", "a quitté la partie"),
    "regeneration_shields": ("boucliers de régénération", "bouclier de régénération"),
    "deathtouch_damage": ("blessée par le contact mortel", "blessures de contact mortel"),
    "from": ("contre", "de"),
    "land": ("terrain", "type de terrain"),
})
VARIANT_ALIASES = _aliases({
    "free_for_all": ("chacun pour soi", "multijoueur"),
    "two_headed_giant": ("troll à deux têtes", "géant à deux têtes", "2hg"),
    "archenemy": ("archennemi",),
})
ATTACK_OPTION_ALIASES = _aliases({
    "multiple": ("attaque multiple", "attaquer plusieurs joueurs"),
    "left": ("gauche", "attaque à gauche"),
    "right": ("droite", "attaque à droite"),
})
# What a creature's triggered ability waits for (`triggers[i].on`).
TRIGGER_EVENT_ALIASES = _aliases({
    "attacks": ("attaque", "quand elle attaque"),
    "blocks": ("bloque", "quand elle bloque"),
    "blocks_creature": ("bloque une créature",),
    "becomes_blocked": ("devient bloquée", "est bloquée"),
    "blocked_by_creature": ("devient bloquée par une créature", "bloquée par une créature"),
    "blocked_by_count": ("bloquée par n créatures", "devient bloquée par n créatures"),
    "blocks_count": ("bloque n créatures",),
    "attacks_unblocked": ("attaque et n'est pas bloquée", "non bloquée"),
})
# The keys inside `set_power` and `gain_control` events.
CHANGE_KEY_ALIASES = _aliases({
    "creature": ("créature",),
    "power": ("force",),
    "by": ("par",),
    "until": ("jusqu'à", "durée"),
})
# The keys inside a `deal_damage` event.
DAMAGE_KEY_ALIASES = _aliases({
    "source": (),
    "to": ("à", "destinataire"),
    "amount": ("quantité", "montant", "blessures"),
    "controller": ("contrôleur",),
    "redirect_to": ("redirigées vers", "redirigée vers", "rediriger vers"),
})
# The questions' French names.
ASK_ALIASES = _aliases({
    "state_based": ("actions basées sur un état", "action basée sur un état",
                    "effets basés sur un état", "effet basé sur un état"),
    "life": ("points de vie", "vie"),
    "poison_counters": ("poison", "marqueurs poison"),
    "redirect": ("rediriger", "redirection"),
    "controller": ("contrôleur",),
    "effect_ends": ("fin de l'effet",),
    Step.UNTAP: ("dégagement",),
    "triggers": ("déclenchements",),
    Step.DECLARE_ATTACKERS: ("déclarer les attaquants", "déclaration des attaquants"),
    Step.DECLARE_BLOCKERS: ("déclarer les bloqueurs", "déclaration des bloqueurs"),
    "assign_damage": ("assigner les blessures", "assignation des blessures"),
    "damage_dealt": ("blessures infligées",),
    "in_combat": ("en combat",),
    Step.CLEANUP: ("nettoyage",),
    "combat_timing": ("moment du combat", "avant ou après"),
    "defending_players": ("joueurs défenseurs", "qui défend"),
    "defending_player": ("joueur défenseur de", "joueur défenseur de la créature"),
})
# « seulement avant/après … » (`combat_timing`'s `when`).
WHEN_ALIASES = _aliases({
    "before_attackers": ("avant la déclaration des attaquants", "avant les attaquants"),
    "after_attackers": ("après la déclaration des attaquants", "après les attaquants"),
    "before_blockers": ("avant la déclaration des bloqueurs", "avant les bloqueurs"),
    "after_blockers": ("après la déclaration des bloqueurs", "après les bloqueurs"),
    "during_combat_after_blockers": ("pendant le combat après la déclaration des bloqueurs",
                                     "pendant le combat après les bloqueurs"),
})
# How long an effect lasts. « à la fin du tour » is a trigger (`triggers[i].at`), not a duration.
UNTIL_ALIASES = _aliases({
    "end_of_turn": ("jusqu'à la fin du tour", "fin du tour"),
    "end_of_combat": ("jusqu'à la fin du combat", "fin du combat"),
    "this_turn": ("ce tour ci", "pendant ce tour"),
    "your_next_turn": ("jusqu'à votre prochain tour", "jusqu'à son prochain tour",
                       "until your next turn"),
})
# « à la fin du tour » (2004's "at end of turn") names the end of turn step.
AT_ALIASES = _aliases({Step.END_OF_TURN: ("à la fin du tour", "at end of turn",
                                       "au début de l'étape de fin")})
