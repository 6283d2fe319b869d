"""The game's procedure: a situation's turn replayed from its start, event by event, into the
state the questions are asked of, with the trail of what happened and the rules deciding it.

`replay` owns the state and the flow (the turn plan followed step by step, the first turn's
skipped draw, priority passed, acts, resolutions) and the events; `turnactions` the untap
step's phasing and untapping and mana emptying; `combatdamage` dealing combat damage;
`statebased` the state-based actions; `effects` what an effect does to a permanent;
`entering` the declarations and permanents put onto the battlefield attacking or blocking, with
the abilities they trigger (`blocks`); `trail` the journal. Legality is asked of
`judge.legality`; nothing here imports a question (`judge.checks`).
"""
