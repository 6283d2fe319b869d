"""Search as a judge uses it: French words for English-only rules (the FR↔EN terminology),
corrections that never turn a real word into another, the rule that defines a notion first,
phrases, variants after the general rule, question words, and every way to write a rule number."""

from __future__ import annotations

import pytest

from judge.corpus.lexicon import glossary
from judge.search.analysis import QUERY_STOP
from judge.search.engine import index_for
from judge.search.output import SearchResult
from judge.search.query import name_key, plan_query, search_with


def numbers(result: SearchResult) -> list[str]:
    return [f"{h.edition}:{h.number}" for h in result.hits]


def run(graph, query: str, **options: str) -> SearchResult:
    return search_with(index_for(graph), query, **options)


def test_every_keyword_of_both_releases_has_a_french_name_and_its_rule(graph) -> None:
    terms = glossary()
    by_name = {name_key(n): t for t in terms for n in t.en}
    missing = []
    for edition, prefix in (("2004", "502."), ("2010", "702.")):
        for rule in graph.rules(edition, "en"):
            if rule.number.startswith(prefix) and rule.number.count(".") == 1 and rule.heading:
                term = by_name.get(name_key(rule.heading))
                if term is None or not term.fr or f"{edition}:{rule.number}" not in term.rules:
                    missing.append(f"{edition}:{rule.number} {rule.heading}")
    assert missing == []
    assert all(term.source for term in terms)  # each entry says where its names come from


@pytest.mark.parametrize(("query", "first"), [
    ("piétinement", "2004:502.9"), ("pietinement", "2004:502.9"), ("lien de vie", "2010:702.13"),
    ("cimetière", "2004:217.4"), ("contact mortel", "2010:702.2"), ("vigilance", "2010:702.18"),
])
def test_a_french_word_finds_the_english_only_rule_that_defines_it(graph, query: str, first: str) -> None:
    result = run(graph, query)
    assert numbers(result)[0] == first
    assert result.hits[0].language == "en"


def test_an_english_word_finds_the_french_rule_too(graph) -> None:
    assert "2004:308.2a" in numbers(run(graph, "summoning sickness", lang="fr"))[:3]


@pytest.mark.parametrize(("query", "first"), [
    ("R305.4", "2004:305.4"), ("r. 309.2a", "2004:309.2a"), ("310.2 c", "2004:310.2c"), ("CR 704.5g", "2010:704.5g"),
    ("cr604.3", "2010:604.3"), ("303,1", "2004:303.1"), ("§ 308", "2004:308"), ("§300.9", "2004:300.9"),
    ("règle 502", "2004:502"), ("r502.9b", "2004:502.9b"),
])
def test_every_way_judges_write_a_rule_number_opens_it(graph, query: str, first: str) -> None:
    result = run(graph, query)
    assert numbers(result)[0] == first
    assert result.notice is None


@pytest.mark.parametrize(("query", "first"), [("ETB", "2010:403.3"), ("2HG", "2010:810"), ("SBA", "2004:420"), ("APNAP", "2004:103.4")])
def test_an_acronym_opens_its_rule(graph, query: str, first: str) -> None:
    assert numbers(run(graph, query))[0] == first


def test_acronyms_are_in_the_terminology_with_their_rules() -> None:
    acronyms = {a: t for t in glossary() for a in t.acronyms}
    assert {"ETB", "EOT", "APNAP", "2HG", "CR", "SBA", "CMC"} <= set(acronyms)
    assert all(acronyms[a].rules for a in ("ETB", "APNAP", "2HG", "SBA"))


def test_a_real_word_is_never_turned_into_another(graph) -> None:
    # « lien » is a French word (no « lieu » for it), « concède » too; « brun » is no « burn ».
    for query in ("lien", "mon adversaire concède", "mana brun"):
        result = run(graph, query)
        assert result.suggestion is None or all(w not in result.suggestion for w in ("lieu", "burn")), query
    assert run(graph, "lien de vie").suggestion is None


def test_a_real_word_may_complete_a_name_of_the_terminology(graph) -> None:
    # « contacte » is a French verb, one letter from « contact mortel », the keyword.
    result = run(graph, "contacte mortel")
    assert result.suggestion == "contact mortel"
    assert numbers(result)[0] == "2010:702.2"


def test_a_typo_of_a_terminology_word_is_corrected(graph) -> None:
    result = run(graph, "cimetierre")
    assert result.suggestion == "cimetière" or result.suggestion == "cimetiere"
    assert numbers(result)[0] in {"2004:217.4", "2010:404"}


def test_plurals_of_a_name_name_it(graph) -> None:
    assert numbers(run(graph, "effets de remplacement"))[0] in {"2004:419.6", "2010:614"}


def test_question_words_weigh_nothing(graph) -> None:
    plain = numbers(run(graph, "créature engagée bloquer"))[:3]
    asked = numbers(run(graph, "est-ce qu'une créature engagée peut-elle bloquer ?"))[:3]
    assert asked == plain


@pytest.mark.parametrize(("query", "answers"), [
    # 2010 702.18b "Attacking doesn't cause creatures with vigilance to tap."
    ("est-ce qu'une créature avec vigilance s'engage quand elle attaque ?", {"2010:702.18b"}),
    # 2004 102.7 / 2010 104.3a "A player who concedes [a game] leaves the game immediately."
    ("mon adversaire concède, il perd tout de suite ?", {"2004:102.7", "2010:104.3a"}),
])
def test_a_french_question_finds_the_english_only_rule_over_french_rules_sharing_a_word(
        graph, query: str, answers: set[str]) -> None:
    """The French text (turn structure) shares « attaque », « perd » with the question; the
    English rule answers its notions (vigilance, tapped; concede)."""
    assert answers & set(numbers(run(graph, query))[:3])


def test_a_variant_rule_comes_after_the_general_one_unless_named(graph) -> None:
    general = numbers(run(graph, "mulligan", edition="2010"))
    assert general[0] == "2010:103.4"
    assert all(not n.startswith("2010:8") for n in general[:3])
    assert "2010:800.5" in numbers(run(graph, "mulligan en multijoueur"))[:2]


def test_words_side_by_side_beat_the_same_words_apart(graph) -> None:
    top = run(graph, "blessures de combat", lang="fr").hits[0]
    assert top.number == "310"


def test_an_english_rule_named_by_a_notion_shows_its_french_name(graph) -> None:
    from judge.search.output import result_json, result_text

    result = run(graph, "piétinement")
    assert result.hits[0].number == "502.9" and result.hits[0].french_name == "piétinement"
    assert "502.9 — « piétinement »" in result_text(result)
    assert result_json(result)["hits"][0]["french_name"] == "piétinement"
    assert all(h.french_name is None for h in result.hits if h.language == "fr")


# Words of the Comprehensive Rules glossaries that are everyday words of any query, or letters:
# no notion of their own (a query's « carte », « option », « X » stays a plain word).
EVERYDAY = frozenset({"card", "basic", "number", "option", "if", "you", "your", "x", "y", "z", "obsolete", "during"})


def test_every_glossary_entry_of_both_releases_is_a_notion_of_the_terminology(graph) -> None:
    import re

    from judge.corpus.glossary import entries

    keys = {name_key(n) for t in glossary() for n in (*t.en, *t.fr)}
    missing = set()
    for edition, language, entry in entries(graph):
        term = re.sub(r"\s*\((?:Obsolete|Informal)\)", "", entry.term).replace("_", "")
        forms = [f.strip().strip('"') for f in re.split(r"[,/]", term) if f.strip()]
        if language == "en" and not any(name_key(f) in keys for f in forms) and not set(map(name_key, forms)) <= {
                (w,) for w in EVERYDAY}:
            missing.add(f"{edition} {entry.term}")
    assert sorted(missing) == []


@pytest.mark.parametrize(("query", "edition", "first"), [
    ("type de terrain de base", "2010", "2010:305.6"), ("équipement", "2010", "2010:301.5"),
    ("équipe active", None, "2010:805.4a"),
])
def test_a_french_name_of_a_glossary_term_finds_the_english_rule_that_introduces_it(
        graph, query: str, edition: str | None, first: str) -> None:
    result = run(graph, query, **({"edition": edition} if edition else {}))
    assert numbers(result)[0] == first
    assert result.hits[0].language == "en"


@pytest.mark.parametrize(("query", "english"), [
    ("pile vide", "empty"), ("le marqueur est retiré", "remove"), ("assigner les blessures", "assign"),
])
def test_a_french_word_of_the_rules_finds_its_english_counterpart_in_the_english_text(
        graph, query: str, english: str) -> None:
    """The words paired by aligning the French texts with the English ones (« vide » is
    "empty"): searched in the English text, they mark its words."""
    hits = run(graph, query, lang="en").hits
    assert hits
    assert any(f"<mark>{english}" in hit.snippet.lower() for hit in hits[:3])


@pytest.mark.parametrize(("query", "answers"), [
    ("intervertir force et endurance", {"2004:418.5i", "2010:613.3e"}),  # the French cards' verb
    ("capacité définissant une caractéristique", {"2004:405.2", "2010:604.3"}),
    ("partie nulle", {"2010:104.4"}),
    ("rediriger", {"2010:614.9"}),
])
def test_the_french_words_of_cards_and_judges_open_the_english_only_rule(graph, query: str,
                                                                         answers: set[str]) -> None:
    assert numbers(run(graph, query))[0] in answers


@pytest.mark.parametrize(("query", "answers", "within"), [
    ("taille maximale de la main", {"2010:402.2", "2004:217.3b"}, 3),
    ("boucle infinie partie nulle", {"2010:104.4b", "2004:102.6"}, 2),
    ("que se passe-t-il si le bloqueur est détruit avant les blessures de combat ?", {"2010:510.1c", "2004:310.2c"}, 4),
    ("j'ai dix marqueurs poison, j'ai perdu ?", {"2010:704.5c", "2010:104.3d", "2004:420.5h", "2004:102.8"}, 1),
])
def test_a_french_phrasing_of_an_english_rule_ranks_it(graph, query: str, answers: set[str],
                                                       within: int) -> None:
    assert answers & set(numbers(run(graph, query))[:within])


@pytest.mark.parametrize(("query", "english"), [
    ("mon sort est contrecarré", "counter"), ("le bloqueur est détruit", "destroy"),
    ("les blessures sont retirées du combat", "removed from combat"),
])
def test_an_inflected_french_form_names_its_notion(query: str, english: str) -> None:
    terms = plan_query(query, glossary(), QUERY_STOP).terms
    assert english in {name for term in terms for name in term.en}


def test_an_attacking_creature_is_not_the_declare_attackers_step(graph) -> None:
    for query, step in (("créature attaquante", "2004:308"), ("créature bloqueuse", "2004:309")):
        terms = plan_query(query, glossary(), QUERY_STOP).terms
        assert terms and all(step not in term.rules for term in terms)
    assert numbers(run(graph, "étape des bloqueurs"))[0] == "2004:309"  # the step still, by its name


def test_a_name_whose_words_the_query_holds_apart_names_its_notion(graph) -> None:
    """« mettre une machination à exécution » is « mettre à exécution » (set in motion) and a
    scheme; a name is never made of some of its words only (« à la fin de mon tour » is not
    « jusqu'à la fin du tour »)."""
    terms = plan_query("mettre une machination à exécution", glossary(), QUERY_STOP).terms
    assert {"set in motion", "scheme"} <= {name for term in terms for name in term.en}
    assert "2010:701.21" in numbers(run(graph, "mettre une machination à exécution"))
    terms = plan_query("à la fin de mon tour", glossary(), QUERY_STOP).terms
    assert "until end of turn" not in {name for term in terms for name in term.en}


def test_a_rule_that_answers_every_notion_is_weighed_whatever_the_limit(graph) -> None:
    """« général » is EDH's general (2010): the rule on 21 combat damage from the same general
    answers all of the query though plain BM25 ranks it far down; it comes first whether one
    result or ten are asked."""
    index = index_for(graph)
    query = "général EDH 21 blessures de combat"
    first = [numbers(search_with(index, query, limit=limit))[0] for limit in (1, 10)]
    assert first[0] == first[1] and first[0] in {"2010:704.5u", "2010:104.3j"}


def test_a_plural_of_a_protected_word_finds_the_rule_that_says_it(graph) -> None:
    # 2010 306.5 "Loyalty is a characteristic only planeswalkers have."
    assert "2010:306.5" in numbers(run(graph, "loyauté d'un planeswalker"))[:3]
    assert numbers(run(graph, "blessures infligées à un planeswalker retirent des marqueurs loyauté"))[0] == "2010:306.8"


def test_a_rule_under_the_defining_rule_of_a_notion_comes_before_one_that_mentions_it(graph) -> None:
    # 2010 306.7 (under 306 Planeswalkers) is the redirection to a planeswalker; 614.9 speaks of
    # redirection effects in general, the French combat damage rules only of damage.
    assert "2010:306.7" in numbers(run(graph, "rediriger les blessures sur un planeswalker"))[:2]
    # 707 / 504 Face-Down Spells and Permanents, under the notion « face cachée ».
    found = numbers(run(graph, "permanent face cachée"))
    assert found[:3] and all(n.startswith(("2010:707.", "2004:504.")) for n in found[:3])


@pytest.mark.parametrize(("query", "first"), [
    ("est-ce que je récupère le mana si mon sort est contrecarré ?", {"2010:701.5b", "2004:414.2"}),
    ("remboursement d'un sort contrecarré", {"2010:701.5b", "2004:414.2"}),
    ("un jeton cesse d'exister", {"2004:216.3", "2010:110.5f", "2004:420.5f", "2010:704.5d"}),
])
def test_a_notion_of_the_rules_in_the_words_of_french_players(graph, query: str, first: set[str]) -> None:
    # "doesn't get a 'refund' of any costs" (2010 701.5b), "ceases to exist" (2004 216.3).
    assert numbers(run(graph, query))[0] in first


def test_a_question_says_nothing_of_its_topic_by_que_se_passe_t_il(graph) -> None:
    index = index_for(graph)
    asked = plan_query("que se passe-t-il si le bloqueur est détruit ?", index.glossary_terms, index.query_stop)
    assert "passe" not in asked.words and "passe" not in asked.typed
    # « passe » is still the word of passing priority outside the question's own phrase.
    passing = plan_query("si tout le monde passe avec la pile vide", index.glossary_terms, index.query_stop)
    assert "passe" in passing.words or any("passe" in name for name, _ in passing.names)
    assert numbers(run(graph, "si tout le monde passe avec la pile vide, la phase se termine ?"))[0] == "2004:300.2"


def test_combat_and_en_jeu_are_french_names_too(graph) -> None:
    index = index_for(graph)
    plan = plan_query("initiative en combat", index.glossary_terms, index.query_stop)
    assert ("combat",) in [alt for notion in plan.expansions for alt in notion]
    # « en jeu » (2004's in play) is 2010's battlefield.
    plan = plan_query("planeswalkers en jeu", index.glossary_terms, index.query_stop)
    assert ("battlefield",) in [alt for notion in plan.english for alt in notion]


@pytest.mark.parametrize(("query", "first"), [
    ("contrecarrer un sort", {"2010:701.5", "2004:414.1"}),
    ("résolution d'un sort", {"2010:608", "2004:413"}),
    ("action illégale revenir en arrière", {"2010:715", "2004:422"}),
])
def test_the_english_rule_defining_a_notion_is_not_buried_under_french_mentions(graph, query: str, first: set[str]) -> None:
    # The French texts (2004 300–314, 2010 505) only mention spells and counters (« n'est ni un
    # sort… ne peut être contrecarrée »): the rule that defines the notion and answers the whole
    # query is English, and comes first.
    result = run(graph, query)
    assert numbers(result)[0] in first
    assert result.hits[0].language == "en"


@pytest.mark.parametrize(("query", "first"), [
    ("until end of turn", {"2004:314.2", "2010:514.2"}),
    ("effets jusqu'à la fin du tour", {"2004:314.2", "2010:514.2"}),
    ("taille maximale de la main", {"2004:217.3b", "2010:402.2"}),
])
def test_a_notion_s_defining_rule_is_the_one_that_gives_it_its_meaning(graph, query: str, first: set[str]) -> None:
    # "until end of turn" effects end at cleanup (2004 314.2); "Each player has a maximum hand
    # size, which is normally seven cards" (2004 217.3b) — not the cleanup step's heading.
    assert numbers(run(graph, query))[0] in first


@pytest.mark.parametrize(("query", "expected", "within"), [
    # "A player can't play a land, for any reason, if it isn't his or her turn." (2010 305.3)
    ("peut-on jouer un terrain pendant le tour d'un autre joueur ?", "2010:305.3", 3),
    # "announces his or her choice … for each target the spell requires" (2010 601.2c)
    ("quand choisit-on les cibles d'un sort ?", "2010:601.2c", 2),
    # "If two or more planeswalkers that share a planeswalker type are on the battlefield" (2010 306.4)
    ("deux planeswalkers du même type", "2010:306.4", 1),
])
def test_the_common_words_of_the_game_reach_the_english_rules(graph, query: str, expected: str, within: int) -> None:
    # tour/turn, choisir/choose, deux/two: words of every rule, in the terminology so that a
    # French question reaches the English text with them.
    assert expected in numbers(run(graph, query))[:within]


@pytest.mark.parametrize(("query", "first"), [
    ("lien de vi", "2010:702.13"), ("contact mor", "2010:702.2"), ("étape de nettoy", "2004:314"),
])
def test_a_name_still_being_typed_is_completed_by_its_last_word(graph, query: str, first: str) -> None:
    # The static book searches at each space: « lien de vi » is « lien de vie » (Lifelink).
    result = run(graph, query)
    assert numbers(result)[0] == first
    assert result.suggestion is None


def test_a_completed_name_needs_its_first_words_whole(graph) -> None:
    index = index_for(graph)
    # A lone beginning is no name (« vi »), nor a last word of one letter (« lien de v »).
    assert plan_query("vi", index.glossary_terms, index.query_stop).terms == ()
    assert plan_query("lien de v", index.glossary_terms, index.query_stop).terms == ()


@pytest.mark.parametrize("query", ["initiative double", "initiave double"])
def test_a_two_word_name_with_its_words_swapped_is_still_the_name(graph, query: str) -> None:
    # « double initiative » (Double Strike, 2004 502.28), not « initiative » (First Strike) and a word.
    assert numbers(run(graph, query))[0] in {"2004:502.28", "2010:702.4"}


def test_keeping_cards_in_hand_is_the_maximum_hand_size(graph) -> None:
    # « garder en main », what players say of the hand size: "Each player has a maximum hand
    # size, which is normally seven cards" (2010 402.2, 2004 217.3b), the cleanup's discard (314.1).
    assert numbers(run(graph, "combien de cartes peut-on garder en main ?"))[0] in {"2010:402.2", "2004:217.3b", "2004:314.1"}


@pytest.mark.parametrize("query", ["dégâts de combat", "degats de combat", "blessures de combat"])
def test_players_words_for_combat_damage_find_the_combat_damage_step(graph, query: str) -> None:
    """« Dégâts » is what players say for « blessures »: « dégâts de combat » is the combat
    damage step (2004 310), not the combat phase that merely holds the word « combat »."""
    assert numbers(run(graph, query))[0] == "2004:310"
