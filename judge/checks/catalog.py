"""Every check, by the topic module that registers it.

A topic module registers its checks (`@check`, `register_mechanism`) when it is imported: the
decorator is the registry. `TOPICS` is the list of those modules, imported here, in the order
of the coverage report and of `judge rule`'s list of checks: turn structure, combat, cleanup
and mana (with the replay's own rules), then the steps' own actions, combat damage and the
timing of combat spells.
"""

from __future__ import annotations

from judge.checks import cleanup, combat, damage, statebased, steps, timing, turnflow
from judge.checks.context import REGISTRY, CheckSpec

TOPICS = (turnflow, combat, cleanup, steps, damage, timing, statebased)


def registered(name: str) -> CheckSpec:
    """The check (or mechanism) registered as `name` (KeyError for a name nobody registers)."""
    return REGISTRY[name]


def every_check() -> tuple[CheckSpec, ...]:
    """Every registered check and mechanism, in the order of `TOPICS` (then of registration)."""
    order = {module.__name__: i for i, module in enumerate(TOPICS)}
    return tuple(sorted(REGISTRY.values(), key=lambda spec: order[spec.topic]))
