"""Which kinds of question a sentence's words ask: the check that a question is answered as
asked, never as another.

Owns the `[question_cues]` of `rules/ask-words.toml` (the words that ask each `ask` of the
situation format) and the one test on them: a question read as one kind whose asking sentence
has none of that kind's words, but some of another kind's, was misread (`misread`). Reading
the question and building the situation are `judge.ask.reader`'s and `judge.ask.build`'s.
"""

from __future__ import annotations

from functools import lru_cache

from judge.normalize import fold

CUES_TABLE = "question_cues"


@lru_cache(maxsize=1)
def cues() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Each kind: its cues, each a tuple of stems (one word or several in a row)."""
    from judge.ask.vocabulary import raw_table
    from judge.search.analysis import stem

    table = raw_table(CUES_TABLE)
    out: dict[str, tuple[tuple[str, ...], ...]] = {}
    for kind, words in table.items():
        if isinstance(words, list):
            out[kind] = tuple(tuple(stem(w) for w in fold(str(cue)).replace("-", " ").split()) for cue in words)
    return out


def asked_kinds(words: tuple[str, ...]) -> frozenset[str]:
    """The kinds some cue of which the folded words say (a cue of several words in a row)."""
    from judge.search.analysis import stem

    stems = tuple(stem(w) for w in words)
    found = set()
    for kind, kind_cues in cues().items():
        for cue in kind_cues:
            size = len(cue)
            if any(stems[i:i + size] == cue for i in range(len(stems) - size + 1)):
                found.add(kind)
                break
    return frozenset(found)


# A question answered by another's answer: « qui a la priorité ? » after a told sequence is
# answered by `where` (its `priority`), as `judge.ask.build` asks it.
ANSWERED_BY = {"where": frozenset({"priority"})}
# Kinds whose words also tell a fact of the situation (« … est bloqué par un 1/1 », « j'ai
# lancé », « il a attaqué ») : said in the asking sentence, they may be told, not asked. The
# other kinds' words only ask (« dans quelle phase entre-t-on ? », « qui a la priorité ? »).
TOLD = frozenset({"attack", "block", "cast", "play_land", "declare_attackers", "declare_blockers", "untap",
                  "deals_damage", "damage_dealt", "assign_damage", "triggers", "mana_burn", "discard",
                  "combat_timing", "in_combat"})


def misread(asks: set[str], asking: tuple[str, ...], question: tuple[str, ...]) -> str | None:
    """The kinds the asking sentence's words ask instead of `asks` (comma-separated), or None
    when they ask one of `asks` (or one `asks` answers), when the question's words ask one of
    them anywhere (a fact told in the asking sentence, « … est bloqué par un 1/1 : combien au
    joueur ? », is not what it asks), or when they say no kind at all (a terse question)."""
    said = asked_kinds(asking)
    known = set(cues())
    accepted = set(asks).union(*(ANSWERED_BY.get(a, frozenset()) for a in asks))
    if not said or not asks <= known or accepted & said:
        return None
    if said <= TOLD and accepted & asked_kinds(question):
        return None
    return ", ".join(sorted(said))
