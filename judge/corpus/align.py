"""Aligning the rules of two releases: word scores, global assignments, structure, splits and merges.

Pure computation over `Item`s (a rule's number and its normalised words, see
`judge.corpus.concordance`); it knows nothing of editions, files or overrides. Imports numpy,
rapidfuzz and scipy, so it only runs when the concordance cache is cold.

1. **Exact**: identical word sequences that occur once on each side (headings: the same title).
2. **Similarity**: the mean of a word-level Indel ratio (rapidfuzz) and a TF-IDF cosine.
3. **Section prior**: from the exact and the confident (mutual best) matches, how often a rule
   of old section S lands in new section T, backed off to chapter level (so that 3xx -> 5xx is
   learned, never written down).
4. **Global assignment** (`scipy.optimize.linear_sum_assignment`) on similarity + prior; the
   accepted pairs are anchors.
5. **Context**: a second assignment where a pair lying between two anchors' targets (the order
   of rules inside a section is kept) gets a bonus, which lets heavily edited rules match.
6. **Families**: the structure of the rules is kept. A titled rule with sub-rules (a keyword:
   `502.15. Phasing` and `502.15a`…) is matched with the titled rule of the same name of the
   other side; a sub-rule is never paired under another titled rule than its family's
   counterpart (a keyword's sub-rule under another keyword), and is first matched among the
   sub-rules of its parent's counterpart (a bonus and a lower threshold there, as in context).
7. **Passages** (splits and merges): extra pairs whose shared word blocks cover what the
   one-to-one pairs left uncovered on both sides (a sentence that became a rule of its own,
   two rules made one).
8. **Restated**: a rule left without a counterpart whose text another rule of the other side
   states all the same (already paired: two rules made one) is paired with it, so that
   « removed » means that no rule of the other side states it.
9. **Leftovers**: rules left alone on both sides at the same place (in the family of the
   parent's counterpart, or between two anchors' targets) are paired one to one from a lower
   similarity (LEFTOVER): a rule rewritten so much that its place and a few words are all that
   says it is the same. What is then left is « removed » or « added ».
10. **Structure**: a heading left alone is paired with the heading or rule most of its rules
   went under: a section with a section, a titled rule with the rule its own sub-rules went
   directly under (a title turned into a sentence: 418.3's sub-rules became 611.2's).

The section prior and the families are learned from confident pairs too: a titled rule with no
namesake (2004's « Types ») is the counterpart of the titled rule under which one of its
sub-rules has an exact or a confident mutual-best counterpart (2010's « Card Types »).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Indel
from scipy import sparse
from scipy.optimize import linear_sum_assignment

Method = Literal["exact", "title", "similar", "family", "context", "passage", "restated", "leftover",
                 "structure"]

PRIOR_WEIGHT = 0.25  # how much the section prior adds to a similarity (0..1)
CONTEXT_WEIGHT = 0.3  # bonus for a pair lying between two anchors
CONFIDENT = 0.8  # mutual-best similarity that teaches the section prior
ACCEPT = 0.5  # similarity accepted without context
ACCEPT_IN_CONTEXT = 0.3  # similarity accepted between two anchors
MIN_BLOCK = 3  # words in a row that count as a shared passage
MIN_GAIN = 4  # newly covered words that justify a split or merge pair
STRONG_BLOCK = 10  # a passage this long is evidence even outside the section prior
FAMILY_WEIGHT = 0.3  # bonus for a sub-rule among the sub-rules of its parent's counterpart
RESTATED = 0.6  # similarity at which a rule left alone is said restated by an already paired one
RESTATED_IN_FAMILY = 0.45  # the same, inside the family of its parent's counterpart
LEFTOVER = 0.25  # similarity at which two rules left alone at the same place are paired
# The scores are dense old × new matrices: memory grows with that product, about 70 bytes a
# pair at the peak (measured, bench by hand: 2,000 × 4,000 rules, 524 MB, 32 s on a loaded
# machine). `align` is not asked for more pairs than this (the largest shipped pair of
# editions has 1.5 million): a user's edition of 50,000 rules took 6.9 GB.
MAX_PAIRS = 8_000_000


@dataclass(frozen=True, slots=True, kw_only=True)
class Item:
    """One rule as the aligner sees it: number, heading or not, normalised words."""

    number: str
    heading: bool
    words: tuple[str, ...]

    @property
    def section(self) -> str:
        return self.number.split(".", 1)[0]


@dataclass(frozen=True, slots=True, kw_only=True)
class Link:
    """An aligned pair of item indexes, with its similarity and how it was found."""

    source: int
    target: int
    similarity: float
    method: Method


class _Scores:
    """Every pairwise score of two item lists (dense matrices, rows = old, columns = new)."""

    def __init__(self, old: Sequence[Item], new: Sequence[Item]) -> None:
        vocabulary: dict[str, str] = {}
        self.old_codes = [_encode(item.words, vocabulary) for item in old]
        self.new_codes = [_encode(item.words, vocabulary) for item in new]
        len_old = np.array([len(c) for c in self.old_codes], dtype=np.float64)
        len_new = np.array([len(c) for c in self.new_codes], dtype=np.float64)
        distance = process.cdist(self.old_codes, self.new_codes, scorer=Indel.distance,
                                 workers=-1, dtype=np.int32)
        total = len_old[:, None] + len_new[None, :]
        self.lcs = (total - distance) / 2
        ratio = 2 * self.lcs / np.maximum(total, 1)
        old_vectors, new_vectors = _unit_tfidf(self.old_codes, self.new_codes, len(vocabulary))
        cosine = (old_vectors @ new_vectors.T).toarray()
        same_kind = np.array([i.heading for i in old])[:, None] == np.array([i.heading for i in new])[None, :]
        self.similarity = np.where(same_kind, (ratio + cosine) / 2, 0.0)


def _encode(words: tuple[str, ...], vocabulary: dict[str, str]) -> str:
    """One character per distinct word, so that rapidfuzz compares word sequences."""
    out = []
    for word in words:
        code = vocabulary.get(word)
        if code is None:
            code = vocabulary[word] = chr(0x100 + len(vocabulary))
        out.append(code)
    return "".join(out)


def _unit_tfidf(old: list[str], new: list[str], size: int) -> tuple[Any, Any]:
    """Square-root term frequencies times IDF over both sides, as unit rows (sparse)."""
    def counts(codes: list[str]) -> Any:
        rows = [k for k, code in enumerate(codes) for _ in code]
        cols = [ord(c) - 0x100 for code in codes for c in code]
        return sparse.csr_matrix((np.ones(len(cols)), (rows, cols)), shape=(len(codes), size))

    old_counts, new_counts = counts(old), counts(new)
    frequency = np.asarray((old_counts > 0).sum(axis=0) + (new_counts > 0).sum(axis=0)).ravel()
    idf = sparse.diags(np.log((len(old) + len(new) + 1) / (frequency + 1)))

    def unit(matrix: Any) -> Any:
        weighted = matrix.sqrt() @ idf
        norm = np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel())
        return sparse.diags(1 / np.maximum(norm, 1e-12)) @ weighted

    return unit(old_counts), unit(new_counts)


def align(old: Sequence[Item], new: Sequence[Item],
          reviewed: Sequence[tuple[int, int]] = ()) -> tuple[Link, ...]:
    """Every pair of the concordance of `old` -> `new` (items in reading order); `reviewed`:
    pairs known from a review (they make two titled rules counterparts, see `_Tree`)."""
    if not old or not new:
        return ()
    scores = _Scores(old, new)
    exact = _exact(old, new)
    tree = _Tree(old, new, sorted({*exact, *_mutual_best(scores.similarity)}), reviewed)
    scores.similarity[tree.forbidden] = 0.0
    scores.lcs[tree.forbidden] = 0.0
    sim = scores.similarity
    links: dict[tuple[int, int], Link] = {}
    for i, j in exact:
        if not tree.forbidden[i, j]:
            links[(i, j)] = Link(source=i, target=j, similarity=1.0, method="title" if old[i].heading else "exact")
    taught = set(links) | _mutual_best(sim)
    prior = _section_prior(old, new, taught)
    fixed_old = {i for i, _ in links}
    fixed_new = {j for _, j in links}
    first = _assign(sim + PRIOR_WEIGHT * prior, sim, fixed_old, fixed_new, accept=ACCEPT)
    anchors = set(links) | set(first)
    prior = _section_prior(old, new, anchors | taught)
    context = _context(old, new, anchors)
    family = tree.family()
    bonus = sim + PRIOR_WEIGHT * prior + CONTEXT_WEIGHT * context + FAMILY_WEIGHT * family
    second = _assign(bonus, sim, fixed_old, fixed_new, accept=ACCEPT,
                     accept_in_context=ACCEPT_IN_CONTEXT, context=np.maximum(context, family))
    for i, j in second:
        method: Method = ("similar" if sim[i, j] >= ACCEPT else "family" if family[i, j] else "context")
        links[(i, j)] = Link(source=i, target=j, similarity=float(sim[i, j]), method=method)
    for link in _splits_and_merges(scores, old, new, links, prior, np.maximum(context, family)):
        links[(link.source, link.target)] = link
    for link in _restated(old, new, sim, family, links):
        links[(link.source, link.target)] = link
    for link in _leftovers(old, new, sim, bonus, np.maximum(context, family), links):
        links[(link.source, link.target)] = link
    for link in _structure(old, new, links):
        links[(link.source, link.target)] = link
    return tuple(sorted(links.values(), key=lambda k: (k.source, k.target)))


def _container(number: str, section: str) -> str | None:
    """The number of the rule a rule lies directly under: its parent rule (`611.2a` -> `611.2`),
    else its section (`611.2` -> `611`); None for a section."""
    parent = number.rstrip("abcdefghijklmnopqrstuvwxyz")
    if parent != number:
        return parent
    return section if section != number else None


def _leftovers(old: Sequence[Item], new: Sequence[Item], sim: Any, score: Any, near: Any,
               links: dict[tuple[int, int], Link]) -> list[Link]:
    """Rules left alone on both sides, paired one to one where they lie at the same place (in
    the family of the parent's counterpart, or between the targets of two anchors) with a
    similarity of LEFTOVER or more: a rule rewritten so much that only its place and a few
    words say it is the same (2004's 421.3 loop rule and 2010's 714.3 fragmented loop)."""
    taken_old = {i for i, _ in links} | {i for i, item in enumerate(old) if item.heading}
    taken_new = {j for _, j in links} | {j for j, item in enumerate(new) if item.heading}
    found = _assign(score, sim, taken_old, taken_new, accept=np.inf, accept_in_context=LEFTOVER, context=near)
    return [Link(source=i, target=j, similarity=float(sim[i, j]), method="leftover") for i, j in found]


def _structure(old: Sequence[Item], new: Sequence[Item], links: dict[tuple[int, int], Link]) -> list[Link]:
    """Headings left alone paired with the heading or rule most of their rules went under: a
    section with the section most of all its rules went to, a titled rule with the rule its own
    sub-rules went directly under (2004's « 418.3 Continuous Effects from Spells or Abilities »
    whose 418.3a… became 2010's 611.2a…: 611.2, a rule with a sentence instead of a title)."""
    old_index = {item.number: k for k, item in enumerate(old)}
    new_index = {item.number: k for k, item in enumerate(new)}

    def container(item: Item) -> int | None:
        """The new rule a new rule lies directly under."""
        up = _container(item.number, item.section)
        return None if up is None else new_index.get(up)

    matched = {i for i, _ in links}
    direct: defaultdict[int, Counter[int]] = defaultdict(Counter)  # a heading's own rules
    by_section: defaultdict[int, Counter[int]] = defaultdict(Counter)  # a section's rules, all
    for i, j in links:
        item = old[i]
        up = _container(item.number, item.section)
        target = container(new[j])
        if up is not None and up in old_index and target is not None:
            direct[old_index[up]][target] += 1
        if item.section != item.number and item.section in old_index and new[j].section in new_index:
            by_section[old_index[item.section]][new_index[new[j].section]] += 1

    def winner(votes: Counter[int]) -> int | None:
        if not votes:
            return None
        (target, count), = votes.most_common(1)
        return target if count >= 2 and 2 * count > sum(votes.values()) else None

    extra = []
    for i, item in enumerate(old):
        if i in matched or not item.heading:
            continue
        first, then = (by_section, direct) if item.number == item.section else (direct, by_section)
        target = winner(first[i])
        if target is None:
            target = winner(then[i])
        if target is not None:
            extra.append(Link(source=i, target=target, similarity=0.0, method="structure"))
    return extra


class _Tree:
    """The families of both sides: a titled rule with sub-rules (`502.15. Phasing`, `502.15a`…).

    A family's counterparts on the other side: the titled rule of the same name (its only one:
    a keyword's sub-rules stay under the same keyword), a reviewed pair of titled rules, or, for
    a family without namesake, the family of an exact counterpart of one of its sub-rules
    (2004's « Bands with Other » made part of 2010's Banding). A sub-rule of a titled rule is
    never paired with a sub-rule of a titled rule that is not one of its counterparts, unless
    its family has no namesake and its text names that titled rule."""

    def __init__(self, old: Sequence[Item], new: Sequence[Item], exact: Sequence[tuple[int, int]],
                 reviewed: Sequence[tuple[int, int]]) -> None:
        old_parent, new_parent = _parents(old), _parents(new)
        old_named = _named_parents(old, old_parent)
        new_named = _named_parents(new, new_parent)
        titled_old, titled_new = set(old_named.values()), set(new_named.values())
        named = {old_named[name]: new_named[name] for name in old_named.keys() & new_named.keys()}
        counterparts: defaultdict[int, set[int]] = defaultdict(set)
        for p, q in named.items():
            counterparts[p].add(q)
        for p, q in reviewed:
            if p in titled_old and q in titled_new:
                counterparts[p].add(q)
        for i, j in exact:
            p, q = old_parent.get(i, i), new_parent.get(j, j)
            if p in titled_old and q in titled_new and p not in named:
                counterparts[p].add(q)
        self.counterparts = dict(counterparts)
        self._old_parents = np.array([old_parent.get(i, -1) for i in range(len(old))])
        self._new_parents = np.array([new_parent.get(j, -1) for j in range(len(new))])
        in_titled_new = np.isin(self._new_parents, list(titled_new))
        forbidden = np.zeros((len(old), len(new)), dtype=bool)
        for p in titled_old:
            rows = self._old_parents == p
            if rows.any():
                allowed = np.isin(self._new_parents, list(self.counterparts.get(p, ())))
                forbidden[np.ix_(rows, in_titled_new & ~allowed)] = True
        # A sub-rule of a titled rule without namesake may go under a titled rule that it names
        # (2004's « 212.1 General » sub-rule on supertypes under 2010's « 204.4 Supertypes »).
        for i, p in old_parent.items():
            if p in titled_old and p not in named:
                words = _stems(old[i].words)
                for q in titled_new:
                    if _names(words, _stems(new[q].words)):
                        forbidden[i, self._new_parents == q] = False
        self.forbidden = forbidden

    def family(self) -> Any:
        """1 where a new rule is a sub-rule of a counterpart of an old sub-rule's titled parent
        (untitled parents are left to the context: their sub-rules often go several ways)."""
        pairs = {(p, q) for p, found in self.counterparts.items() for q in found}
        out = np.zeros(self.forbidden.shape, dtype=np.float64)
        for p, q in pairs:
            rows = self._old_parents == p
            if rows.any():
                out[np.ix_(rows, self._new_parents == q)] = 1.0
        return out


def _stems(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words)


def _names(words: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """The words hold the name, in a row."""
    return bool(name) and any(words[k:k + len(name)] == name for k in range(len(words) - len(name) + 1))


def _parents(items: Sequence[Item]) -> dict[int, int]:
    """Index of each sub-rule's parent rule (`502.15a` -> `502.15`), when it is in the list."""
    index = {item.number: k for k, item in enumerate(items)}
    out = {}
    for k, item in enumerate(items):
        if item.number[-1:].isalpha():
            parent = index.get(item.number.rstrip("abcdefghijklmnopqrstuvwxyz"))
            if parent is not None:
                out[k] = parent
    return out


def _named_parents(items: Sequence[Item], parent: dict[int, int]) -> dict[tuple[str, ...], int]:
    """Titled rules with sub-rules, by name (names found once only)."""
    names: defaultdict[tuple[str, ...], set[int]] = defaultdict(set)
    for p in set(parent.values()):
        if items[p].heading and items[p].words:
            names[items[p].words].add(p)
    return {name: next(iter(found)) for name, found in names.items() if len(found) == 1}


def _restated(old: Sequence[Item], new: Sequence[Item], sim: Any, family: Any,
              links: dict[tuple[int, int], Link]) -> list[Link]:
    """A rule left alone paired with the most similar rule of the other side when that one
    states it all the same (similarity >= RESTATED, or RESTATED_IN_FAMILY in its family)."""
    matched_old = {i for i, _ in links}
    matched_new = {j for _, j in links}
    threshold = np.where(family > 0, RESTATED_IN_FAMILY, RESTATED)
    ok = sim >= threshold
    extra = []
    for i, item in enumerate(old):
        if i in matched_old or item.heading:
            continue
        j = int(np.argmax(np.where(ok[i], sim[i], -1.0)))
        if ok[i, j] and not new[j].heading:
            extra.append(Link(source=i, target=j, similarity=float(sim[i, j]), method="restated"))
    ok &= family > 0  # a new rule is said restated from an old one in its family only
    for j, item in enumerate(new):
        if j in matched_new or item.heading:
            continue
        i = int(np.argmax(np.where(ok[:, j], sim[:, j], -1.0)))
        if ok[i, j] and not old[i].heading:
            extra.append(Link(source=i, target=j, similarity=float(sim[i, j]), method="restated"))
    return extra


def word_similarity(old: tuple[str, ...], new: tuple[str, ...]) -> float:
    """Share of words two texts have in common, in order (normalised Indel similarity, 0..1)."""
    vocabulary: dict[str, str] = {}
    return float(Indel.normalized_similarity(_encode(old, vocabulary), _encode(new, vocabulary)))


def _exact(old: Sequence[Item], new: Sequence[Item]) -> list[tuple[int, int]]:
    """Identical word sequences that occur exactly once on each side."""
    def index(items: Sequence[Item]) -> dict[tuple[bool, tuple[str, ...]], list[int]]:
        found: dict[tuple[bool, tuple[str, ...]], list[int]] = defaultdict(list)
        for k, item in enumerate(items):
            if item.words:
                found[(item.heading, item.words)].append(k)
        return found

    old_index, new_index = index(old), index(new)
    return sorted(
        (rows[0], new_index[words][0])
        for words, rows in old_index.items()
        if len(rows) == 1 and len(new_index.get(words, ())) == 1
    )


def _mutual_best(sim: Any) -> set[tuple[int, int]]:
    """Pairs that are each other's best match with a confident similarity."""
    best_new = sim.argmax(axis=1)
    best_old = sim.argmax(axis=0)
    return {(i, int(j)) for i, j in enumerate(best_new) if best_old[j] == i and sim[i, j] >= CONFIDENT}


def _section_prior(old: Sequence[Item], new: Sequence[Item], taught: set[tuple[int, int]]) -> Any:
    """P(new section | old section) learned from the `taught` pairs, backed off to chapters."""
    sections: defaultdict[str, Counter[str]] = defaultdict(Counter)
    chapters: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for i, j in taught:
        sections[old[i].section][new[j].section] += 1
        chapters[old[i].section[0]][new[j].section[0]] += 1
    new_sections = sorted({item.section for item in new})
    new_chapters = sorted({s[0] for s in new_sections})
    per_chapter = Counter(s[0] for s in new_sections)
    column = {s: k for k, s in enumerate(new_sections)}
    rows: dict[str, Any] = {}
    for section in {item.section for item in old}:
        chapter = chapters[section[0]]
        chapter_total = sum(chapter.values())
        backoff = np.array([
            (chapter[s[0]] + 1 / len(new_chapters)) / (chapter_total + 1) / per_chapter[s[0]]
            for s in new_sections
        ])
        counts = sections[section]
        observed = np.array([counts[s] for s in new_sections], dtype=np.float64)
        rows[section] = (observed + 2.0 * backoff) / (sum(counts.values()) + 2.0)
    by_section = np.array([rows[item.section] for item in old])
    return by_section[:, [column[item.section] for item in new]]


def _assign(score: Any, sim: Any, fixed_old: set[int], fixed_new: set[int], *, accept: float,
            accept_in_context: float | None = None, context: Any = None) -> list[tuple[int, int]]:
    """One-to-one pairs maximising the total score, outside the fixed rows and columns."""
    rows = [i for i in range(score.shape[0]) if i not in fixed_old]
    cols = [j for j in range(score.shape[1]) if j not in fixed_new]
    if not rows or not cols:
        return []
    sub_sim = sim[np.ix_(rows, cols)]
    ok = sub_sim >= accept
    if accept_in_context is not None and context is not None:
        ok |= (context[np.ix_(rows, cols)] > 0) & (sub_sim >= accept_in_context)
    gain = np.where(ok, score[np.ix_(rows, cols)], 0.0)
    picked_rows, picked_cols = linear_sum_assignment(-gain)
    return [(rows[r], cols[c]) for r, c in zip(picked_rows, picked_cols, strict=True) if ok[r, c]]


def _context(old: Sequence[Item], new: Sequence[Item], anchors: set[tuple[int, int]]) -> Any:
    """1 where a new rule lies between the targets of the anchors around an old rule."""
    target_of = {i: j for (i, j) in anchors}
    section_span: dict[str, tuple[int, int]] = {}
    for k, item in enumerate(new):
        low, _ = section_span.get(item.section, (k, k))
        section_span[item.section] = (low, k)
    window = np.zeros((len(old), len(new)), dtype=np.float64)
    members: defaultdict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(old):
        members[item.section].append(i)
    for rows in members.values():
        for k, i in enumerate(rows):
            before = next((target_of[p] for p in reversed(rows[:k]) if p in target_of), None)
            after = next((target_of[p] for p in rows[k + 1:] if p in target_of), None)
            if before is not None and after is not None and before < after:
                window[i, before + 1:after] = 1
                continue
            if before is not None:
                window[i, before + 1:section_span[new[before].section][1] + 1] = 1
            if after is not None:
                window[i, section_span[new[after].section][0]:after] = 1
    return window


def _blocks(a: str, b: str) -> list[tuple[int, int, int]]:
    """Shared passages (start in a, start in b, length) of at least MIN_BLOCK words."""
    return [(block.a, block.b, block.size)
            for block in Indel.opcodes(a, b).as_matching_blocks() if block.size >= MIN_BLOCK]


def _parent(item: Item) -> str:
    return item.number.rstrip("abcdefghijklmnopqrstuvwxyz") if item.number[-1].isalpha() else item.section


def _shared_passages(old: list[str], new: list[str]) -> set[tuple[int, int]]:
    """Pairs sharing STRONG_BLOCK words in a row, or where one whole short rule is in the other."""
    shingles: defaultdict[str, set[int]] = defaultdict(set)
    for j, code in enumerate(new):
        for k in range(len(code) - STRONG_BLOCK + 1):
            shingles[code[k:k + STRONG_BLOCK]].add(j)
    found = {(i, j) for i, code in enumerate(old)
             for k in range(len(code) - STRONG_BLOCK + 1) for j in shingles.get(code[k:k + STRONG_BLOCK], ())}
    for i, code in enumerate(old):
        if MIN_GAIN <= len(code) < STRONG_BLOCK:
            found.update((i, j) for j, other in enumerate(new) if code in other)
    for j, code in enumerate(new):
        if MIN_GAIN <= len(code) < STRONG_BLOCK:
            found.update((i, j) for i, other in enumerate(old) if code in other)
    return found


def _splits_and_merges(scores: _Scores, old: Sequence[Item], new: Sequence[Item],
                       links: dict[tuple[int, int], Link], prior: Any, context: Any) -> list[Link]:
    """Extra pairs covering passages that the one-to-one pairs left unexplained on both sides."""
    covered_old = [np.zeros(len(c), dtype=bool) for c in scores.old_codes]
    covered_new = [np.zeros(len(c), dtype=bool) for c in scores.new_codes]
    for i, j in links:
        for a0, b0, size in _blocks(scores.old_codes[i], scores.new_codes[j]):
            covered_old[i][a0:a0 + size] = True
            covered_new[j][b0:b0 + size] = True
    matched_old = {i for i, _ in links}
    matched_new = {j for _, j in links}
    plausible = (prior >= 0.2) | (context > 0)
    len_old = np.array([len(c) for c in scores.old_codes], dtype=np.float64)[:, None]
    len_new = np.array([len(c) for c in scores.new_codes], dtype=np.float64)[None, :]
    wanted = (scores.lcs >= np.maximum(MIN_GAIN, 0.2 * np.minimum(len_old, len_new))) & plausible
    for i, j in _shared_passages(scores.old_codes, scores.new_codes):
        wanted[i, j] = True
    wanted &= scores.similarity > 0  # never across families (`_Tree.forbidden`)
    for i, j in links:
        wanted[i, j] = False
    candidates = np.argwhere(wanted)
    def fresh(i: int, j: int) -> list[tuple[int, int, int]]:
        """Shared blocks that explain words left unexplained on both sides."""
        return [(a0, b0, size) for a0, b0, size in _blocks(scores.old_codes[i], scores.new_codes[j])
                if not covered_old[i][a0:a0 + size].any() and not covered_new[j][b0:b0 + size].any()]

    def evidence(i: int, j: int, blocks: list[tuple[int, int, int]]) -> bool:
        gain = sum(size for _, _, size in blocks)
        longest = max((size for _, _, size in blocks), default=0)
        whole = longest in (len(scores.old_codes[i]), len(scores.new_codes[j]))
        if not (plausible[i, j] or longest >= STRONG_BLOCK or whole):
            return False
        return gain >= MIN_GAIN and (longest >= STRONG_BLOCK or whole
                                     or gain >= 0.2 * len(scores.old_codes[i])
                                     or gain >= 0.5 * len(scores.new_codes[j]))

    found: list[tuple[float, int, int]] = []
    for i, j in candidates:
        i, j = int(i), int(j)
        if old[i].heading or new[j].heading:
            continue
        blocks = fresh(i, j)
        if evidence(i, j, blocks):
            gain = sum(size for _, _, size in blocks)
            found.append((gain * (1 + prior[i, j] + context[i, j]), i, j))
    extra: list[Link] = []
    for _weight, i, j in sorted(found, key=lambda f: (-f[0], f[1], f[2])):
        blocks = fresh(i, j)
        if not evidence(i, j, blocks):
            continue
        for a0, b0, size in blocks:
            covered_old[i][a0:a0 + size] = True
            covered_new[j][b0:b0 + size] = True
        extra.append(Link(source=i, target=j, similarity=float(scores.similarity[i, j]), method="passage"))
        matched_old.add(i)
        matched_new.add(j)
    # Parallel splits: one old passage written out in two neighbouring new rules (a rule about
    # "blocks or becomes blocked" made two rules): the old words may be used twice.
    linked = sorted({(link.source, link.target) for link in (*links.values(), *extra)})
    for i, j in linked:
        for k in (j - 2, j - 1, j + 1, j + 2):
            if not 0 <= k < len(new) or k in matched_new or new[k].heading or _parent(new[k]) != _parent(new[j]):
                continue
            blocks = [(a0, b0, size) for a0, b0, size in _blocks(scores.old_codes[i], scores.new_codes[k])
                      if not covered_new[k][b0:b0 + size].any()]
            longest = max((size for _, _, size in blocks), default=0)
            if longest >= STRONG_BLOCK or sum(size for _, _, size in blocks) >= 0.5 * len(scores.new_codes[k]):
                for _, b0, size in blocks:
                    covered_new[k][b0:b0 + size] = True
                extra.append(Link(source=i, target=k, similarity=float(scores.similarity[i, k]), method="passage"))
                matched_new.add(k)
    return extra
