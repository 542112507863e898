"""``winnow images fetch`` (issue 17, item 1): a ``winnow run`` output's images, fetched with the crawler's conduct.

- ``sources.py``: the rows that reference images (``image_text`` pairs, ``interleaved`` image segments);
- ``check.py``: decoding and checking one image with Pillow (pure functions);
- ``verdict.py``: the image response's opt-out signals, through crawler/policy/signals.py;
- ``ledger.py``: which rows wait for which URL (one fetch per URL), and each row's outcome;
- ``journal.py``: committed ids and skip reasons, for ``--resume`` and the statistics;
- ``writer.py``: ``images/*.parquet`` shards, written atomically;
- ``spider.py``: the Scrapy spider and its policy middleware;
- ``robots.py``: the crawler's robots.txt middleware, with its ``bytes_received`` handler connected only when needed;
- ``run.py``: settings, the crawl process and ``fetch-stats.json``;
- ``stage.py``: the same as a pipeline step (``FetchImages``), one fetch per wave in a child process (``child.py``).
"""
