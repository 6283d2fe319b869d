"""Search as a judge asks and as a thumb types (issue 37): the relation a French question asks
(« que devient », « qui … en premier », « combien », « peut-on ») and the rule kinds that
answer it, the players' abbreviations of the terminology, and the search ranked from the
notions a reader of questions understood (`judge ask`'s decline)."""

from __future__ import annotations

import pytest

from judge.corpus.lexicon import glossary
from judge.search.analysis import QUERY_STOP
from judge.search.engine import index_for, search_understood
from judge.search.output import SearchResult
from judge.search.query import RELATIONS, plan_query, relations_of, search_understood_with, search_with


def numbers(result: SearchResult) -> list[str]:
    return [f"{h.edition}:{h.number}" for h in result.hits]


def run(graph, query: str) -> list[str]:
    return numbers(search_with(index_for(graph), query))


@pytest.mark.parametrize(("abbreviation", "english"), [
    ("pv", "life"), ("créa", "creature"), ("crea", "creature"), ("bloq", "block"), ("dgts", "damage"),
    ("cdm", "mana cost"), ("cdb", "battlefield"), ("cim", "graveyard"), ("adv", "opponent"), ("mdi", "summoning sickness"),
    ("regen", "regenerate"), ("sacrif", "sacrifice"), ("pro", "protection"), ("au lieu de", "instead"),
    ("regarder en arrière", "look back in time"),
])
def test_a_players_abbreviation_names_its_notion(abbreviation: str, english: str) -> None:
    plan = plan_query(abbreviation, glossary(), QUERY_STOP)
    assert [term.en[0] for term in plan.terms] == [english] and plan.words == ()


def test_the_abbreviations_are_in_the_terminology_with_their_source() -> None:
    acronyms = {a: t for t in glossary() for a in t.acronyms}
    assert {"PV", "créa", "bloq", "dgts", "cdm", "ETB", "LTB", "SBA", "CMC", "CDA", "P/T"} <= set(acronyms)
    assert all("abréviation" in acronyms[a].source for a in ("PV", "créa", "bloq", "dgts", "cdm"))


def test_a_query_of_abbreviations_finds_what_the_words_find(graph) -> None:
    # 2004 309.2a: a tapped creature can't block (« crea engagee bloq »).
    assert run(graph, "crea engagee bloq")[:3] == run(graph, "créature engagée bloquer")[:3]
    assert "2004:309.2a" in run(graph, "crea engagee bloq")[:3]


@pytest.mark.parametrize(("query", "answers"), [
    # 2010 702.14f / 2004 502.7f: a creature with protection can't be blocked by creatures of that quality.
    ("pro rouge bloq", {"2010:702.14f", "2004:502.7f"}),
    # 2010 603.6d / 2004 410.10d: leaves-the-battlefield abilities "look back in time".
    ("ltb regarde en arriere", {"2010:603.6d", "2004:410.10d"}),
    # 2010 614.1a / 2004 419.1a: effects that use the word "instead" are replacement effects.
    ("effet au lieu de", {"2010:614.1a", "2004:419.1a"}),
    # 2010 614.8 / 2004 419.6b: regeneration removes the creature from combat.
    ("regen retire combat", {"2010:614.8", "2004:419.6b"}),
    # 2010 608.2b / 2004 413.2a: a spell whose targets are all illegal is countered on resolution.
    ("fizzle", {"2010:608.2b", "2004:413.2a"}),
])
def test_a_thumbs_query_finds_the_rule_its_notion_names(graph, query: str, answers: set[str]) -> None:
    assert answers & set(run(graph, query)[:3])


def test_one_notion_has_one_entry() -> None:
    # « APNAP Order » (the 2010 glossary's entry) is the APNAP notion, not a second entry.
    assert len([t for t in glossary() if "APNAP" in t.acronyms or any("APNAP" in n for n in t.en)]) == 1


def test_defender_alone_is_the_keyword_not_the_defending_player(graph) -> None:
    # 2010 702.3 Defender; « joueur défenseur » is still the defending player (2004 306.3).
    assert run(graph, "défenseur")[0] == "2010:702.3"
    assert run(graph, "le joueur défenseur")[0] == "2004:306.3"


@pytest.mark.parametrize(("question", "asked", "dropped"), [
    ("que devient une créature dont l'endurance est à 0", 0, "devient"),
    ("qui met en premier ses capacités déclenchées sur la pile", 1, "premier"),
    ("dans quel ordre vont les capacités sur la pile", 1, "ordre"),
    ("combien de points de vie au début de la partie", 2, "combien"),
    ("peut-on activer une capacité de loyauté deux fois dans le même tour", 3, "peut"),
])
def test_a_question_asks_a_relation_and_its_words_are_not_its_topic(question: str, asked: int, dropped: str) -> None:
    plan = plan_query(question, glossary(), QUERY_STOP)
    assert asked in plan.relations
    assert dropped not in plan.words and dropped not in plan.typed
    # « en premier » is not read as the notion « premier » (first).
    assert all("first" not in term.en for term in plan.terms)


def test_a_relation_names_a_notion_of_the_terminology() -> None:
    resolved = relations_of(glossary())
    assert len(resolved) == len(RELATIONS)
    # « que devient » is answered by the state-based actions (2004 420, 2010 704).
    assert {"2004:420", "2010:704"} <= set(resolved[0][1])


def test_what_becomes_of_a_creature_is_a_state_based_action(graph) -> None:
    # 2004 420.5b / 2010 704.5f "A creature with toughness 0 or less is put into its owner's
    # graveyard": not in the first ten before (613.3e, a layer rule, first).
    found = run(graph, "que devient une créature dont l'endurance est à 0")[:5]
    assert {"2004:420.5b", "2010:704.5f"} & set(found)


def test_who_puts_triggered_abilities_first_is_an_order_rule_in_english(graph) -> None:
    # 2004 410.3 / 2010 603.3b (APNAP order): the English text, not the French turn structure
    # that names triggered abilities and the stack without an order.
    found = run(graph, "dans quel ordre les capacités déclenchées vont sur la pile")
    assert {"2004:410.3", "2010:603.3b"} & set(found[:5])


def test_the_search_offered_by_a_decline_is_ranked_from_what_was_understood(graph) -> None:
    index = index_for(graph)
    question = "euh alors voilà, la brûlure de mana ça marche comment chez vous ?"
    understood = search_understood_with(index, ("brûlure de mana",), question)
    assert numbers(understood)[0] == "2004:300.3" and understood.query == question
    # The reader's notions, not the question's other words (« marche », « chez »).
    assert numbers(understood) == numbers(search_with(index, "brûlure de mana"))
    # Two notions planned apart never join into another name; the question's relation is kept.
    both = search_understood_with(index, ("créature", "endurance"), "que devient ma créature si son endurance est à 0 ?")
    assert numbers(both) != numbers(search_understood_with(index, ("créature", "endurance"), "créature endurance"))
    # Nothing understood: the question as `judge search` reads it.
    assert numbers(search_understood_with(index, (), "brûlure de mana")) == numbers(search_with(index, "brûlure de mana"))
    assert numbers(search_understood(("brûlure de mana",), question, graph=graph))[0] == "2004:300.3"


def test_a_writers_file_is_split_before_it_is_read(tmp_path) -> None:
    """bench/eval_search.py --file F --half dev|sealed: even positions develop, odd ones are sealed."""
    import importlib.util
    import sys
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("eval_search", Path(__file__).resolve().parents[2] / "bench" / "eval_search.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["eval_search"] = module
    spec.loader.exec_module(module)
    path = tmp_path / "writer.toml"
    path.write_text("".join(f'[[query]]\nq = "q{i}"\nexpect = ["2004:300.3"]\nkind = "phone"\n\n' for i in range(5)))
    assert [c.q for c in module.load_cases(path, "dev")] == ["q0", "q2", "q4"]
    assert [c.q for c in module.load_cases(path, "sealed", origin="w")] == ["q1", "q3"]
    assert {c.origin for c in module.load_cases(path, "sealed", origin="w")} == {"w"}
    # A file whose sealed half was already run once is development material, whole.
    assert [c.q for c in module.load_cases(path, "all")] == ["q0", "q1", "q2", "q3", "q4"]
    with pytest.raises(ValueError):
        module.load_cases(path, "both")
