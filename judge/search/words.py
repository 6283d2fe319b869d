"""The real words of French and English: what a typo correction never rewrites.

From `wordfreq` (its French and English lists, pinned in pyproject.toml): the words of four
letters or more, folded, that occur at least once per million words (Zipf frequency >= 3).
Read once, when an index is built: the index folder stores them (`WORDS_FILE`, one a line,
sorted: `judge.search.index`) and the static book's export carries them, so a query never
loads wordfreq.
"""

from __future__ import annotations

import functools

from judge.normalize import fold

WORDS_FILE = "words.txt"
MIN_FREQUENCY = 1e-6  # Zipf 3: once per million words
MIN_LENGTH = 4  # shorter words are never corrected (`judge.search.query._correct`)


def read_words(path: str) -> frozenset[str] | None:
    """The words of a stored `WORDS_FILE`, or None when it is absent or not the user's own."""
    from judge.cache import open_trusted

    handle = open_trusted(path)
    if handle is None:
        return None
    with handle:
        try:
            return frozenset(handle.read().decode("utf-8").split("\n"))
        except (OSError, UnicodeDecodeError):
            return None


@functools.cache  # an index and the book's export, built in one run, read them once
def real_words() -> list[str]:
    """The folded real words of French and English, sorted.

    Read from wordfreq's own list of words by frequency (`get_frequency_list`: buckets of
    one centibel each, most frequent first, every word in one bucket), down to the last
    bucket of the minimum frequency: the words `get_frequency_dict` gives that frequency or
    more, without making the dict of all of them (a first run's time)."""
    from wordfreq import cB_to_freq, get_frequency_list

    found: set[str] = set()
    for language in ("fr", "en"):
        for centibels, bucket in enumerate(get_frequency_list(language)):
            if cB_to_freq(-centibels) < MIN_FREQUENCY:
                break
            found.update(fold(word) for word in bucket if len(word) >= MIN_LENGTH and word.isalpha())
    return sorted(found)
