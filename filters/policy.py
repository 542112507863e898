"""Publisher opt-outs: pages whose publisher reserved training use are not training data.

The crawler records a training-use verdict per page (crawler/policy/signals.py: robots.txt for the bot
and its training token, IETF AI-preferences Content-Usage, TDMRep, noai). This step drops pages
whose verdict is ``training_allowed = False``; pages without a verdict (a Common Crawl WARC, a
JSONL corpus) pass, as there is nothing to honour. It runs on pages, before extraction, so no
work is spent on them.
"""

from __future__ import annotations

from pipelines.records import Page
from pipelines.step import Drop, Step


class TrainingOptOut(Step):
    input_kind = "page"
    default_name = "opt_out"

    def process(self, page: Page) -> Page:
        if page.training_allowed is False:
            raise Drop("training_opt_out", ", ".join(page.policy_signals)[:200] or None)
        return page
