"""Seeding the topic balancer: spherical k-means on its first pages (``KMeansSeeding``).

Spherical k-means (Dhillon & Modha 2001, "Concept Decompositions for Large Sparse Text Data using
Clustering": unit vectors, cosine similarity, normalised centres) seeded by k-means++ (Arthur &
Vassilvitskii 2007, "k-means++: The Advantages of Careful Seeding") with a fixed-seed generator, then batch
Lloyd passes. The result is the starting state of ``TopicBalancer``'s online updates (Sculley 2010, see
``crawler/frontier/topics.py``): each centre the mean of its pages.

A mixin of ``crawler.frontier.topics.TopicBalancer``, which owns the state this method reads and writes (set in its
``__init__``; the attributes are declared below) and provides ``_vector`` (``crawler.frontier.topic_features``) and
``_count``. Pure Python + numpy, deterministic.
"""

from __future__ import annotations

import numpy as np


class KMeansSeeding:
    """k-means++ and Lloyd passes over the buffered pages; the batch half of ``TopicBalancer``."""

    k: int
    n_features: int
    seed: int
    lloyd_iterations: int
    pages_without_topic: int
    _buffer: list[tuple[str, np.ndarray, np.ndarray]]
    _centres: np.ndarray | None
    _scale: np.ndarray
    _sq_norm: np.ndarray
    _typical: float

    def _seed(self) -> list[int | None]:
        """k-means++ on the buffered pages, then Lloyd passes; returns the buffered pages' topics.

        Stays unseeded (returns all None) while fewer than k buffered pages have a non-zero vector; the
        uninformative ones are dropped from the buffer then, so it stays small.
        """
        vectors = [self._vector(ids, tfs) for _, ids, tfs in self._buffer]
        informative = [i for i, values in enumerate(vectors) if values is not None]
        if len(informative) < self.k:
            self.pages_without_topic += len(self._buffer) - len(informative)
            self._buffer = [self._buffer[i] for i in informative]
            return [None] * len(vectors)
        hosts = [self._buffer[i][0] for i in informative]
        doc_ids = [self._buffer[i][1] for i in informative]
        doc_values = [vectors[i] for i in informative]
        self.pages_without_topic += len(self._buffer) - len(informative)
        self._buffer = []
        n_docs = len(doc_ids)
        lengths = [len(ids) for ids in doc_ids]
        # Work in the columns the buffered pages use, not all n_features buckets: far less memory.
        columns, flat_cols = np.unique(np.concatenate(doc_ids), return_inverse=True)
        flat_values = np.concatenate(doc_values)
        offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        row_of = np.repeat(np.arange(n_docs), lengths)
        doc_cols = np.split(flat_cols, np.cumsum(lengths)[:-1])

        def similarities(centres: np.ndarray) -> np.ndarray:
            # pages x centres dot products: per-element products summed per page (pages are contiguous)
            return np.add.reduceat(centres[:, flat_cols] * flat_values, offsets, axis=1).T

        def one_hot(index: int) -> np.ndarray:
            row = np.zeros(len(columns))
            row[doc_cols[index]] = doc_values[index]
            return row

        # k-means++ with distance 1 - cos, deterministic through the seeded generator
        rng = np.random.default_rng(self.seed)
        chosen = [int(rng.integers(n_docs))]
        best = np.full(n_docs, -np.inf)
        for _ in range(1, self.k):
            best = np.maximum(best, similarities(one_hot(chosen[-1])[None, :])[:, 0])
            weights = np.maximum(1.0 - best, 0.0) ** 2
            total = float(weights.sum())
            chosen.append(int(rng.choice(n_docs, p=weights / total)) if total > 0 else int(np.argmin(best)))
        centres = np.stack([one_hot(index) for index in chosen])

        labels = np.full(n_docs, -1, dtype=np.int64)
        for _ in range(self.lloyd_iterations):
            sims = similarities(centres)
            new_labels = np.argmax(sims, axis=1)
            if np.array_equal(new_labels, labels):
                break
            labels = new_labels
            sums = np.zeros_like(centres)
            np.add.at(sums, (labels[row_of], flat_cols), flat_values)
            own = sims[np.arange(n_docs), labels]
            for j in np.flatnonzero(np.bincount(labels, minlength=self.k) == 0):
                # An empty centre takes the page worst served by its own centre (deterministic).
                far = int(np.argmin(own))
                own[far] = np.inf
                sums[j] = one_hot(far)
            centres = sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-30)
        labels = np.argmax(similarities(centres), axis=1)

        # The online state: each centre is the mean of its pages (not normalised), as the online update keeps.
        sums = np.zeros_like(centres)
        np.add.at(sums, (labels[row_of], flat_cols), flat_values)
        sizes = np.bincount(labels, minlength=self.k)
        means = sums / np.maximum(sizes, 1)[:, None]
        self._centres = np.zeros((self.n_features, self.k), dtype=np.float32)
        self._centres[columns, :] = means.T
        self._scale = np.ones(self.k, dtype=np.float64)
        self._sq_norm = np.einsum("ij,ij->i", means, means)
        for host, label in zip(hosts, labels, strict=True):
            self._count(host, int(label))
        # The running mean best similarity starts from each seed page's similarity to its topic without
        # itself (leave-one-out): with the page in, small seed topics would look tighter than later pages.
        own = similarities(sums)[np.arange(n_docs), labels]  # x . S, S = sum of the page's topic
        rest_sq = np.einsum("ij,ij->i", sums, sums)[labels] - 2 * own + 1.0  # ||S - x||^2
        shared = sizes[labels] > 1
        if shared.any():
            loo = (own[shared] - 1.0) / np.sqrt(np.maximum(rest_sq[shared], 1e-30))
            self._typical = float(np.mean(loo))
        out: list[int | None] = [None] * len(vectors)
        for i, label in zip(informative, labels, strict=True):
            out[i] = int(label)
        return out
