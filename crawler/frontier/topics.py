"""Topic balancing: unsupervised topic clusters of crawled pages and a per-host penalty (``TopicBalancer``).

Pure Python + numpy, no Scrapy import: ``crawler/frontier/middleware.py`` feeds pages in and adds the
per-host adjustment to request priorities. Everything here is deterministic given the same calls in the
same order.

Where the method comes from
---------------------------
- Topic clustering: hashed TF-IDF (feature hashing, Weinberger et al. 2009, as in scikit-learn's
  ``HashingVectorizer``; sublinear tf and idf as in scikit-learn's ``TfidfVectorizer(sublinear_tf=True)``;
  ``crawler/frontier/topic_features.py``) and spherical k-means (Dhillon & Modha 2001) seeded by k-means++ (Arthur &
  Vassilvitskii 2007; ``crawler/frontier/topic_kmeans.py``), then updated online with per-centre learning rates 1/n
  (Sculley 2010, "Web-scale k-means clustering"), floored so centres keep adapting to a drifting crawl.
  Making new topics from groups of outliers (and merging the two closest topics to make room) is our own
  addition, described in ``TopicBalancer``.
- The topic balancer's parameters are our own choices, explained where they are defined.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from crawler.frontier.topic_features import HashedTfidf
from crawler.frontier.topic_kmeans import KMeansSeeding


@dataclass
class _Outlier:
    """A page far from every topic centre, kept to see whether it starts a new topic."""

    host: str
    ids: np.ndarray
    values: np.ndarray
    topic: int  # the topic it was counted in
    neighbours: set[int] = field(default_factory=set)  # keys of buffered outliers similar to it


class TopicBalancer(HashedTfidf, KMeansSeeding):
    """Unsupervised topic clusters of crawled pages, and a per-host penalty that keeps the crawl diverse.

    Features: the words (runs of 2+ letters, lower-cased) of a page's first ``max_words`` whitespace-separated
    tokens, each hashed with
    ``zlib.crc32`` into ``n_features`` buckets (stable across processes, unlike ``hash()``); tf = 1 + ln(count),
    idf = ln((1 + N) / (1 + df)) with document frequencies counted online (0 for a word in every page so far,
    so no stop-word list is needed); L2-normalised.

    Clustering (spherical k-means, cosine similarity): the first ``seed_pages`` pages are buffered, then
    k-means++ with a fixed-seed generator picks k centres and ``lloyd_iterations`` batch passes refine them.
    After that each page goes to its most similar centre, which moves towards it with rate
    max(1/n, ``min_learning_rate``), n = pages in that topic.

    New topics (our own addition; plain online k-means cannot make one, so a crawl whose first pages are
    all about cooking would lump astronomy into a cooking cluster): a page whose best similarity is below
    ``novelty`` x the running mean best similarity is an outlier. It is counted in its nearest topic but
    does not move that centre, and is kept in a buffer of ``outlier_buffer`` pages. When
    ``min_new_topic_pages`` buffered outliers are each within ``pair_similarity`` (cosine) of one of them,
    they become a new topic with a fresh id: the two most similar existing topics merge to free a slot
    (the smaller one's id then reports as the larger one's), and the pages move to the new topic. Topic ids
    are never reused, so an id recorded in WARC metadata keeps its meaning (up to merging).

    ``adjustment(host)``: with global topic shares p_t and the host's own topic shares q_t (from at least
    ``min_host_pages`` pages), the host's over-representation is o = sum_t q_t * p_t * k (1 when its
    topics are as common as under a uniform split, k when the crawl holds nothing but its one topic). The
    adjustment is ``-penalty_per_doubling * log2(o)``, rounded, at most ``max_penalty`` down, 0 when o <= 1.
    Caveat: k-means splits a dominant topic across several clusters when k exceeds the number of real
    topics, which dilutes the penalty; choose k near the number of topics worth balancing.

    Memory: centres are n_features x k float32 (16 MB at the defaults), document frequencies n_features
    int32 (1 MB), a scratch vector (2 MB), the seed buffer (``seed_pages`` sparse vectors), the outlier
    buffer, a word->bucket cache and a bucket->word map for top terms (each at most ``max_vocabulary``).
    """

    def __init__(
        self,
        k: int = 16,
        n_features: int = 2**18,
        seed_pages: int = 200,
        max_words: int = 2000,
        min_host_pages: int = 3,
        penalty_per_doubling: int = 10,
        max_penalty: int = 30,
        min_learning_rate: float = 0.002,
        lloyd_iterations: int = 10,
        novelty: float = 0.5,
        pair_similarity: float = 0.2,
        min_new_topic_pages: int = 5,
        outlier_buffer: int = 64,
        seed: int = 0,
        top_terms: int = 8,
        max_vocabulary: int = 2**17,
    ) -> None:
        if k < 2:
            raise ValueError(f"k must be >= 2, got {k}")
        if n_features & (n_features - 1):
            raise ValueError(f"n_features must be a power of two, got {n_features}")
        self.k = k
        self.n_features = n_features
        self.seed_pages = max(seed_pages, k)
        self.max_words = max_words
        # ~6 characters per word in European languages; the cap keeps lower() and split() bounded.
        self.max_chars = max_words * 10
        self.min_host_pages = min_host_pages
        self.penalty_per_doubling = penalty_per_doubling
        self.max_penalty = max_penalty
        self.min_learning_rate = min_learning_rate
        self.lloyd_iterations = lloyd_iterations
        self.novelty = novelty
        # 0.2: on 60 unrelated real news articles (../shared/data/extraction_bench) 99% of page pairs are
        # below 0.16, so five pages this close to one another are a topic, not chance.
        self.pair_similarity = pair_similarity
        self.min_new_topic_pages = min_new_topic_pages
        self.outlier_buffer = outlier_buffer
        self.seed = seed
        self.top_terms = top_terms
        self.max_vocabulary = max_vocabulary
        self._mask = n_features - 1
        self._df = np.zeros(n_features, dtype=np.int32)
        self._n_docs = 0
        self._buffer: list[tuple[str, np.ndarray, np.ndarray]] = []  # (host, bucket ids, raw tf) before seeding
        # Per slot (0..k-1): centre = _scale[slot] * _centres[:, slot], its squared norm, its page count, the
        # topic id it holds now. Topic ids start as the slot numbers; a new topic gets the next unused id.
        # Centres are stored bucket-major (n_features x k): a page's ~500 buckets are then ~500 cache lines
        # of k floats each, not k x 500 scattered reads; this halved the cost of assigning a page.
        self._centres: np.ndarray | None = None
        self._scale = np.ones(k, dtype=np.float64)
        self._sq_norm = np.zeros(k, dtype=np.float64)
        self._sizes = np.zeros(k, dtype=np.int64)
        self._slot_ids = np.arange(k, dtype=np.int64)
        self._next_id = k
        self._merged_into: dict[int, int] = {}
        self._host_topics: dict[str, np.ndarray] = {}  # host -> pages per slot
        self._typical = 0.0  # running mean of a page's best similarity
        self._outliers: OrderedDict[int, _Outlier] = OrderedDict()
        self._outlier_key = 0
        self._scratch = np.zeros(n_features, dtype=np.float64)
        self._token_buckets: dict[str, int | tuple[int, ...]] = {}
        self._multi_word_tokens: set[str] = set()
        self._words: dict[int, str] = {}  # bucket -> first word seen in it, for top terms
        self._adjust_cache: dict[str, int] = {}
        self.pages_observed = 0
        self.pages_without_topic = 0
        self.topics_created = 0

    @property
    def seeded(self) -> bool:
        return self._centres is not None

    # --- observing pages

    def observe(self, host: str, text: str) -> int | None:
        """Count ``text`` (a page of ``host``); return its topic id, or None before seeding / for empty text."""
        self._adjust_cache.clear()
        self.pages_observed += 1
        terms = self._terms(text or "")
        if terms is None:
            self.pages_without_topic += 1
            return None
        ids, tfs = terms
        self._df[ids] += 1
        self._n_docs += 1
        if self._centres is None:
            self._buffer.append((host, ids, tfs))
            if len(self._buffer) >= self.seed_pages:
                return self._seed()[-1]
            return None
        values = self._vector(ids, tfs)
        if values is None:
            self.pages_without_topic += 1
            return None
        return self._assign(host, ids, values)

    def seed_now(self) -> bool:
        """Seed from the pages buffered so far (at least k of them), e.g. when a small crawl ends."""
        if self._centres is None and len(self._buffer) >= self.k:
            self._seed()
        return self._centres is not None

    def _count(self, host: str, slot: int, delta: int = 1) -> None:
        self._sizes[slot] += delta
        counts = self._host_topics.get(host)
        if counts is None:
            counts = self._host_topics[host] = np.zeros(self.k, dtype=np.int64)
        counts[slot] += delta

    def _assign(self, host: str, ids: np.ndarray, values: np.ndarray) -> int:
        centres = self._centres
        assert centres is not None
        dots = (values.astype(np.float32) @ centres[ids]).astype(np.float64) * self._scale
        similarities = dots / np.sqrt(np.maximum(self._sq_norm, 1e-30))
        slot = int(np.argmax(similarities))
        best = float(similarities[slot])
        outlier = best < self.novelty * self._typical
        # ~100-page memory: follows a drifting crawl, ignores single odd pages.
        self._typical += 0.01 * (best - self._typical)
        self._count(host, slot)
        topic = int(self._slot_ids[slot])
        if outlier:
            new_topic = self._add_outlier(_Outlier(host, ids, values, topic))
            return topic if new_topic is None else new_topic
        # Move the centre: c <- (1 - eta) c + eta x, with c stored as scale * row so only x's buckets
        # are touched; the squared norm follows from ||x|| = 1 and the dot product already computed.
        eta = max(1.0 / self._sizes[slot], self.min_learning_rate)
        dot = dots[slot]
        self._sq_norm[slot] = (1 - eta) ** 2 * self._sq_norm[slot] + 2 * eta * (1 - eta) * dot + eta**2
        self._scale[slot] *= 1 - eta
        centres[ids, slot] += (eta / self._scale[slot]) * values
        if self._scale[slot] < 1e-6:
            # Fold the scale back into the column before float32 loses precision (every ~7,000 updates at
            # the minimum rate); recompute the norm exactly, which also removes accumulated rounding.
            self._set_centre(slot, centres[:, slot] * np.float32(self._scale[slot]))
        return topic

    # --- new topics from outliers

    def _add_outlier(self, page: _Outlier) -> int | None:
        """Buffer an outlier; if it completes a group of similar outliers, make them a topic (its new id)."""
        key = self._outlier_key
        self._outlier_key += 1
        scratch = self._scratch
        scratch[page.ids] = page.values
        for other_key, other in self._outliers.items():
            if float(scratch[other.ids] @ other.values) >= self.pair_similarity:
                page.neighbours.add(other_key)
                other.neighbours.add(key)
        scratch[page.ids] = 0.0
        self._outliers[key] = page
        while len(self._outliers) > self.outlier_buffer:
            old_key, old = self._outliers.popitem(last=False)
            for other_key in old.neighbours:
                if other_key in self._outliers:
                    self._outliers[other_key].neighbours.discard(old_key)
        if key not in self._outliers:
            return None
        # Only the new page and its neighbours gained a neighbour: the best core is among them.
        core = max([key, *sorted(page.neighbours)], key=lambda k: (len(self._outliers[k].neighbours), -k))
        members = [core, *sorted(self._outliers[core].neighbours)]
        if len(members) < self.min_new_topic_pages:
            return None
        new_topic = self._new_topic([self._outliers.pop(k) for k in members])
        for other in self._outliers.values():
            other.neighbours.difference_update(members)
        return new_topic if key in members else None

    def _slot_of(self, topic: int) -> int | None:
        while topic in self._merged_into:
            topic = self._merged_into[topic]
        slots = np.flatnonzero(self._slot_ids == topic)
        return int(slots[0]) if len(slots) else None

    def _new_topic(self, pages: list[_Outlier]) -> int:
        """Merge the two most similar topics to free a slot, and start a topic there from ``pages``."""
        centres = self._centres
        assert centres is not None
        true = centres * self._scale[None, :].astype(np.float32)  # n_features x k
        gram = (true.T @ true).astype(np.float64)
        norms = np.sqrt(np.maximum(np.diag(gram), 1e-30))
        cosine = gram / np.outer(norms, norms)
        np.fill_diagonal(cosine, -np.inf)
        a, b = np.unravel_index(int(np.argmax(cosine)), cosine.shape)  # first maximum: deterministic
        keep, free = (int(a), int(b)) if (self._sizes[a], -a) >= (self._sizes[b], -b) else (int(b), int(a))
        n_keep, n_free = int(self._sizes[keep]), int(self._sizes[free])
        merged = (n_keep * true[:, keep] + n_free * true[:, free]) / max(n_keep + n_free, 1)
        self._set_centre(keep, merged)
        self._sizes[keep] += self._sizes[free]
        for counts in self._host_topics.values():
            counts[keep] += counts[free]
            counts[free] = 0
        self._merged_into[int(self._slot_ids[free])] = int(self._slot_ids[keep])

        topic = self._next_id
        self._next_id += 1
        self.topics_created += 1
        self._slot_ids[free] = topic
        self._sizes[free] = 0
        centre = np.zeros(self.n_features, dtype=np.float64)
        for page in pages:
            centre[page.ids] += page.values
        self._set_centre(free, centre / len(pages))
        for page in pages:  # move each page from the topic it was counted in
            old = self._slot_of(page.topic)
            if old is not None and self._host_topics[page.host][old] > 0:
                self._count(page.host, old, -1)
            self._count(page.host, free)
        return topic

    def _set_centre(self, slot: int, centre: np.ndarray) -> None:
        assert self._centres is not None
        self._centres[:, slot] = centre
        self._scale[slot] = 1.0
        column = self._centres[:, slot]
        self._sq_norm[slot] = float(np.dot(column, column))

    # --- steering and reporting

    def adjustment(self, host: str) -> int:
        """Priority adjustment (<= 0) for requests to ``host`` from its topic mix; 0 before seeding."""
        cached = self._adjust_cache.get(host)
        if cached is not None:
            return cached
        value = 0
        counts = self._host_topics.get(host)
        total = int(self._sizes.sum())
        if counts is not None and total > 0 and counts.sum() >= self.min_host_pages:
            over = float((counts / counts.sum()) @ (self._sizes / total)) * self.k
            if over > 1.0:
                value = -min(self.max_penalty, round(self.penalty_per_doubling * math.log2(over)))
        self._adjust_cache[host] = value
        return value

    def host_topics(self, host: str) -> dict[int, int]:
        """Pages of ``host`` per topic id (topics with at least one page)."""
        counts = self._host_topics.get(host)
        return {} if counts is None else {int(self._slot_ids[slot]): int(c) for slot, c in enumerate(counts) if c}

    def distribution(self) -> dict[int, dict]:
        """Per topic id: ``count``, ``share``, ``hosts`` (hosts with a page in it), ``top_terms``; {} before seeding.

        Ids are the current topics' (0..k-1 at seeding, higher for topics created since); a merged topic's
        pages are counted under the topic it was merged into.
        """
        if self._centres is None:
            return {}
        total = int(self._sizes.sum())
        hosts = np.zeros(self.k, dtype=np.int64)
        for counts in self._host_topics.values():
            hosts += counts > 0
        out: dict[int, dict] = {}
        for slot in np.argsort(self._slot_ids, kind="stable"):
            row = self._centres[:, slot]
            # Partition only the non-zero buckets: argpartition over 2**18 mostly-equal zeros is slow.
            nonzero = np.flatnonzero(row > 0)
            n_top = min(self.top_terms, len(nonzero))
            top = nonzero[np.argpartition(row[nonzero], -n_top)[-n_top:]] if n_top else nonzero
            # Highest weight first; ties by bucket id so the report is deterministic.
            top = top[np.lexsort((top, -row[top]))]
            terms = [self._words.get(int(b), f"#{int(b)}") for b in top]
            out[int(self._slot_ids[slot])] = {
                "count": int(self._sizes[slot]),
                "share": round(int(self._sizes[slot]) / total, 4) if total else 0.0,
                "hosts": int(hosts[slot]),
                "top_terms": terms,
            }
        return out
