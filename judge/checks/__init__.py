"""The checks layer: questions about a situation answered with the deciding rules.

`context` holds the registry of the checks (the `Context` they answer in is
`judge.legality.context`'s), `turnflow`, `combat`, `cleanup`, `steps`, `damage` and `timing`
the checks by topic, `catalog` the one table of which topic module registers which check
(imported on demand), `replay` follows events and `trail` keeps its journal, `report` answers a
whole situation, `coverage` says which rules the checks implement, `rulemap` maps rules to
checks through each edition's game model (cached on disk). Why a rule has no check is the game
model's data (`unchecked`).
"""
