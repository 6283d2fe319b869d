"""A blocker declared to block several attackers (a list in `declare_blockers`): only with
`blocks_any_number` or `blocks_extra` (2004 309.2a, 2010 509.1a), in the replay and the question."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from checks_support import situation

from judge.checks.report import check, report_json
from judge.errors import IllegalEvent, SituationError

if TYPE_CHECKING:
    from judge.legality.context import RuleSource

TO_ATTACKERS = ", ".join(['"pass"'] * 8)


def _replay(edition: str, ability: str, blocks: str) -> str:
    attackers = "".join(f'[[creatures]]\nname = "{n}"\ncontroller = "A"\npower = {p}\n'
                        f'toughness = {p}\n' for n, p in (("Ogre", 3), ("Elfe", 1)))
    return (f'edition = "{edition}"\nlife = {{A = 20, B = 20}}\n'
            f'events = [{TO_ATTACKERS}, {{declare_attackers = ["Ogre", "Elfe"]}}, "pass", '
            f'"pass", {{declare_blockers = {{{blocks}}}}}, "pass", "pass"]\n' + attackers
            + f'[[creatures]]\nname = "Hydre"\ncontroller = "B"\npower = 4\ntoughness = 5\n{ability}'
            + '[[questions]]\nask = "life"\nplayer = "B"\n'
            + '[[questions]]\nask = "in_combat"\ncreature = "Elfe"\n')


@pytest.mark.parametrize(("edition", "rule"), [("2004", "309.2a"), ("2010", "509.1a")])
def test_a_blocker_without_the_ability_blocks_one_attacker(graph: RuleSource, edition: str,
                                                          rule: str) -> None:
    with pytest.raises(IllegalEvent) as caught:
        check(graph, situation(_replay(edition, "", 'Hydre = ["Ogre", "Elfe"]')))
    assert "Hydre ne bloque qu'une créature" in str(caught.value) and rule in str(caught.value)


@pytest.mark.parametrize("ability", ["blocks_any_number = true\n", "blocks_extra = 1\n",
                                     "\"bloque n'importe quel nombre\" = true\n"])
def test_a_blocker_with_the_ability_blocks_both_in_the_replay(graph: RuleSource,
                                                              ability: str) -> None:
    report = report_json(check(graph, situation(_replay("2010", ability,
                                                        'Hydre = ["Ogre", "Elfe"]'))))
    life, elfe = report["answers"]
    assert life["answer"] == 20  # both blocked: no damage to B
    assert elfe["answer"] is False  # the Hydre assigned 3 to the Ogre, then 1 to the 1/1 Elfe: dead


def test_an_attacker_named_twice_for_one_blocker_names_the_field(graph: RuleSource) -> None:
    with pytest.raises(SituationError) as caught:
        check(graph, situation(_replay("2010", "blocks_any_number = true\n",
                                       'Hydre = ["Ogre", "Ogre"]')))
    assert str(caught.value).startswith("events[11].declare_blockers.Hydre[1] : ")
