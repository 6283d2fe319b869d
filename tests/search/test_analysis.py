"""French analysis: tokens, elision, accents, stop words, stemming with protected words."""

from __future__ import annotations

import pickle

import pytest

from judge.search.analysis import STOP_WORDS, FrenchAnalyzer, analyze_terms
from judge.search.tokens import fold_terms, folded_tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("l'étape", ["etape"]),
        ("l’étape", ["etape"]),
        ("d'entretien", ["entretien"]),
        ("qu'une créature", ["creature"]),
        ("jusqu'à la fin", ["fin"]),
        ("lorsqu'elle attaque", ["attaque"]),
        ("puisqu'il bloque", ["bloque"]),
        ("n'attaque s'engage c'est", ["attaque", "engage"]),
        ("j'attaque m'engage t'engage", ["attaque", "engage", "engage"]),
        ("aujourd'hui", ["aujourd'hui"]),
    ],
)
def test_fold_terms_removes_elisions(text: str, expected: list[str]) -> None:
    assert fold_terms(text, STOP_WORDS) == expected


def test_fold_terms_folds_accents_and_case() -> None:
    assert fold_terms("Étape DÉGAGÉE cœur brûlure", STOP_WORDS) == ["etape", "degagee", "coeur", "brulure"]


@pytest.mark.parametrize("number", ["308.2a", "300.3", "505", "502.15", "306.2"])
def test_analyze_terms_keeps_rule_numbers_whole(number: str) -> None:
    assert analyze_terms(f"règle {number}.") == ["regl", number]
    assert analyze_terms(f"(cf. règle {number})")[-1] == number


def test_analyze_terms_drops_french_stop_words() -> None:
    assert analyze_terms("de la le les des du à et est une") == []
    assert fold_terms("la pile est vide", STOP_WORDS) == ["pile", "vide"]


def test_analyze_terms_folds_accents_before_stemming() -> None:
    assert analyze_terms("engagée") == analyze_terms("engagee") == analyze_terms("engager")
    assert analyze_terms("bloqueuse") == analyze_terms("bloqueurs")
    assert analyze_terms("blessures") == analyze_terms("blessure")


def test_analyze_terms_protects_game_words() -> None:
    assert analyze_terms("mana initiative pile tours célérité") == [
        "mana",
        "initiative",
        "pile",
        "tour",
        "celerite",
    ]


def test_a_protected_word_and_its_plural_have_one_stem() -> None:
    # « planeswalkers » was its own term: "Loyalty is a characteristic only planeswalkers have."
    # (2010 306.5) did not hold « planeswalker ».
    assert analyze_terms("planeswalkers rituels éphémères murs tours") == analyze_terms(
        "planeswalker rituel éphémère mur tour") == ["planeswalker", "rituel", "ephemere", "mur", "tour"]
    assert analyze_terms("planeswalkers", "en") == analyze_terms("planeswalker", "en") == ["planeswalker"]


def test_analyze_terms_stems_plain_words() -> None:
    assert analyze_terms("capacités déclenchées") == analyze_terms("capacité déclenche")


def test_folded_tokens_offsets_point_into_original_text() -> None:
    text = "Jusqu’à l’étape 308.2a."
    assert [(t, text[s:e]) for t, s, e in folded_tokens(text, STOP_WORDS)] == [("etape", "étape"), ("308.2a", "308.2a")]


def test_french_analyzer_yields_positions_and_chars() -> None:
    analyzer = FrenchAnalyzer(stemmed=True)
    tokens = [(t.text, t.pos, t.startchar) for t in analyzer("Les créatures engagées", positions=True, chars=True)]
    assert tokens == [("creatur", 0, 4), ("engag", 1, 14)]


def test_french_analyzer_pickles_by_reference() -> None:
    analyzer = pickle.loads(pickle.dumps(FrenchAnalyzer(stemmed=False)))
    assert analyzer == FrenchAnalyzer(stemmed=False)
    assert [t.text for t in analyzer("Déphasage")] == ["dephasage"]
