from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from filters import langid
from filters.langid import MAX_CHARS, LanguageID, detect, get_model, normalise
from pipelines.records import DOCUMENT_SCHEMA, Document, from_table, to_table
from pipelines.step import Drop
from tests.conftest import SHARED_REASON

LANGID_DEV = Path(__file__).resolve().parents[2].parent / "shared/data/langid_dev.jsonl"
SAMPLED = ("en", "fr", "de", "es", "ja", "zh")

EN = "The committee will publish its final report on the new railway line early next year."
FR = "Le comité publiera son rapport final sur la nouvelle ligne de chemin de fer au début de l'année."
DE = "Der Ausschuss wird seinen Abschlussbericht über die neue Bahnstrecke Anfang nächsten Jahres vorlegen."


@pytest.fixture(scope="module")
def dev_rows() -> list[dict[str, str]]:
    if not LANGID_DEV.exists():
        pytest.skip(f"{SHARED_REASON}: {LANGID_DEV} is absent")
    with LANGID_DEV.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def doc(did: str, text: str | None) -> Document:
    return Document(
        id=did,
        url=f"https://example.org/{did}",
        source="t.warc.gz:0",
        training_allowed=True,
        policy_signals=["robots:allow"],
        text=text,
        title=f"title {did}",
    )


def test_detect_basic_languages() -> None:
    for text, want in ((EN, "en"), (FR, "fr"), (DE, "de")):
        lang, score = detect(text)
        assert lang == want
        assert isinstance(score, float)
        assert 0.5 < score <= 1.0


@pytest.mark.parametrize("text", ["", "   ", "\n\t\n"])
def test_empty_text_is_undetermined(text: str) -> None:
    assert detect(text) == ("und", 0.0)


def test_newlines_and_runs_of_whitespace_are_normalised() -> None:
    # raw fastText refuses "\n"; detect() must not
    messy = "The committee will\npublish its final\r\n\r\nreport\t\ton the   new railway line."
    assert normalise(messy) == "The committee will publish its final report on the new railway line."
    assert detect(messy) == detect(normalise(messy))
    assert detect(messy)[0] == "en"


def test_only_the_first_max_chars_are_classified() -> None:
    english = (EN + " ") * (MAX_CHARS // len(EN) + 2)
    french = (FR + " ") * 200
    assert len(normalise(english + french)) == MAX_CHARS
    assert detect(english + french) == detect(english)
    assert detect(english + french)[0] == "en"


def test_detect_equals_direct_model_predict(dev_rows: list[dict[str, str]]) -> None:
    model = get_model()
    rows = random.Random(7).sample(dev_rows, 300)
    for row in rows:
        text = row["text"] + "\n" + row["text"]  # exercise the normalisation
        line = " ".join(text.split())[:MAX_CHARS]
        labels, probs = model.predict(line, k=1)
        lang, score = detect(text)
        assert lang == labels[0].removeprefix("__label__")
        assert score == pytest.approx(min(float(probs[0]), 1.0), abs=1e-6)


def test_scores_are_probabilities(dev_rows: list[dict[str, str]]) -> None:
    # the raw softmax can exceed 1 by a hair; the step clips it
    step = LanguageID()
    step.setup()
    out = step.process_batch([doc(str(i), r["text"]) for i, r in enumerate(dev_rows)])
    scores = [d.lang_score for d in out]
    assert all(0.0 <= s <= 1.0 for s in scores)


def test_accuracy_on_major_languages(dev_rows: list[dict[str, str]]) -> None:
    rows = [r for r in dev_rows if r["lang"] in SAMPLED]
    assert len(rows) > 300
    step = LanguageID()
    step.setup()
    out = step.process_batch([doc(str(i), r["text"]) for i, r in enumerate(rows)])
    correct = sum(d.lang == r["lang"] for d, r in zip(out, rows, strict=True))
    assert correct / len(rows) >= 0.9
    for lang in SAMPLED:
        mine = [(d, r) for d, r in zip(out, rows, strict=True) if r["lang"] == lang]
        assert sum(d.lang == lang for d, _ in mine) / len(mine) >= 0.8, lang


def test_batch_is_one_model_call(monkeypatch: pytest.MonkeyPatch) -> None:
    real = get_model()
    calls: list[Any] = []

    class Counting:
        def predict(self, text: Any, k: int = 1) -> Any:
            calls.append(text)
            return real.predict(text, k=k)

    monkeypatch.setattr(langid, "_MODEL", Counting())
    step = LanguageID()
    out = step.process_batch([doc("a", EN), doc("b", ""), doc("c", FR), doc("d", None), doc("e", DE)])
    assert [(d.lang) for d in out] == ["en", "und", "fr", "und", "de"]
    assert len(calls) == 1
    assert calls[0] == [EN, FR, DE]  # empty texts never reach the model


def test_model_loads_lazily_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(langid, "_MODEL", None)
    assert detect(EN)[0] == "en"
    first = langid._MODEL
    assert first is not None
    LanguageID().setup()
    assert langid._MODEL is first


def test_lone_surrogates_do_not_fail_the_batch() -> None:
    step = LanguageID()
    out = step.process_batch([doc("a", EN + " \ud800"), doc("b", FR)])
    assert [d.lang for d in out] == ["en", "fr"]


def test_process_drops() -> None:
    step = LanguageID(languages=["en", "de"], min_score=0.5)
    step.setup()
    kept = step.process(doc("a", EN))
    assert kept.lang == "en" and kept.lang_score > 0.5
    with pytest.raises(Drop) as info:
        step.process(doc("b", FR))
    assert (info.value.reason, info.value.detail) == ("not_in_languages", "fr")
    with pytest.raises(Drop) as info:
        LanguageID(min_score=0.5).process(doc("c", ""))
    assert (info.value.reason, info.value.detail) == ("low_score", "und 0.00")
    # an empty text is kept when the threshold allows it
    assert LanguageID().process(doc("d", "")).lang == "und"


def test_framework_call_sets_fields_and_tombstones() -> None:
    step = LanguageID(languages=["en", "fr"], min_score=0.6)
    step.bind()
    step.setup()
    docs = [doc("en", EN), doc("fr", FR), doc("de", DE), doc("empty", ""), doc("none", None)]
    docs.append(Document(id="dead", url=None, source="s", dropped_by="extract.no_text"))
    out = step(to_table(docs, "document"))

    assert out.schema.equals(DOCUMENT_SCHEMA, check_metadata=True)
    rows = {r.id: r for r in from_table(out)}
    assert rows["en"].dropped_by is None and rows["en"].lang == "en" and rows["en"].lang_score > 0.6
    assert rows["fr"].dropped_by is None and rows["fr"].lang == "fr"
    assert rows["en"].text == EN and rows["en"].title == "title en"
    assert (rows["de"].dropped_by, rows["de"].drop_detail) == ("langid.not_in_languages", "de")
    assert rows["empty"].dropped_by == "langid.not_in_languages"  # "und" is not in the list
    assert rows["none"].dropped_by == "langid.not_in_languages"
    assert rows["dead"].dropped_by == "extract.no_text"
    assert rows["de"].text is None  # a plain tombstone does not carry the text

    low = LanguageID(min_score=0.6)
    low.bind()
    rows = {r.id: r for r in from_table(low(to_table([doc("empty", ""), doc("en", EN)], "document")))}
    assert (rows["empty"].dropped_by, rows["empty"].drop_detail) == ("langid.low_score", "und 0.00")
    assert rows["en"].dropped_by is None


def test_annotate_mode_keeps_language_on_tombstones() -> None:
    step = LanguageID(languages=["en"])
    step.bind(annotate=True)
    (row,) = from_table(step(to_table([doc("fr", FR)], "document")))
    assert row.dropped_by == "langid.not_in_languages"
    assert row.lang == "fr" and row.lang_score > 0.5 and row.text == FR


def test_step_pickles_before_and_after_setup() -> None:
    step = LanguageID(languages=("en",), min_score=0.65)
    assert step.needs_actor  # the model loads once per actor
    step.setup()
    clone = pickle.loads(pickle.dumps(step))
    assert (clone.languages, clone.min_score) == (["en"], 0.65)


@pytest.mark.parametrize(
    ("kwargs", "arg"),
    [
        ({"min_score": 1.5}, "min_score"),
        ({"min_score": -0.1}, "min_score"),
        ({"min_score": "0.5"}, "min_score"),
        ({"min_score": True}, "min_score"),
        ({"languages": "en"}, "languages"),
        ({"languages": []}, "languages"),
        ({"languages": ["EN"]}, "languages"),
        ({"languages": ["en", 3]}, "languages"),
        ({"languages": {"en": 1}}, "languages"),
        ({"macrolanguages": "yes"}, "macrolanguages"),
        ({"prose_only": 1}, "prose_only"),
    ],
)
def test_bad_arguments_fail_at_construction(kwargs: dict[str, Any], arg: str) -> None:
    with pytest.raises(ValueError, match=arg):
        LanguageID(**kwargs)


def test_unknown_language_code_fails_at_setup() -> None:
    step = LanguageID(languages=["en", "xx"])
    with pytest.raises(ValueError, match="xx"):
        step.setup()


# Croatian news prose (hand-written for this test): lid.176 splits it between hr, sh, bs and sr.
HR = ("Vlada je u četvrtak predstavila prijedlog zakona o obnovi željezničke pruge između Zagreba i Rijeke. "
      "Ministar je rekao da će radovi početi sljedeće godine i trajati najmanje pet godina. "
      "Gradonačelnici obaju gradova pozdravili su odluku, ali traže da se prvo obnove kolodvori.")


def test_macrolanguage_score_sums_the_members_lid176_names() -> None:
    (labels,), (probs,) = get_model().predict([normalise(HR)], k=4)
    codes = [label.removeprefix(langid.LABEL_PREFIX) for label in labels]
    members = [p for c, p in zip(codes, probs, strict=True) if c in {"sh", "hr", "bs", "sr"}]
    assert codes[0] in {"sh", "hr", "bs", "sr"} and len(members) >= 2, codes
    step = LanguageID(macrolanguages=True)
    (record,) = step.process_batch([doc("hr", HR)])
    plain = LanguageID().process_batch([doc("hr", HR)])[0]
    assert record.lang == plain.lang == codes[0]
    assert plain.lang_score == pytest.approx(float(probs[0]))
    assert record.lang_score == pytest.approx(min(sum(members), 1.0))
    assert record.lang_score > plain.lang_score + 0.05


def test_macrolanguages_leave_other_languages_alone() -> None:
    texts = [EN, FR, DE, ""]
    on = LanguageID(macrolanguages=True).process_batch([doc(str(i), t) for i, t in enumerate(texts)])
    off = LanguageID().process_batch([doc(str(i), t) for i, t in enumerate(texts)])
    assert [(r.lang, r.lang_score) for r in on] == [(r.lang, r.lang_score) for r in off]


def test_macro_score_arithmetic() -> None:
    from filters.langid_macro import MACROLANGUAGE_OF, macro_score

    assert macro_score(["hr", "sh", "en", "sr"], [0.4, 0.3, 0.1, 0.1]) == pytest.approx(0.8)
    assert macro_score(["nn", "sv", "no"], [0.6, 0.2, 0.15]) == pytest.approx(0.75)
    assert macro_score(["en", "sco"], [0.5, 0.4]) == 0.5  # Scots is not a member of an English macrolanguage
    assert macro_score([], []) == 0.0
    labels = {label.removeprefix(langid.LABEL_PREFIX) for label in get_model().get_labels()}
    assert set(MACROLANGUAGE_OF) <= labels  # every member is a label lid.176 can give
