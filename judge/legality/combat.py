"""Who may attack or block: the reasons a creature cannot, the evasion abilities, and the
restrictions and requirements a whole declaration obeys (2004 500, 2010 508.1c–d, 509.1b–c).

Shared by the questions (`judge.checks.combat`) and the replay's declarations
(`judge.procedure.entering`); each function returns French reasons and the concepts deciding
them, never a verdict.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import TYPE_CHECKING

from judge.game.situationmodel import attacking_players
from judge.legality.defenders import attacked_player, defenders
from judge.legality.words import label, listing, plural

if TYPE_CHECKING:
    from judge.game.situationmodel import Creature
    from judge.legality.board import Board


def absent(board: Board, creature: Creature, subject: str | None = None
           ) -> tuple[str, tuple[str, ...]] | None:
    """Why a creature is not there to attack, block or deal damage (put into the graveyard by
    a state-based action, gone, phased out), with the deciding concepts; None if it is there.
    The sentence begins with `subject` (the creature's name by default)."""
    who = subject or creature.name
    if creature.destroyed is not None:
        cause = {"sba.lethal_damage": "créature avec des blessures mortelles",
                 "sba.zero_toughness": "créature avec une endurance de 0 ou moins",
                 "sba.legend_rule": "permanent légendaire du même nom qu'un autre (la règle "
                                    "de la légende)",
                 "sba.world_rule": "permanent du monde alors qu'un autre est là (la règle du "
                                   "monde)"}.get(
            creature.destroyed, "créature")
        return (f"{who} n'est plus en jeu : {cause}, elle a été mise au cimetière par "
                f"{board.fact('state_based_name')} dès qu'un joueur allait recevoir la priorité",
                (creature.destroyed, "sba.check", "sba.removed_from_combat"))
    if not creature.in_play:
        return f"{who} a quitté le jeu", ("combat.removed",)
    if creature.phased_out:
        return (f"{who} est déphasée : elle est traitée comme si elle n'existait pas",
                ("phasing.absent",))
    return None


def attack_reasons(board: Board, creature: Creature) -> tuple[list[str], list[str]]:
    """Why a creature may not attack, and the concept deciding each reason."""
    gone = absent(board, creature, "elle")
    if gone is not None:
        return [gone[0]], list(gone[1])
    reasons: list[str] = []
    concepts: list[str] = []
    attacking = attacking_players(board.seating)
    if creature.controller not in attacking:
        who = (f"seul le joueur actif ({board.active}) attaque" if len(attacking) == 1 else
               f"seuls les joueurs de l'équipe active ({', '.join(attacking)}) attaquent")
        reasons.append(f"elle est contrôlée par {creature.controller}, or {who}")
        concepts += ["combat.players", "attack.legal"] + (["variant.teams"] if len(attacking) > 1 else [])
    if not creature.is_creature:
        reasons.append("ce n'est plus une créature ; seules les créatures peuvent attaquer")
        concepts.append("attack.only_creatures")
    if creature.tapped:
        text = "elle est engagée"
        if creature.has("vigilance"):
            text += (" (la vigilance lui permet d'attaquer sans s'engager, pas d'attaquer "
                     "en étant déjà engagée)")
        reasons.append(text)
        concepts.append("attack.untapped")
    if board.fact("walls_cannot_attack") and creature.is_wall:
        reasons.append("elle a le type de créature « Mur »")
        concepts.append("fact.walls_cannot_attack")
    if creature.has("defender"):
        reasons.append("elle a le défenseur, qui l'empêche d'attaquer")
        concepts.append("attack.defender")
    if not creature.since_turn_start and not creature.has("haste") and not (
            creature.phased_in and board.fact("phased_in_haste")):
        how = ""
        if creature.changed_control:
            how = " (il en a pris le contrôle ce tour-ci)"
            concepts.append("control.changed")
        elif creature.entered:
            how = " (elle est arrivée sur le champ de bataille ce tour-ci)"
        reasons.append(f"{board.active} ne la contrôle pas continuellement depuis le début du tour"
                       f"{how} et elle n'a pas la célérité")
        concepts.append("attack.since_turn_start")
    return reasons, concepts


def _teammates(board: Board, one: str, other: str) -> bool:
    """Whether two players are on the same team (shared team turns: 2010 805)."""
    return any(one in team and other in team for team in board.seating.teams)


def _matches(creature: Creature, kind: str, slug: str, attacker: Creature | None = None) -> bool:
    if kind == "ability":
        return creature.has(slug)
    if kind == "color":
        return slug in creature.colors
    if kind == "shares_color":
        return attacker is not None and bool(set(creature.colors) & set(attacker.colors))
    return slug in creature.card_types


_BLOCKER_WORDS = {"ability": "", "color": "la couleur", "card_type": "le type",
                  "shares_color": ""}


def _blocker_word(kind: str, slug: str) -> str:
    if kind == "shares_color":
        return "une couleur en commun avec elle"
    return f"{_BLOCKER_WORDS[kind]} {label(kind, slug)}".strip()


def has_quality(creature: Creature, quality: str) -> bool:
    """Whether a creature has a quality protection names: a colour, a card type, everything."""
    return quality == "everything" or quality in creature.colors or quality in creature.card_types


def quality_word(quality: str) -> str:
    if quality == "everything":
        return "tout"
    if quality in ("white", "blue", "black", "red", "green"):
        return {"white": "le blanc", "blue": "le bleu", "black": "le noir", "red": "le rouge",
                "green": "le vert"}[quality]
    return f"les {label('card_type', quality)}s"


def landwalk_defenders(board: Board, attacker: Creature) -> tuple[str, ...]:
    """The players whose lands an attacker's landwalk looks at: the defending player; in
    Two-Headed Giant both players of the defending team, « yes » if either controls one
    (2010 810.7b; 810.7d's example is landwalk)."""
    defender = attacked_player(board, attacker)
    if board.seating.variant == "two_headed_giant":
        return next((t for t in board.seating.teams if defender in t), (defender,))
    return (defender,)


def landwalked(board: Board, attacker: Creature) -> tuple[str, str, bool] | None:
    """The land type, and who controls a land of it, that makes an attacker with landwalk
    unblockable (with whether the defending team's players were both looked at); None if
    none does or it has no landwalk."""
    if not board.model.grants(attacker.abilities, "landwalk"):
        return None
    team = landwalk_defenders(board, attacker)
    for land in attacker.params("landwalk"):
        owner = next((p.controller for p in board.permanents
                      if land in p.subtypes and "land" in p.card_types
                      and p.controller in team and not p.phased_out), None)
        if owner is not None:
            return land, owner, len(team) > 1
    return None


def evasion_reasons(board: Board, blocker: Creature, attacker: Creature
                    ) -> tuple[list[str], list[str]]:
    """The edition's evasion rules the attacker's abilities impose on this blocker (and the
    blocker's own exclusive evasion: a creature with shadow blocks only shadow)."""
    reasons: list[str] = []
    concepts: list[str] = []
    model = board.model
    for ability in attacker.abilities:
        evasion = model.evasion(ability)
        if evasion is None or any(_matches(blocker, k, v, attacker) for k, v in evasion.blockers):
            continue
        allowed = " ou ".join(_blocker_word(k, v) for k, v in evasion.blockers)
        reasons.append(f"{attacker.name} a {label('ability', ability)} : seule une créature "
                       f"ayant {allowed} peut la bloquer")
        concepts.append(f"evasion.{ability}")
    for ability in blocker.abilities:
        evasion = model.evasion(ability)
        if evasion is not None and evasion.exclusive and not attacker.has(ability):
            reasons.append(f"{blocker.name} a {label('ability', ability)} : elle ne peut bloquer "
                           f"qu'une créature qui a {label('ability', ability)}")
            concepts.append(f"evasion.{ability}")
    walked = landwalked(board, attacker)
    if walked is not None:
        land, owner, team = walked
        whose = f"{owner} contrôle" if not team else f"{owner}, de l'équipe défenseuse, contrôle"
        reasons.append(f"{attacker.name} a la traversée de terrain ({label('land', land)}) "
                       f"et {whose} un terrain de ce type : elle est imblocable")
        concepts.append("ability.landwalk")
        if team:
            concepts.append("team.defending_players")
    if model.grants(attacker.abilities, "protection"):
        for quality in attacker.params("protection"):
            if has_quality(blocker, quality):
                reasons.append(f"{attacker.name} a la protection contre {quality_word(quality)} : "
                               f"{blocker.name} ne peut pas la bloquer")
                concepts.append("ability.protection.block")
                break
    return reasons, concepts


def block_reasons(board: Board, blocker: Creature, attacker: Creature
                  ) -> tuple[list[str], list[str]]:
    for there in (blocker, attacker):
        gone = absent(board, there)
        if gone is not None:
            return [gone[0]], list(gone[1])
    reasons: list[str] = []
    concepts: list[str] = []
    if blocker.controller == board.active:
        reasons.append(f"{blocker.name} est contrôlée par le joueur actif ({board.active}), qui "
                       "attaque ; seul le défenseur bloque")
        concepts += ["combat.players"]
    elif blocker.controller in attacking_players(board.seating):
        reasons.append(f"{blocker.name} est contrôlée par {blocker.controller}, de l'équipe "
                       "active, qui attaque ; seule l'équipe défenseuse bloque")
        concepts += ["combat.players"]
    elif blocker.controller == attacker.controller:
        reasons.append(f"{blocker.name} et {attacker.name} ont le même contrôleur")
        concepts += ["combat.players"]
    elif len(board.seating.players) > 2 or board.seating.teams:
        found = defenders(board.seating)
        if blocker.controller not in found.players:
            reasons.append(f"{blocker.controller}, qui contrôle {blocker.name}, n'est pas un "
                           f"joueur défenseur ({', '.join(found.players) or 'aucun'})")
            concepts.append("block.legal")
        elif attacked_player(board, attacker) != blocker.controller and not (
                board.seating.variant == "two_headed_giant"
                and _teammates(board, attacked_player(board, attacker), blocker.controller)):
            reasons.append(f"{attacker.name} n'attaque ni {blocker.controller} ni un planeswalker "
                           "qu'il contrôle")
            concepts.append("block.attacked_player" if board.model.rules("block.attacked_player")
                            else "block.legal")
    if not blocker.is_creature:
        reasons.append(f"{blocker.name} n'est plus une créature")
        concepts.append("block.legal")
    if blocker.tapped:
        reasons.append(f"{blocker.name} est engagée ; seules les créatures dégagées peuvent "
                       "bloquer")
        concepts.append("block.legal")
    if not (attacker.attacking and attacker.is_creature):
        reasons.append(f"{attacker.name} n'est pas une créature attaquante")
        concepts.append("block.legal")
    more, evasion = evasion_reasons(board, blocker, attacker)
    return reasons + more, concepts + evasion


def _most_obeyed(board: Board, required: list[Creature], partners: list[Creature], alone: str
                 ) -> int:
    """The largest number of requirements (« attaque / bloque si possible ») that a declaration
    could obey without breaking a restriction « ne peut pas attaquer / bloquer seule » (`alone`
    names that flag): every requirement when two creatures can go together; one alone only if
    it may go alone or another creature could join it."""
    if len(required) != 1:
        return len(required)
    if not board.fact("requirements_count_partners"):
        partners = required  # 2004 500.5: only options that satisfy a requirement count
    only = required[0]
    return 1 if not getattr(only, alone) or any(p.name != only.name for p in partners) else 0


_SEARCH_LIMIT = 4096  # declarations tried when counting requirements (beyond: the rule above)


_SEARCH_PAIRS = 256  # blocker-attacker pairs examined for that search


def _most_blocks_obeyed(board: Board, required: list[Creature], free: list[Creature],
                        attackers: list[Creature]) -> int:
    """The requirements a declaration of blockers could obey without breaking a restriction,
    the minimum number of blockers of an attacker (`min_blockers`) included: tried
    declaration by declaration (each creature blocks one attacker it may block, or none)."""
    if not board.fact("requirements_count_partners"):
        free = required  # 2004 500.5: only options that satisfy a requirement count
    if len(free) * len(attackers) > _SEARCH_PAIRS:
        return _most_obeyed(board, required, free, "cant_block_alone")
    options = [[None, *(a.name for a in attackers if not block_reasons(board, c, a)[0])] for c in free]
    total = 1
    for choice in options:
        total *= len(choice)
    if total > _SEARCH_LIMIT:
        return _most_obeyed(board, required, free, "cant_block_alone")
    minimum = {a.name: a.min_blockers for a in attackers if a.min_blockers}
    best = 0
    for picks in product(*options):
        chosen = [(c, a) for c, a in zip(free, picks, strict=True) if a is not None]
        counts = Counter(a for _, a in chosen)
        if any(0 < counts[a] < n for a, n in minimum.items()):
            continue
        if len(chosen) == 1 and chosen[0][0].cant_block_alone:
            continue
        best = max(best, sum(1 for c, _ in chosen if c.must_block))
    return best


def _requirements(required: list[Creature], chosen: set[str], most: int, verb: str
                  ) -> list[str]:
    obeyed = [c.name for c in required if c.name in chosen]
    if len(obeyed) >= most:
        return []
    missing = [c.name for c in required if c.name not in chosen]
    many = len(missing) > 1
    return [f"{listing(missing)} {'doivent' if many else 'doit'} {verb} si "
            f"{'elles le peuvent' if many else 'elle le peut'} (sans coût à payer) : cette "
            f"déclaration respecte {plural(len(obeyed), 'exigence')}, alors qu'une déclaration "
            f"pourrait en respecter {most} sans enfreindre de restriction"]


def attack_rules(board: Board, names: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Restrictions (« ne peut pas attaquer seule ») and requirements (« attaque si possible »):
    obey every restriction and as many requirements as possible (2004 500.2–500.5, 2010
    508.1c–d); tapped creatures and those with a cost to attack are exempt."""
    problems: list[str] = []
    concepts: list[str] = []
    if len(names) == 1 and board.creature(names[0]).cant_attack_alone:
        problems.append(f"{names[0]} ne peut pas attaquer seule")
        concepts.append("attack.restrictions")
    limit = board.seating.max_attackers
    if limit is not None and len(names) > limit:
        problems.append(f"au plus {plural(limit, 'créature')} peut attaquer ce tour-ci "
                        f"({len(names)} déclarées)")
        concepts.append("attack.restrictions")
    mine = [c for c in board.creatures if c.controller in attacking_players(board.seating)]
    found: list[str] = []
    if any(c.must_attack for c in mine):  # else no requirement to count
        free = [c for c in mine if c.attack_cost == 0 and not attack_reasons(board, c)[0]]
        required = [c for c in free if c.must_attack]
        most = _most_obeyed(board, required, free, "cant_attack_alone")
        if limit is not None:
            most = min(most, limit)
        found = _requirements(required, set(names), most, "attaquer")
    if found:
        problems += found
        concepts.append("attack.requirements")
    elif any(c.must_attack for c in mine):
        concepts.append("attack.requirements")  # obeyed, or exempt (tapped, a cost to pay)
    if (any(c.cant_attack_alone for c in mine) or limit is not None) and (
            "attack.restrictions" not in concepts):
        concepts.append("attack.restrictions")  # obeyed
    return problems, concepts


def too_many_blocks(board: Board, blocks: tuple[tuple[str, str], ...]) -> list[str]:
    """Blockers declared to block more attackers than they can: one each (2004 309.2a, 2010
    509.1a), unless an ability lets one block any number (`blocks_any_number`) or more
    (`blocks_extra`)."""
    problems: list[str] = []
    counts = Counter(b for b, _ in blocks)
    for blocker, count in counts.items():
        creature = board.creature(blocker)
        most = None if creature.blocks_any_number else 1 + creature.blocks_extra
        if most is not None and count > most:
            problems.append(f"{blocker} ne peut bloquer que {plural(most, 'créature')} "
                            f"({count} déclarées)" if most > 1 else
                            f"{blocker} ne bloque qu'une créature ({count} déclarées) : aucune "
                            "capacité ne lui permet d'en bloquer plusieurs")
    return problems


def block_rules(board: Board, blocks: tuple[tuple[str, str], ...]) -> tuple[list[str], list[str]]:
    """Restrictions (« ne peut pas bloquer seule ») and requirements (« bloque si possible »),
    as for attackers (2004 500.3–500.5, 2010 509.1b–c)."""
    blockers = list(dict.fromkeys(b for b, _ in blocks))
    attackers = [c for c in board.creatures if c.attacking and c.in_combat]
    problems, concepts = _block_restrictions(board, blockers, attackers, blocks)
    theirs = [c for c in board.creatures if c.controller not in attacking_players(board.seating)]
    found = _block_requirements(board, theirs, attackers, blockers, blocks)
    lures = [a for a in attackers if a.must_be_blocked_by_all]
    if found:
        problems += found
        concepts.append("block.requirements")
    elif any(c.must_block for c in theirs) or lures:
        concepts.append("block.requirements")  # obeyed, or exempt (tapped, a cost to pay)
    if (any(c.cant_block_alone for c in theirs) or any(a.min_blockers for a in attackers)) and (
            "block.restrictions" not in concepts):
        concepts.append("block.restrictions")  # obeyed
    return problems, concepts


def _block_restrictions(board: Board, blockers: list[str], attackers: list[Creature],
                        blocks: tuple[tuple[str, str], ...]) -> tuple[list[str], list[str]]:
    """A creature that can't block alone blocking alone; an attacker blocked by fewer
    creatures than it must be."""
    problems: list[str] = []
    concepts: list[str] = []
    if len(blockers) == 1 and board.creature(blockers[0]).cant_block_alone:
        problems.append(f"{blockers[0]} ne peut pas bloquer seule")
        concepts.append("block.restrictions")
    counts = Counter(a for _, a in blocks)
    for attacker in attackers:
        if attacker.min_blockers and 0 < counts[attacker.name] < attacker.min_blockers:
            problems.append(f"{attacker.name} ne peut être bloquée que par "
                            f"{plural(attacker.min_blockers, 'créature')} ou plus")
            concepts.append("block.restrictions")
    return problems, concepts


def _block_requirements(board: Board, theirs: list[Creature], attackers: list[Creature],
                        blockers: list[str], blocks: tuple[tuple[str, str], ...]) -> list[str]:
    """Requirements disobeyed: creatures that must block (as many as can be obeyed), and
    attackers all creatures able to block must block."""
    found: list[str] = []
    if any(c.must_block and c.block_cost == 0 for c in theirs):  # else no requirement to count
        free = [c for c in theirs if c.block_cost == 0
                and any(not block_reasons(board, c, a)[0] for a in attackers)]
        required = [c for c in free if c.must_block]
        found = _requirements(required, set(blockers),
                              _most_blocks_obeyed(board, required, free, attackers), "bloquer")
    lures = [a for a in attackers if a.must_be_blocked_by_all]
    if lures:
        found += _lure_problems(board, theirs, lures, blocks)
    return found


def _lure_problems(board: Board, theirs: list[Creature], lures: list[Creature],
                   blocks: tuple[tuple[str, str], ...]) -> list[str]:
    """« All creatures able to block it do so »: a requirement on each creature able to block
    the attacker (without a cost to pay); a declaration obeys as many as it can (2004 500.2–500.4,
    2010 509.1c). Each such creature can obey one by blocking one of those attackers."""
    able = [c for c in theirs if c.block_cost == 0
            and any(not block_reasons(board, c, a)[0] for a in lures)]
    lured = {a.name for a in lures}
    missing = [c.name for c in able if not any(b == c.name and a in lured for b, a in blocks)]
    if not missing:
        return []
    many = len(missing) > 1
    return [f"{listing(missing)} {'peuvent' if many else 'peut'} bloquer "
            f"{listing(sorted(lured))}, que toutes les créatures capables de la bloquer doivent "
            "bloquer : une exigence que cette déclaration n'observe pas alors qu'elle le pourrait"]
