"""Every check, registered by importing its topic module; import order is registration order.

`REGISTRY` (in `judge.checks.context`) lists the checks in this order, and so do the coverage
report and `judge rule`'s list of checks: turn structure, combat, cleanup and mana (with the replay's own rules), then
the steps' own actions and combat damage. Code
that reads the registry imports this module first.
"""

from __future__ import annotations

# isort: off
from judge.checks import turn  # noqa: F401  (registers the turn-structure checks)
from judge.checks import combat  # noqa: F401  (registers the combat checks)
from judge.checks import cleanup  # noqa: F401  (registers cleanup, mana burn, turn order)
from judge.checks import steps  # noqa: F401  (registers untap, triggers, in_combat, cleanup)
from judge.checks import damage  # noqa: F401  (registers assign_damage, damage_dealt)
from judge.checks import timing  # noqa: F401  (registers combat_timing)
# isort: on
