"""The ``cohesion`` signal (filters/signals.py): real text repeats its topic's words from sentence to sentence, pages
stitched from unrelated sentences do not."""

from __future__ import annotations

import math
import random
import re

from filters.signals import NAMES, compute
from tests.conftest import SHARED_DATA, needs_shared

ARTICLE = """Sourdough bread is leavened by a starter, a culture of wild yeast and lactic acid bacteria.
Bakers feed the starter with flour and water every day to keep the culture active.
A healthy starter doubles in volume within a few hours of feeding.
The bacteria in the starter produce the lactic acid that gives sourdough bread its sour taste.
Because the yeast works slowly, sourdough needs a long fermentation, often overnight.
The long fermentation also breaks down some of the gluten in the flour.
Many bakers shape the dough in the evening and bake the bread the next morning.
The crust of sourdough bread is thick and dark because of the long, hot bake."""

MASHUP = """The committee postponed the vote on the budget until next spring.
Penguins huddle together to survive the Antarctic winter.
Her latest novel follows three sisters through the Spanish civil war.
The bridge was closed after engineers found cracks in two of its pillars.
Traders sold technology shares as interest rates climbed again.
A teaspoon of honey can soothe a sore throat.
The striker scored twice in the final ten minutes of the match.
Volcanic ash grounded flights across northern Europe for a week."""

GERMAN = """Die Bahn verlängert die Strecke zwischen Hamburg und Berlin um zwei neue Bahnhöfe.
Die neuen Bahnhöfe sollen im Jahr 2030 eröffnet werden.
Auf der Strecke fahren heute stündlich Züge des Fernverkehrs.
Mit den neuen Bahnhöfen halten die Züge künftig auch in kleineren Städten.
Die Fahrzeit zwischen Hamburg und Berlin verlängert sich dadurch um wenige Minuten.
Die Städte an der Strecke begrüßen die Pläne der Bahn."""

JAPANESE = """富士山は日本で最も高い山です。富士山の高さは三七七六メートルです。
毎年夏になると多くの登山者が富士山に登ります。
富士山の頂上からは美しい日の出を見ることができます。富士山は二〇一三年に世界文化遺産に登録されました。
冬の富士山は雪に覆われ、登山は危険です。"""


def cohesion(text: str, lang: str | None) -> float:
    return dict(zip(NAMES, compute(text, lang), strict=True))["cohesion"]


def test_a_text_about_one_thing_is_cohesive_and_a_mashup_is_not() -> None:
    assert cohesion(ARTICLE, "en") >= 0.7
    assert cohesion(MASHUP, "en") <= 0.15
    # the same sentences, one paragraph or one a line: sentences are cut at punctuation either way
    assert cohesion(ARTICLE.replace("\n", " "), "en") == cohesion(ARTICLE, "en")


def test_inflected_and_unspaced_languages_and_languages_without_a_stop_list() -> None:
    assert cohesion(GERMAN, "de") >= 0.6  # "Bahnhöfe"/"Bahnhöfen", "Strecke", "Hamburg", "Berlin"
    assert cohesion(JAPANESE, "ja") >= 0.6  # pairs of characters: 富士, 士山
    assert cohesion(ARTICLE, "xx") >= 0.7  # no stop list: every word of four letters counts
    assert cohesion(MASHUP, "xx") <= 0.4


def test_too_few_sentences_is_missing_not_zero() -> None:
    assert math.isnan(cohesion("Short page. Two sentences here, nothing more.", "en"))
    assert math.isnan(cohesion("", "en"))
    assert math.isnan(cohesion("\n".join(["- a", "- b", "- c"] * 5), "en"))  # list items of one word
    # one sentence repeated is cohesive, as a keyword-stuffed page is (other signals see the repetition)
    assert cohesion("Cheap flights to Paris today. " * 8, "en") == 1.0


@needs_shared("wcxb", "dev", "ground-truth")
def test_wcxb_articles_are_cohesive_and_mashups_of_their_sentences_are_not() -> None:
    """Real articles (WCXB dev ground truth) against pages stitched from sentences of different articles."""
    from bench.wcxb import load_pages

    texts = [p.gold for p in load_pages(SHARED_DATA / "wcxb" / "dev") if p.page_type == "article"
             and len(p.gold.split()) >= 200 and re.search(r"\b(?:the|and)\b", p.gold)]
    texts = texts[:80]
    assert len(texts) >= 40
    real = [c for t in texts if (c := cohesion(t, "en")) == c]
    rng = random.Random(0)
    sentences = [[s for s in re.split(r"(?<=[.!?])\s+", t) if len(s.split()) >= 8] for t in texts]
    mashups = []
    for _ in range(80):
        picks = [rng.choice(s) for s in rng.sample([s for s in sentences if s], 12)]
        mashups.append(cohesion(" ".join(picks), "en"))
    real.sort()
    mashups.sort()
    assert real[len(real) // 2] >= 0.6, real[len(real) // 2]
    assert mashups[len(mashups) // 2] <= 0.3, mashups[len(mashups) // 2]
    # the lowest tenth of real articles above the highest tenth of mash-ups
    assert real[len(real) // 10] > mashups[-len(mashups) // 10]
