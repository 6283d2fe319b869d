"""The checks layer: questions about a situation answered with the deciding rules.

`context` holds the registry and the per-situation context, `turn` and `combat` the checks by
topic, `catalog` imports them in registration order (plus the cleanup and mana checks),
`replay` follows events and keeps the trail, `report` answers a whole situation, `rulemap` maps
rules to checks through each edition's game model (cached on disk), `words` the French wording.
Why a rule has no check is the game model's data (`unchecked`).
"""
