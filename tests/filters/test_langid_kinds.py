"""Language ID on alt text and interleaved documents; the host-level language distribution stage."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest

from filters.langid import LanguageID
from filters.langid_hosts import HostLanguage, host_language_distribution, host_of, main
from pipelines.dataset import LocalDataset
from pipelines.records import Document, ImageTextPair, InterleavedDoc, Segment, from_table, to_table

EN = "The committee will publish its final report on the new railway line early next year."
FR = "Le comité publiera son rapport final sur la nouvelle ligne de chemin de fer au début de l'année."
DE = "Der Ausschuss wird seinen Abschlussbericht über die neue Bahnstrecke Anfang nächsten Jahres vorlegen."


def test_alt_text_and_interleaved_are_labelled() -> None:
    step = LanguageID(kind="image_text", languages=["en"])
    step.bind()
    pairs = [ImageTextPair(id="a", url=None, source="s", alt="A red bicycle leaning against a stone wall"),
             ImageTextPair(id="b", url=None, source="s", alt="Ein rotes Fahrrad lehnt an einer Steinmauer")]
    rows = {r.id: r for r in from_table(step(to_table(pairs, "image_text")))}
    assert rows["a"].lang == "en" and rows["a"].dropped_by is None
    assert rows["b"].dropped_by == "langid.not_in_languages"
    inter = InterleavedDoc(id="i", url=None, source="s", segments=[
        Segment("text", text=FR), Segment("image", image_url="u", alt="an English alt"), Segment("text", text=FR)])
    (out,) = LanguageID(kind="interleaved").process_batch([inter])
    assert out.lang == "fr" and out.lang_score > 0.5
    with pytest.raises(ValueError, match="kind"):
        LanguageID(kind="page")


def _docs() -> list[Document]:
    docs = []
    for i in range(6):
        docs.append(Document(id=f"a{i}", url=f"https://www.alpha.example/{i}", source="s", text=EN * 3, lang="en"))
    docs.append(Document(id="a-fr", url="https://alpha.example/fr", source="s", text=FR, lang="fr"))
    for i in range(3):
        docs.append(Document(id=f"b{i}", url=f"https://beta.example/{i}", source="s", text=DE * 2, lang="de"))
    docs.append(Document(id="nourl", url=None, source="s", text=EN, lang="en"))
    docs.append(Document(id="dead", url="https://beta.example/x", source="s", dropped_by="langid.low_score"))
    return docs


def _run(stage: HostLanguage, tmp_path: Path, wave: str = "w1") -> dict[str, Document]:
    stage.bind()
    stage.bind_state(str(tmp_path / "_state" / stage.name), wave, set())
    table = to_table(_docs(), "document")
    halves = [table.slice(0, 5), table.slice(5)]  # a host spread over two input batches
    out = pa.concat_tables(list(stage.run(LocalDataset(halves)).tables()))
    assert out.schema.names == table.schema.names
    return {r.id: r for r in from_table(out)}


def test_host_distribution_is_persisted_and_added_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _run(HostLanguage(), tmp_path)
    assert all(r.dropped_by is None for r in rows.values() if r.id != "dead")
    dist = host_language_distribution(tmp_path)
    assert set(dist) == {"alpha.example", "beta.example"}
    assert dist["alpha.example"]["en"]["docs"] == 6 and dist["alpha.example"]["fr"]["docs"] == 1
    assert dist["beta.example"] == {"de": {"docs": 3, "chars": 3 * len(DE * 2)}}
    assert main([str(tmp_path)]) == 0
    assert "alpha.example\ten\t6" in capsys.readouterr().out


def test_host_level_decisions(tmp_path: Path) -> None:
    rows = _run(HostLanguage(languages=["en"]), tmp_path)
    assert {r.id for r in rows.values() if r.dropped_by == "host_langid.host_not_in_languages"} == {"b0", "b1", "b2"}
    assert rows["a-fr"].dropped_by is None  # its host's main language is English
    assert rows["b0"].text is None and rows["b0"].drop_detail == "beta.example de"
    rows = _run(HostLanguage(min_host_share=0.1), tmp_path / "share")
    assert [r.id for r in rows.values() if r.dropped_by == "host_langid.off_host_language"] == ["a-fr"]
    assert rows["nourl"].dropped_by is None


def test_only_committed_waves_count(tmp_path: Path) -> None:
    _run(HostLanguage(), tmp_path, wave="w1")
    _run(HostLanguage(), tmp_path, wave="w2")
    progress = tmp_path / "_progress"
    progress.mkdir()
    (progress / "wave-w1.json").write_text(json.dumps({"wave": "w1"}))
    assert host_language_distribution(tmp_path)["beta.example"]["de"]["docs"] == 3  # w2 never committed


def test_host_of() -> None:
    assert host_of("https://WWW.Example.org:8080/a") == "example.org"
    assert host_of("not a url") is None and host_of(None) is None
    with pytest.raises(ValueError):
        HostLanguage(min_host_share=2)


def _lid_docs() -> list[Document]:
    """Pages with lid.176's verdicts as LanguageID writes them: an English site with confident pages and a code page
    whose few sentences lid.176 is unsure of, a German page on it, a site with no confident page, a page with no URL."""
    docs = [Document(id=f"s{i}", url=f"https://docs.example/{i}", source="s", text=EN * 3, lang="en",
                     lang_score=0.9, lang_source="page") for i in range(3)]
    docs.append(Document(id="code", url="https://docs.example/code", source="s", text="Run it:\n\n```\nx = 1\n```",
                         lang="de", lang_score=0.44, lang_source="page"))
    docs.append(Document(id="de", url="https://docs.example/de", source="s", text=DE, lang="de", lang_score=0.95,
                         lang_source="page"))
    docs += [Document(id=f"u{i}", url=f"https://unsure.example/{i}", source="s", text=EN, lang="en",
                      lang_score=0.5, lang_source="page") for i in range(3)]
    docs.append(Document(id="nourl", url=None, source="s", text=EN, lang="en", lang_score=0.3, lang_source="page"))
    return docs


def _run_docs(stage: HostLanguage, docs: list[Document], state: Path, wave: str, done: set[str]) -> dict:
    stage.bind()
    stage.bind_state(str(state), wave, done)
    out = pa.concat_tables(list(stage.run(LocalDataset([to_table(docs, "document")])).tables()))
    return {r.id: r for r in from_table(out)}


def test_an_unsure_page_takes_its_hosts_language(tmp_path: Path) -> None:
    rows = _run_docs(HostLanguage(min_score=0.65, fallback=True), _lid_docs(), tmp_path / "st", "w1", set())
    code = rows["code"]
    assert (code.dropped_by, code.lang, code.lang_source) == (None, "en", "host")
    assert code.lang_score == pytest.approx(0.44)  # the page's own score stays, so the fallback is visible
    assert (rows["de"].dropped_by, rows["de"].lang, rows["de"].lang_source) == (None, "de", "page")  # confident
    assert rows["s0"].lang_source == "page"
    # a host with no confident page has no language to lend; nor has a page without a URL
    assert {rows[f"u{i}"].dropped_by for i in range(3)} == {"host_langid.low_score"}
    assert (rows["nourl"].dropped_by, rows["nourl"].drop_detail) == ("host_langid.low_score", "en 0.30")


def test_without_fallback_unsure_pages_are_dropped_and_without_a_threshold_none_are(tmp_path: Path) -> None:
    rows = _run_docs(HostLanguage(min_score=0.65), _lid_docs(), tmp_path / "a", "w1", set())
    assert rows["code"].dropped_by == "host_langid.low_score" and rows["de"].dropped_by is None
    rows = _run_docs(HostLanguage(), _lid_docs(), tmp_path / "b", "w1", set())
    assert all(r.dropped_by is None for r in rows.values())


def test_a_host_established_in_an_earlier_wave_lends_its_language(tmp_path: Path) -> None:
    state = tmp_path / "_state" / "host_langid"
    confident = [d for d in _lid_docs() if d.id.startswith("s")]
    _run_docs(HostLanguage(min_score=0.65, fallback=True), confident, state, "w1", set())
    unsure = [d for d in _lid_docs() if d.id == "code"]
    rows = _run_docs(HostLanguage(min_score=0.65, fallback=True), unsure, state, "w2", {"w1"})
    assert (rows["code"].dropped_by, rows["code"].lang_source) == (None, "host")
    # the earlier wave counts only once it is committed
    rows = _run_docs(HostLanguage(min_score=0.65, fallback=True), unsure, state, "w3", set())
    assert rows["code"].dropped_by == "host_langid.low_score"


def test_interleaved_documents_take_their_hosts_language(tmp_path: Path) -> None:
    docs = [InterleavedDoc(id=f"i{i}", url=f"https://docs.example/{i}", source="s", lang="en", lang_score=0.9,
                           lang_source="page", segments=[Segment("text", text=EN * 3)]) for i in range(3)]
    docs.append(InterleavedDoc(id="c", url="https://docs.example/c", source="s", lang="fr", lang_score=0.4,
                               lang_source="page", segments=[Segment("text", text="x = 1")]))
    stage = HostLanguage(kind="interleaved", min_score=0.65, fallback=True)
    stage.bind()
    stage.bind_state(str(tmp_path / "st"), "w1", set())
    out = pa.concat_tables(list(stage.run(LocalDataset([to_table(docs, "interleaved")])).tables()))
    rows = {r.id: r for r in from_table(out)}
    assert (rows["c"].dropped_by, rows["c"].lang, rows["c"].lang_source) == (None, "en", "host")


# -- host-level quality (filters/quality_hosts.py) -----------------------------------------------------------------

def _judged(host: str, n: int, junk: int, prefix: str) -> list[Document]:
    """``n`` pages of ``host`` as the quality steps leave them: ``junk`` dropped by the model, the rest alive."""
    return [Document(id=f"{prefix}{i}", url=f"https://{host}/{i}", source="s", text=EN, lang="en",
                     dropped_by="quality_model.low_quality" if i < junk else None) for i in range(n)]


def test_pages_of_a_host_whose_other_pages_are_mostly_junk_go_too(tmp_path: Path) -> None:
    from filters.quality_hosts import HostQuality

    docs = (_judged("spam.example", 8, 6, "s") + _judged("good.example", 8, 1, "g")
            + _judged("small.example", 4, 3, "m"))
    docs.append(Document(id="late", url="https://spam.example/late", source="s", dropped_by="extract.no_text"))
    docs.append(Document(id="nourl", url=None, source="s", text=EN))
    stage = HostQuality()
    stage.bind()
    stage.bind_state(str(tmp_path / "st"), "w1", set())
    rows = {r.id: r for r in from_table(pa.concat_tables(list(
        stage.run(LocalDataset([to_table(docs, "document")])).tables())))}
    assert {rows[f"s{i}"].dropped_by for i in (6, 7)} == {"host_quality.junk_host"}
    assert rows["s6"].drop_detail == "spam.example: 6 of 7 other pages junk" and rows["s6"].text is None
    assert rows["s0"].dropped_by == "quality_model.low_quality"  # a page's own verdict stays
    assert all(rows[f"g{i}"].dropped_by is None for i in range(1, 8))  # a good host keeps its pages
    assert rows["m3"].dropped_by is None  # three other pages decide nothing
    assert rows["late"].dropped_by == "extract.no_text" and rows["nourl"].dropped_by is None
    # the next wave counts this one's pages once it is committed
    later = HostQuality()
    later.bind()
    later.bind_state(str(tmp_path / "st"), "w2", {"w1"})
    rows = {r.id: r for r in from_table(pa.concat_tables(list(later.run(LocalDataset([to_table(
        [Document(id="new", url="https://spam.example/new", source="s", text=EN)], "document")])).tables())))}
    assert rows["new"].dropped_by == "host_quality.junk_host"
