"""Described states that no game can reach are errors naming the field (and the rule)."""

from __future__ import annotations

import pytest

from judge.errors import SituationError
from judge.game.gamemodel import load_game_model
from judge.game.situation import load_situation
from judge.game.states import check_state

BLOCK = '[[creatures]]\nname = "Ours"\n{ours}\n[[creatures]]\nname = "Elfe"\ncontroller = "{elf}"\n{elfe}'


def _blocks(step: str, *, ours: str = "attacking = true", elf: str = "B",
            elfe: str = 'blocking = "Ours"') -> str:
    return f'step = "{step}"\n' + BLOCK.format(ours=ours, elf=elf, elfe=elfe)


INVALID = [
    ('edition = "2004"\nstep = "untap"\npriority = "A"', "priority", "(règle 302.3)"),
    ('edition = "2010"\nstep = "untap"\npriority = "B"', "priority", "(règle 502.3)"),
    ('edition = "2010"\nstep = "cleanup"\npriority = "A"', "priority",
     "sans capacité déclenchée sur la pile (règle 514.3)"),
    ('step = "upkeep"\n[[creatures]]\nname = "Ours"\nattacking = true', "creatures[0].attacking",
     "entre la déclaration des attaquants et la fin du combat"),
    ('phase = "postcombat_main"\n[[creatures]]\nname = "Ours"\nattacking = true',
     "creatures[0].attacking", "fin du combat"),
    ('step = "declare_attackers"\n[[creatures]]\nname = "Ours"\ncontroller = "B"\nattacking = true',
     "creatures[0].attacking", "seules les créatures du joueur actif (A) attaquent"),
    (_blocks("declare_attackers"), "creatures[1].blocking", "ne peut bloquer qu'entre"),
    (_blocks("beginning_of_combat", ours=""), "creatures[1].blocking", "ne peut bloquer"),
    (_blocks("declare_blockers", elf="A"), "creatures[1].blocking",
     "ont le même contrôleur (A) : on ne bloque pas ses propres créatures"),
    (_blocks("declare_attackers", elfe="", ours="attacking = true\nblocked = true"),
     "creatures[0].blocked", "bloquée qu'entre"),
]


@pytest.mark.parametrize(("text", "field", "reason"), INVALID, ids=[i[1] + ":" + i[2] for i in INVALID])
def test_check_refuses_a_state_no_game_can_reach(text: str, field: str, reason: str) -> None:
    described = load_situation(text, fmt="toml")
    with pytest.raises(SituationError) as info:
        check_state(load_game_model(described.edition or "2010"), described)
    assert info.value.field == field
    assert reason in info.value.reason


@pytest.mark.parametrize("game", ["2004", "2010"])
def test_reachable_states_pass(game: str) -> None:
    for text in ('step = "cleanup"\npriority = "A"\nstack = [{kind = "trigger"}]',
                 _blocks("declare_blockers"), _blocks("end_of_combat"),
                 'step = "declare_attackers"\n[[creatures]]\nname = "Ours"\nattacking = true'):
        check_state(load_game_model(game), load_situation(text, fmt="toml"))
