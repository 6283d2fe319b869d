"""Checks of the state-based actions and of the players' totals: what the next check of the
state-based actions does (`state_based`), life and poison counters (`life`, `poison`).

The actions themselves are performed by `judge.procedure.statebased`; a described situation's
are performed before its questions are answered (`Context.sba_done` says which, on what).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.checks.context import check
from judge.errors import SituationError
from judge.game.situationmodel import Creature, Question, attacking_players
from judge.legality.context import Context, Verdict
from judge.legality.words import listing, plural

if TYPE_CHECKING:
    from judge.legality.damage import DamageRecord

# The actions, in the order the answer lists them: the players who lose, the permanents put
# into the graveyard, the creatures regenerated instead.
_LOSING = ("zero_life", "empty_library", "poison", "team_loses")
_GRAVEYARD = ("zero_toughness", "lethal_damage", "deathtouch", "zero_loyalty",
              "planeswalker_uniqueness", "legend_rule", "world_rule")
_TOPIC = "les actions basées sur un état"


@check("state_based", cites=("sba.check", "team.life", "team.loses", *(f"sba.{w}" for w in (*_LOSING, *_GRAVEYARD)),
                             "sba.regenerated", "phasing.absent"))
def check_state_based(ctx: Context, question: Question) -> Verdict:
    from judge.procedure.statebased import Performed  # the sentences of each action

    done = ctx.sba_done
    lose = [n for what, names in done if what in _LOSING for n in names]
    graveyard = [n for what, names in done if what in _GRAVEYARD for n in names]
    regenerated = [n for what, names in done if what == "regenerated" for n in names]
    value = {"lose": list(dict.fromkeys(lose)), "graveyard": list(dict.fromkeys(graveyard)),
             "regenerated": list(dict.fromkeys(regenerated))}
    name = str(ctx.fact("state_based_name")).split(" ", 1)[-1]
    if not done:
        why = (f"Aucune : quand un joueur recevrait la priorité, le jeu vérifie chaque {name} ; "
               "aucune ne s'applique ici.")
        s = ctx.situation
        concepts: list[str] = ["sba.check"]
        if s.library:
            concepts.append("sba.empty_library")
            why += (" Aucun joueur n'a dû piocher plus de cartes que sa bibliothèque n'en "
                    "avait (" + ", ".join(f"{p} : {plural(n, 'carte')}" for p, n in s.library)
                    + ").")
        if s.poison:
            concepts.append("sba.poison")
            why += " Aucun joueur n'a dix marqueurs poison."
        phased = [p.name for p in s.permanents if p.phased_out] + [
            c.name for c in s.creatures if c.phased_out]
        if phased:
            concepts.append("phasing.absent")
            why += (f" Phasé{'s' if len(phased) > 1 else ''} : {', '.join(phased)} — un permanent "
                    "phasé est traité comme s'il n'existait pas : aucune de ces actions ne le "
                    "voit (la règle de la légende non plus).")
        return ctx.verdict(value, tuple(concepts), why, _TOPIC)
    sentences = [Performed(what=what, names=names).sentence() for what, names in done]
    why = (f"Quand un joueur recevrait la priorité, avant que quoi que ce soit soit mis sur la "
           f"pile ou se résolve, le jeu accomplit ensemble chaque {name} qui s'applique : "
           + " ; ".join(sentences) + ".")
    performed = ("sba.check", *dict.fromkeys(
        c for what, _ in done
        for c in ((f"sba.{what}", "sba.lethal_damage") if what == "regenerated" else (f"sba.{what}",))))
    if ctx.situation.variant == "two_headed_giant" and any(w == "zero_life" for w, _ in done):
        performed = (*performed, "team.life", "team.loses")
        why += (" En Troll à deux têtes, le total de points de vie est celui de l'équipe, et "
                "l'équipe perd ensemble.")
    return ctx.verdict(value, performed, why, _TOPIC)


@check("life", cites=("sba.zero_life", "damage.resolves", "damage.to_player", "team.life", "ability.lifelink", "ability.exalted",
                      "fact.combat_damage_on_stack", "walker.damage", "walker.unblocked_damage",
                      "multiplayer.left_damage",
                      "damage.blocker_gone", "combat.walker_removed",
                      "mana.burn_life"))
def check_life(ctx: Context, question: Question) -> Verdict:
    player = question.player or ctx.active
    life = dict(ctx.situation.life).get(player)
    if life is None and ctx.situation.variant == "two_headed_giant":  # the team's total (810.9)
        team = next((t for t in ctx.situation.teams if player in t), ())
        life = next((n for p, n in ctx.situation.life if p in team), None)
    if life is None:
        return ctx.verdict(None, ("sba.zero_life",), f"Les points de vie de {player} ne sont pas "
                           "dits (clé life).", "les points de vie")
    lost = life <= 0
    why = f"{player} a {plural(life, 'point de vie')}" + (
        " : il a perdu la partie (0 ou moins)." if lost else ".")
    concepts = ["sba.zero_life"]
    if player in ctx.burned:
        concepts.append("mana.burn_life")
        why += " Il a perdu des points de vie par brûlure de mana (mana inutilisé à la fin d'une phase)."
    why += _combat_life(ctx, player, concepts) + _noncombat_life(ctx, player, concepts)
    if ctx.situation.variant == "two_headed_giant" and ctx.situation.teams:
        team = next((t for t in ctx.situation.teams if player in t), ())
        if len(team) > 1:
            concepts.append("team.life")
            why += (f" En Troll à deux têtes, c'est le total partagé de son équipe "
                    f"({', '.join(team)}) : les blessures, les pertes et les gains de points de "
                    "vie de chacun s'y appliquent, et l'équipe perd ensemble.")
    return ctx.verdict(life, tuple(dict.fromkeys(concepts)), why, "les points de vie")


def _noncombat_life(ctx: Context, player: str, concepts: list[str]) -> str:
    """The noncombat damage a replay's events dealt to a player (or redirected from him)."""
    team = next((t for t in ctx.situation.teams if player in t), (player,)) if (
        ctx.situation.variant == "two_headed_giant") else (player,)
    taken = [h for h in ctx.noncombat if h.target in team and h.amount > 0]
    creatures = {c.name: c for c in ctx.situation.creatures}
    gained = [h for h in ctx.noncombat if h.amount > 0 and (c := creatures.get(h.source))
              is not None and c.controller in team and ctx.model.grants(c.abilities, "lifelink")]
    why = ""
    if taken:
        concepts.append("damage.to_player")
        why += (" Blessures non de combat reçues : "
                + ", ".join(f"{plural(h.amount, 'blessure')} de {h.source}"
                            + (f" (à {h.target})" if h.target != player else "") for h in taken)
                + " ; des blessures infligées à un joueur lui font perdre autant de points de "
                "vie.")
    if gained:
        concepts.append("ability.lifelink")
        why += (" Lien de vie, blessures non de combat : "
                + ", ".join(f"{h.source} fait gagner {h.amount}" for h in gained) + ".")
    return why


def _combat_life(ctx: Context, player: str, concepts: list[str]) -> str:
    """What the replay's last combat damage did to a player's life (concepts added in place):
    damage dealt to the player, life gained by lifelink (2010 702.13b), damage prevented."""
    record = ctx.damage
    if record is None:
        if any(item.kind == "combat_damage" for item in ctx.situation.stack):
            concepts.append("fact.combat_damage_on_stack")
            return (" Les blessures de combat sont sur la pile : elles ne sont infligées que "
                    "quand elles se résolvent.")
        return ""
    creatures = {c.name: c for c in ctx.situation.creatures}
    return (_damage_taken(ctx, record, player, creatures, concepts)
            + _lifelink(ctx, record, player, creatures, concepts))


def _damage_taken(ctx: Context, record: DamageRecord, player: str,
                  creatures: dict[str, Creature], concepts: list[str]) -> str:
    """The combat damage a player was dealt, or why none (concepts added in place)."""
    why = ""
    taken = [h for h in record.dealt if h.target == player]
    if not taken and player not in attacking_players(ctx.situation):
        concepts.append("damage.resolves")
        why += " Aucune blessure de combat ne lui a été infligée."
        walkers = {p.name for p in ctx.situation.permanents if p.controller == player}
        if any(h.target in walkers for h in record.dealt):
            # An unblocked creature deals its damage to what it attacks (510.1b).
            concepts += ["walker.unblocked_damage", "walker.damage"]
            why += (" Une créature non bloquée assigne ses blessures à ce qu'elle attaque ; "
                    "celles infligées à son planeswalker lui retirent des marqueurs loyauté, "
                    "pas des points de vie.")
        if any(h.target == player for h in record.dropped):
            concepts.append("multiplayer.left_damage")
        why += _no_damage_why(ctx, player, concepts)
    if taken:
        concepts.append("damage.resolves")
        why += (" Blessures de combat reçues : "
                + ", ".join(f"{plural(h.amount, 'blessure')} de {h.source}" for h in taken) + ".")
        for hit in taken:
            for ability in getattr(creatures.get(hit.source), "changed_by", ()):
                concepts.append(f"ability.{ability}")
    return why


def _no_damage_why(ctx: Context, player: str, concepts: list[str]) -> str:
    """Why attackers dealt the player no combat damage: blocked, their blockers gone (2010
    509.1h, 510.1c), or attacking a planeswalker removed from combat (506.4c, 510.1b)."""
    s = ctx.situation
    there = {c.name for c in s.creatures if c.in_combat}
    walkers = {p.name for p in s.permanents if "planeswalker" in p.card_types}
    stuck = [c.name for c in s.creatures if c.attacking and c.in_combat and c.blocked
             and c.attacks in (None, player) and not c.has("trample")
             and not any(b.blocks(c.name) for b in s.creatures if b.name in there)]
    aimless = [c.name for c in s.creatures if c.attacking and c.in_combat and not c.blocked
               and c.attacks is not None and c.attacks not in (*s.players, *walkers, *there)]
    why = ""
    if stuck:
        concepts.append("damage.blocker_gone")
        why += (f" {listing(stuck)} {'restent bloquées bien que leurs' if len(stuck) > 1 else 'reste bloquée bien que ses'} "
                "bloqueurs soient partis : sans piétinement, une créature bloquée sans bloqueur "
                "n'assigne aucune blessure de combat.")
    if aimless:
        concepts.append("combat.walker_removed")
        why += (f" {listing(aimless)} : le planeswalker attaqué a été retiré du combat ; une "
                "créature qui attaquait un planeswalker retiré du combat n'inflige, non bloquée, "
                "aucune blessure de combat.")
    return why


def _lifelink(ctx: Context, record: DamageRecord, player: str, creatures: dict[str, Creature],
              concepts: list[str]) -> str:
    """Life a player gained by lifelink from combat damage, and none for damage prevented."""
    why = ""
    gained = [h for h in record.dealt if (c := creatures.get(h.source)) is not None
              and c.controller == player and ctx.model.grants(c.abilities, "lifelink")]
    if gained:
        concepts.append("ability.lifelink")
        why += (" Lien de vie : " + ", ".join(f"{h.source} lui fait gagner {h.amount}"
                                               for h in gained) + ".")
    stopped = [h for h in record.prevented if (c := creatures.get(h.source)) is not None
               and c.controller == player and ctx.model.grants(c.abilities, "lifelink")]
    if stopped:
        concepts.append("ability.lifelink")
        why += (" Les blessures prévenues ne sont pas infligées : le lien de vie ne fait rien "
                "gagner pour elles.")
    return why


@check("poison_counters", cites=("sba.poison", "ability.poisonous"))
def check_poison(ctx: Context, question: Question) -> Verdict:
    player = question.player or ctx.active
    count = dict(ctx.situation.poison).get(player, 0)
    why = f"{player} a {plural(count, 'marqueur')} poison" + (
        " : dix ou plus, il perd la partie." if count >= 10 else
        f" ; il perd la partie à dix ({listing([str(10 - count)])} de plus).")
    concepts = ["sba.poison"]
    venomous = [c.name for c in ctx.situation.creatures
                if ctx.model.grants(c.abilities, "trigger") and c.has("poisonous")]
    if venomous:
        concepts.append("ability.poisonous")
        why += (f" Le venimeux de {listing(venomous)} ne donne des marqueurs poison que quand "
                "elle inflige des blessures de combat à un joueur.")
    return ctx.verdict(count, tuple(concepts), why, "les marqueurs poison")


@check("loyalty", cites=("walker.loyalty", "walker.damage", "sba.zero_loyalty", "walker.none",
                         "sba.planeswalker_uniqueness"))
def check_loyalty(ctx: Context, question: Question) -> Verdict:
    name = question.permanent or ""
    topic = "la loyauté des planeswalkers"
    walker = next((p for p in ctx.situation.permanents if p.name == name), None)
    if "planeswalker" not in ctx.fact("spell_kinds"):  # type: ignore[operator]
        return ctx.verdict(None, ("walker.none",), f"{name} n'est pas un planeswalker : le type "
                           f"planeswalker n'existe pas dans l'édition {ctx.edition}.", topic)
    if walker is None:
        gone = ("zero_loyalty", "planeswalker_uniqueness")
        if any(name in names for what, names in ctx.sba_done if what in gone):
            return ctx.verdict(None, ("sba.zero_loyalty",), f"{name} a été mis au cimetière par "
                               "une action basée sur un état : il n'a plus de loyauté.", topic)
        if ctx.find(name) is None:  # named at the start: gone during the replay
            gone_hit = ("walker.damage",) if any(h.target == name for h in ctx.noncombat) else ()
            return ctx.verdict(None, ("walker.loyalty", *gone_hit, "sba.zero_loyalty",
                                      "sba.planeswalker_uniqueness"),
                               f"{name} n'est plus sur le champ de bataille (le journal dit "
                               "pourquoi : une loyauté tombée à 0, la règle d'unicité des "
                               "planeswalkers…) : il n'a plus de loyauté.", topic)
        return ctx.verdict(None, ("walker.loyalty",), f"{name} n'est pas un planeswalker : seul "
                           "un planeswalker a une loyauté.", topic)
    if "planeswalker" not in walker.card_types:
        return ctx.verdict(None, ("walker.loyalty",), f"{name} n'est pas un planeswalker : seul "
                           "un planeswalker a une loyauté.", topic)
    if walker.loyalty is None:
        raise SituationError("permanents", f"la loyauté de {name} (loyalty) est nécessaire pour "
                             "la question loyalty")
    concepts: tuple[str, ...] = ("walker.loyalty",)
    why = (f"La loyauté de {name} est le nombre de marqueurs loyauté sur lui : "
           f"{walker.loyalty}.")
    hit = (ctx.damage is not None and any(h.target == name for h in ctx.damage.dealt)) or any(
        h.target == name and h.amount > 0 for h in ctx.noncombat)
    if hit:
        concepts = (*concepts, "walker.damage")
        why += " Les blessures qui lui ont été infligées lui ont retiré autant de marqueurs."
    return ctx.verdict(walker.loyalty, concepts, why, topic)
