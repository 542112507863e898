"""Page features for the topic balancer: hashed, sublinear TF-IDF vectors (``HashedTfidf``).

Feature hashing (Weinberger et al. 2009, "Feature Hashing for Large Scale Multitask Learning", as in
scikit-learn's ``HashingVectorizer``): each word goes to one of ``n_features`` buckets by ``zlib.crc32``
(stable across processes, unlike ``hash()``). Sublinear tf and idf as in scikit-learn's
``TfidfVectorizer(sublinear_tf=True)``: tf = 1 + ln(count), idf = ln((1 + N) / (1 + df)), L2-normalised.

A mixin of ``crawler.frontier.topics.TopicBalancer``, which owns the state these methods read and write (set in its
``__init__``; the attributes are declared below). Pure Python + numpy, deterministic.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter

import numpy as np

# Words: runs of 2+ letters in any script (digits and underscores excluded). Scripts without spaces (Chinese,
# Japanese) come out as long runs, coarse but stable features; the balancer only needs a rough topic signal.
_WORD = re.compile(r"[^\W\d_]{2,}")


class HashedTfidf:
    """Tokens -> hashed word buckets -> tf-idf vectors; the feature half of ``TopicBalancer``."""

    max_chars: int
    max_words: int
    max_vocabulary: int
    _mask: int
    _df: np.ndarray
    _n_docs: int
    _token_buckets: dict[str, int | tuple[int, ...]]
    _multi_word_tokens: set[str]
    _words: dict[int, str]

    def _terms(self, text: str) -> tuple[np.ndarray, np.ndarray] | None:
        """Sorted unique bucket ids and their term counts for ``text``'s first ``max_words`` tokens.

        Splits on whitespace and counts raw tokens first ("bread," and "bread" separately), then maps each
        distinct token to its words' buckets through a cache: the regex then runs once per new token
        instead of over the whole text, ~3x faster; counts of tokens sharing a bucket are summed.
        """
        tokens = text[: self.max_chars].lower().split()
        if not tokens:
            return None
        counts = Counter(tokens[: self.max_words])
        cache = self._token_buckets
        buckets = [cache.get(token) for token in counts]  # a list comprehension: no per-token numpy writes
        # Tokens holding several words ("well-known", "état-major") map to tuples; they are few, so they are
        # looked up by set intersection rather than by testing every token.
        multi = {token: cache[token] for token in self._multi_word_tokens.intersection(counts)}
        if None in buckets:
            for i, token in enumerate(counts):
                if buckets[i] is None:
                    value = buckets[i] = self._learn_token(token)
                    if isinstance(value, tuple):
                        multi[token] = value
        weights = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
        if multi:
            ids = np.array([-1 if isinstance(b, tuple) else b for b in buckets], dtype=np.int64)
            extra = [(bucket, counts[token]) for token, value in multi.items() for bucket in value]
            ids = np.concatenate([ids, np.array([b for b, _ in extra], dtype=np.int64)])
            weights = np.concatenate([weights, np.array([c for _, c in extra], dtype=np.float64)])
        else:
            ids = np.array(buckets, dtype=np.int64)
        if (ids < 0).any():  # tokens without a word ("2024", "--")
            keep = ids >= 0
            ids, weights = ids[keep], weights[keep]
            if not len(ids):
                return None
        unique, inverse = np.unique(ids, return_inverse=True)
        return unique, np.bincount(inverse, weights=weights, minlength=len(unique))

    def _learn_token(self, token: str) -> int | tuple[int, ...]:
        """Bucket of the token's word, a tuple when it holds several words, -1 when it holds none."""
        buckets = []
        for word in _WORD.findall(token):
            bucket = zlib.crc32(word.encode("utf-8", "replace")) & self._mask
            if len(self._words) < self.max_vocabulary:
                self._words.setdefault(bucket, word)
            buckets.append(bucket)
        value: int | tuple[int, ...] = -1 if not buckets else buckets[0] if len(buckets) == 1 else tuple(buckets)
        if len(self._token_buckets) >= self.max_vocabulary:
            # The simplest bounded cache: deterministic, and refilling it is cheap.
            self._token_buckets.clear()
            self._multi_word_tokens.clear()
        self._token_buckets[token] = value
        if isinstance(value, tuple):
            self._multi_word_tokens.add(token)
        return value

    def _vector(self, ids: np.ndarray, tfs: np.ndarray) -> np.ndarray | None:
        """L2-normalised sublinear tf-idf weights for ``ids`` under the current document frequencies."""
        idf = np.log((1.0 + self._n_docs) / (1.0 + self._df[ids]))
        values = (1.0 + np.log(tfs)) * idf
        norm = float(np.sqrt(values @ values))
        if norm == 0.0:
            return None
        return values / norm
