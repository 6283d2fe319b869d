"""French wording shared by the checks' reasons: counts with real plurals.

Owns only wording; what is said is each check's.
"""

from __future__ import annotations

# Nouns whose plural is not the noun plus "s" on its first word.
_PLURALS = {
    "point de vie": "points de vie",
    "mana": "mana",
}


def plural(count: int, noun: str) -> str:
    """`plural(1, "terrain")` → « 1 terrain », `plural(3, "point de vie")` → « 3 points de vie »."""
    if count in (0, 1, -1):
        return f"{count} {noun}"
    if noun in _PLURALS:
        return f"{count} {_PLURALS[noun]}"
    head, _, tail = noun.partition(" ")
    word = head if head.endswith(("s", "x")) else f"{head}s"
    return f"{count} {word}" + (f" {tail}" if tail else "")


_LABELS = {
    "ability": {
        "haste": "la célérité", "first_strike": "l'initiative",
        "double_strike": "la double initiative", "defender": "le défenseur",
        "vigilance": "la vigilance", "trample": "le piétinement", "flash": "le flash",
        "flying": "le vol", "reach": "la portée", "fear": "la peur",
        "banding": "le regroupement", "deathtouch": "le contact mortel",
        "lifelink": "le lien de vie", "wither": "le flétrissement",
        "intimidate": "l'intimidation", "shadow": "l'ombre", "horsemanship": "l'équitation",
        "landwalk": "la traversée de terrain", "protection": "la protection",
        "flanking": "le débordement", "rampage": "le déchaînement", "bushido": "le bushido",
        "exalted": "l'exalté", "poisonous": "le venimeux",
    },
    "land": {"island": "Île", "swamp": "Marais", "forest": "Forêt", "mountain": "Montagne",
             "plains": "Plaine"},
    "color": {"white": "blanche", "blue": "bleue", "black": "noire", "red": "rouge",
              "green": "verte"},
    "card_type": {"artifact": "artefact", "creature": "créature", "land": "terrain",
                  "enchantment": "enchantement", "instant": "éphémère", "sorcery": "rituel",
                  "planeswalker": "planeswalker", "tribal": "tribal"},
}


def label(kind: str, slug: str) -> str:
    """The French name of an ability (with its article), a color or a card type."""
    return _LABELS[kind].get(slug, slug)


def listing(names: list[str] | tuple[str, ...]) -> str:
    """« A », « A et B », « A, B et C »."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} et {names[-1]}"
