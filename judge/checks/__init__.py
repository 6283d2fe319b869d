"""The checks layer: questions about a situation answered with the deciding rules.

`context` holds the registry of the checks (the `Context` they answer in is
`judge.legality.context`'s), `turnflow`, `combat`, `cleanup`, `steps`, `damage` and `timing`
the checks by topic, `catalog` the one table of which topic module registers which check
(imported on demand), `report` answers a whole situation (after the procedure's replay when it
has events: `judge.procedure`), `coverage` says which rules the checks implement, `rulemap` maps
rules to checks through each edition's game model (cached on disk), `store` the rule store. Why
a rule has no check is the game model's data (`unchecked`).
"""
