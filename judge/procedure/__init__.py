"""The game's procedure: a situation's turn replayed from its start, event by event, into the
state the questions are asked of, with the trail of what happened and the rules deciding it.

`state` owns the state of the turn (and performs the state-based actions of `statebased` on
it), `turnactions` the turn-based actions, `flow` the turn's progress through its plan (skipped
steps, the first turn's skipped draw, extra phases and steps), `priority` passing, acting and
resolving, `replay` the events and `replay()`; `combatdamage` deals combat damage, `effects`
says what an effect does to a permanent, `entering` the declarations and permanents put onto the
battlefield attacking or blocking, with the abilities they trigger (`blocks`); `trail` is the
journal. Legality is asked of `judge.legality`; nothing here imports a question
(`judge.checks`).
"""
