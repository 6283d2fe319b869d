"""The checks layer: questions about a situation answered with the deciding rules.

`context` holds the registry and the per-situation context, `turn` and `combat` the checks by
topic, `catalog` imports them in registration order (plus the cleanup and mana checks),
`replay` follows events, `report` answers a whole situation, `rulemap` maps rules to checks
(cached on disk), `reasons` says why a rule has no check.
"""
