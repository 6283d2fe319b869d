"""Why a rule of 300–314 (2004) or 505 (2010) has no check: the table `coverage()` reports.

Owns only the reasons; which rules each check implements is declared with the checks.
"""

from __future__ import annotations

# Why a rule of 300–314 (2004) or 505 (2010) has no check. Section headings need none.
NO_CHECK: dict[str, dict[str, str]] = {
    "2004": {
        "300.4": "hors du modèle : durée des effets « jusqu'à la fin de »",
        "300.5": "hors du modèle : capacités déclenchées au début d'une phase",
        "300.7": "pas de clé de situation pour les phases supplémentaires (modèle : turn.py)",
        "300.8": "pas de clé de situation pour les étapes supplémentaires (modèle : turn.py)",
        "302.1": "hors du modèle : déphasage",
        "302.2": "hors du modèle : dégagement des permanents",
        "306.2a": "hors du modèle : effets qui empêchent d'attaquer ou de bloquer",
        "306.4": "définition : attaquer ou bloquer seul",
        "308.2": "définition : procédure détaillée dans les sous-règles",
        "308.2b": "hors du modèle : regroupement",
        "308.2d": "hors du modèle : coûts d'attaque",
        "308.2e": "hors du modèle : coûts d'attaque",
        "308.2f": "hors du modèle : coûts d'attaque",
        "308.2g": "hors du modèle : coûts d'attaque",
        "308.3": "hors du modèle : capacités déclenchées",
        "309.2": "définition : procédure détaillée dans les sous-règles",
        "309.2b": "hors du modèle : coûts de blocage",
        "309.2c": "hors du modèle : coûts de blocage",
        "309.2d": "hors du modèle : coûts de blocage",
        "309.3": "hors du modèle : capacités déclenchées",
        "310.2": "définition : restrictions détaillées dans les sous-règles",
        "310.2e": "hors du modèle : effets qui changent l'assignation",
        "310.3": "définition : nature de l'assignation des blessures",
        "310.4a": "hors du modèle : résolution des blessures",
        "310.4b": "hors du modèle : source des blessures",
        "310.4c": "hors du modèle : destinataires des blessures",
        "313.2": "hors du modèle : capacités déclenchées « à la fin du tour »",
        "314.2": "hors du modèle : retrait des blessures et fin des effets",
    },
    "2010": {
        "505.3": "hors du modèle : Archenemy",
        "505.4": "hors du modèle : capacités déclenchées",
    },
}
