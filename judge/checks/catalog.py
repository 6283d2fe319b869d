"""Every check, by the topic module that registers it: the one table, loaded on demand.

A topic module registers its checks (`@check`, `register_mechanism`) when it is imported.
`registered(name)` imports only the module of the check asked for: a `judge check` whose
questions are about the turn never imports the combat, cleanup or damage checks (a cold
start pays for each module and its dataclasses). `every_check()` imports them all and lists
the checks in the table's order, which is the order of the coverage report and of
`judge rule`'s list of checks: turn structure, combat, cleanup and mana (with the replay's own
rules), then the steps' own actions, combat damage and the timing of combat spells. A test
holds the table to the modules: each registers exactly its names, in this order.
"""

from __future__ import annotations

from importlib import import_module

from judge.checks.context import REGISTRY, CheckSpec

# (topic module, the names it registers in the order it registers them)
TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("judge.checks.turn", ("where", "priority", "next", "rest_of_turn", "play_land", "cast")),
    ("judge.checks.combat", ("attack", "block", "damage_steps", "deals_damage", "declare_attackers",
                             "declare_blockers", "defending_players", "defending_player")),
    ("judge.checks.cleanup", ("discard", "mana_burn", "turn_order", "replay")),
    ("judge.checks.steps", ("untap", "triggers", "in_combat", "cleanup")),
    ("judge.checks.damage", ("assign_damage", "damage_dealt")),
    ("judge.checks.timing", ("combat_timing",)),
)
_MODULE_OF = {name: module for module, names in TOPICS for name in names}


def registered(name: str) -> CheckSpec:
    """The check (or mechanism) registered as `name`, its module imported if it is not yet
    (KeyError for a name no topic module registers)."""
    spec = REGISTRY.get(name)
    if spec is None:
        import_module(_MODULE_OF[name])
        spec = REGISTRY[name]
    return spec


def every_check() -> tuple[CheckSpec, ...]:
    """Every registered check and mechanism, every topic module imported, in table order."""
    return tuple(registered(name) for _, names in TOPICS for name in names)
