"""Spells (and abilities) that may be cast only before or after a point of the combat phase
(2010 506.6–506.6g): may such a spell be cast now, as far as that restriction goes?

An edition whose model names no rule for it (2004) gets no answer (null), never a guess.
"""

from __future__ import annotations

from judge.checks.context import check
from judge.game.situationmodel import Question
from judge.game.turnplan import Phase, Step
from judge.legality.context import Context, Verdict, where_label

_LABELS = {
    "before_attackers": "« seulement avant la déclaration des attaquants »",
    "after_attackers": "« seulement après la déclaration des attaquants »",
    "before_blockers": "« seulement avant la déclaration des bloqueurs »",
    "after_blockers": "« seulement après la déclaration des bloqueurs »",
    "during_combat_after_blockers": "« seulement pendant le combat, après la déclaration des "
                                    "bloqueurs »",
}


def _first(ctx: Context, step: str) -> tuple[int, int] | None:
    """First and last plan index of `step` in the turn's first combat phase."""
    indexes = [i for i, e in enumerate(ctx.plan) if e.moment.step == step and not e.moment.extra]
    return (indexes[0], indexes[-1]) if indexes else None


def _this_combat(ctx: Context) -> tuple[int, int] | None:
    """Plan indexes of the combat phase we are in (None outside combat)."""
    if ctx.moment.phase != Phase.COMBAT or ctx.ended:
        return None
    start = ctx.index
    while start > 0 and ctx.plan[start - 1].moment.phase == Phase.COMBAT:
        start -= 1
    end = ctx.index
    while end + 1 < len(ctx.plan) and ctx.plan[end + 1].moment.phase == Phase.COMBAT:
        end += 1
    return start, end


_TIMING_TOPIC = "les sorts lançables avant ou après un moment du combat"


def _same_combat(ctx: Context, index: int) -> bool:
    """Whether plan entry `index` is in the combat phase we are in."""
    combat = _this_combat(ctx)
    return combat is not None and combat[0] <= index <= combat[1]


def _nobody_attacked(ctx: Context) -> bool:
    """In the end of combat step of a described situation, no creature in combat at all (none
    attacking, blocking or blocked, no damage step told): no attacker was declared, so this
    combat's declare blockers and combat damage steps were skipped (508.6). A replay knows it
    from its own declarations; attackers that all left combat are told by a replay."""
    s = ctx.situation
    return (not ctx.replayed and ctx.moment.step == Step.END_OF_COMBAT and not s.damage_step
            and not any(c.attacking or c.blocking or c.blocked or c.dealt_first_strike_damage
                        for c in s.creatures))


def _during_combat(ctx: Context, label: str, concepts: list[str], tail: str) -> Verdict:
    """« during combat after blockers are declared »: in any combat phase of the turn, once
    its declare blockers step has begun (not when that step is skipped)."""
    here, topic = where_label(ctx.moment), _TIMING_TOPIC
    concepts.append("timing.during_combat")
    combat = _this_combat(ctx)
    if combat is None:
        return ctx.verdict(False, tuple(concepts), f"Non : un sort {label} se lance pendant "
                           f"une phase de combat, et nous sommes dans {here}." + tail, topic)
    blockers = [i for i in range(combat[0], combat[1] + 1)
                if ctx.plan[i].moment.step == Step.DECLARE_BLOCKERS]
    if not blockers or ctx.plan[blockers[0]].skipped or _nobody_attacked(ctx):
        concepts.append("timing.after_skipped")
        return ctx.verdict(False, tuple(concepts), f"Non : l'étape de déclaration des "
                           f"bloqueurs est sautée pendant ce combat ; un sort {label} ne peut "
                           "pas y être lancé." + tail, topic)
    ok = ctx.index >= blockers[0]
    return ctx.verdict(ok, tuple(concepts), ("Oui" if ok else "Non") + f" : pendant n'importe "
                       f"quelle phase de combat du tour, une fois son étape de déclaration des "
                       f"bloqueurs commencée ; nous sommes dans {here}." + tail, topic)


@check("combat_timing", cites=("timing.combat", "timing.attackers", "timing.blockers",
                               "timing.during_combat", "timing.first_combat",
                               "timing.before_skipped", "timing.after_skipped",
                               "timing.abilities"))
def check_combat_timing(ctx: Context, question: Question) -> Verdict:
    when = question.when or "before_attackers"
    label = _LABELS[when]
    topic = _TIMING_TOPIC
    if not ctx.fact("combat_timing_points"):
        return ctx.verdict(None, (), f"Pas de réponse : le modèle de jeu de l'édition "
                           f"{ctx.edition} n'a aucune règle sur les sorts {label}.", topic)
    here = where_label(ctx.moment)
    concepts = ["timing.combat", "timing.abilities"]
    tail = " Il en va de même pour une capacité qui ne s'active qu'à ce moment-là."
    if when == "during_combat_after_blockers":
        return _during_combat(ctx, label, concepts, tail)
    step = Step.DECLARE_ATTACKERS if "attackers" in when else Step.DECLARE_BLOCKERS
    concepts += ["timing.attackers" if step == Step.DECLARE_ATTACKERS else "timing.blockers",
                 "timing.first_combat"]
    point = _first(ctx, step)
    if point is None or ctx.ended:
        return ctx.verdict(False, tuple(concepts), "Non : le tour est terminé ou n'a pas cette "
                           "étape." + tail, topic)
    start, _ = point
    before = when.startswith("before")
    if before and step == Step.DECLARE_BLOCKERS and (ctx.plan[start].skipped or (
            _nobody_attacked(ctx) and _same_combat(ctx, start))):
        concepts.append("timing.before_skipped")
        attackers = _first(ctx, Step.DECLARE_ATTACKERS)
        assert attackers is not None
        ok = ctx.index <= attackers[1]
        why = (f"{'Oui' if ok else 'Non'} : les étapes de déclaration des bloqueurs et des "
               f"blessures sont sautées ; un sort {label} peut alors être lancé jusqu'à la fin de "
               f"l'étape de déclaration des attaquants, et nous sommes dans {here}.")
        return ctx.verdict(ok, tuple(concepts), why + tail, topic)
    ok = ctx.index < start if before else ctx.index >= start
    moment = "attaquants" if step == Step.DECLARE_ATTACKERS else "bloqueurs"
    why = (f"{'Oui' if ok else 'Non'} : « déclarer les {moment} » désigne le début de l'étape de "
           f"déclaration des {moment} du premier combat du tour (qu'il y ait ou non des {moment}) ; "
           f"un sort {label} se lance {'avant' if before else 'après'} ce moment, et nous sommes "
           f"dans {here}.")
    return ctx.verdict(ok, tuple(concepts), why + tail, topic)
