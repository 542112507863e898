"""FetchImages as a pipeline step: `winnow run` over an earlier run's image_text/interleaved output fetches the
images with the crawler's conduct; every pair is an image row or a tombstone with the fetch's reason."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd
import pytest

from crawler.images.child import read_options, write_options
from crawler.images.run import FetchOptions
from crawler.images.stage import FetchImages
from crawler.site_server import Route, SiteServer
from pipelines.config import load_config
from pipelines.readers import expand_inputs
from pipelines.runner import RunOptions, run
from tests.crawler.images.helpers import interleaved, make_image, pair, write_output

CONFIG = textwrap.dedent("""\
    steps:
      - use: crawler.images.stage.FetchImages
        with: {allow_private: true, settings: {DOWNLOAD_DELAY: 0, AUTOTHROTTLE_ENABLED: false}}
      - use: crawler.images.stage.FetchImages
        name: fetch_images_interleaved
        with: {kind: interleaved, allow_private: true, settings: {DOWNLOAD_DELAY: 0, AUTOTHROTTLE_ENABLED: false}}
      - use: filters.image_size.ImageSize
        with: {min_side: 40}
""")


@pytest.fixture
def site():
    server = SiteServer()
    server.routes = {
        "/robots.txt": Route(body="User-agent: *\nDisallow: /private/\n", content_type="text/plain"),
        "/a.png": Route(body=make_image("PNG", (64, 48), seed=1), content_type="image/png"),
        "/b.jpg": Route(body=make_image("JPEG", (80, 60), seed=2), content_type="image/jpeg"),
        "/tiny.png": Route(body=make_image("PNG", (30, 30), seed=3), content_type="image/png"),
        "/private/c.png": Route(body=make_image("PNG", (64, 48), seed=4), content_type="image/png"),
    }
    server.start()
    yield server
    server.stop()


@pytest.mark.slow
def test_a_run_fetches_and_accounts_for_every_pair(site: SiteServer, tmp_path: Path) -> None:
    first = write_output(tmp_path / "first", [
        pair("p1", site.url("/a.png")), pair("p2", site.url("/b.jpg")), pair("p3", site.url("/private/c.png")),
        pair("p4", site.url("/missing.png")), pair("p5", site.url("/tiny.png")),
    ], [interleaved("d1", [site.url("/a.png"), site.url("/b.jpg")]), interleaved("d2", [])])
    config = tmp_path / "images.yaml"
    config.write_text(CONFIG)
    out = tmp_path / "lane"
    stats = run(RunOptions(config=load_config(str(config)), inputs=expand_inputs([str(first)]), output=out,
                           local=True, progress=False))

    images = pd.read_parquet(out / "images").set_index("id")
    assert sorted(images.index) == ["d1/1", "d1/3", "p1", "p2"]
    assert images.loc["p2", "image_format"] == "JPEG" and images.loc["p2", "original_width"] == 80
    assert images.loc["d1/3", "output"] == "interleaved" and images.loc["d1/3", "segment"] == 3
    assert images.loc["p1", "sha256"] == images.loc["d1/1", "sha256"]
    steps = {s["step"]: s for s in stats["steps"]}
    fetch = steps["fetch_images"]
    assert fetch["in"] == 5 and fetch["kept"] == 3
    assert fetch["dropped"] == {"robots_disallowed": 1, "http_404": 1}
    inter = steps["fetch_images_interleaved"]
    assert inter["in"] == 3 and inter["kept"] == 2 and inter["dropped"] == {"no_images": 1}
    assert steps["image_size"]["dropped"] == {"small_image": 1}
    # the fetch honoured robots.txt: the disallowed image was never requested
    assert not [h for h in site.hits if h.path.startswith("/private/")]


@pytest.mark.slow
def test_a_rerun_after_the_fetch_fetches_nothing_again(site: SiteServer, tmp_path: Path) -> None:
    first = write_output(tmp_path / "first", [pair("p1", site.url("/a.png")), pair("p2", site.url("/b.jpg"))])
    config = tmp_path / "images.yaml"
    config.write_text(CONFIG)
    stage_out = tmp_path / "lane"
    opts = RunOptions(config=load_config(str(config)), inputs=expand_inputs([str(first / "image_text")]),
                      output=stage_out, local=True, progress=False)
    run(opts)
    images = [h for h in site.hits if h.path in ("/a.png", "/b.jpg")]
    assert len(images) == 2
    run(opts)  # the wave is committed: nothing to do
    assert len([h for h in site.hits if h.path in ("/a.png", "/b.jpg")]) == 2


def test_bad_arguments_fail_at_load() -> None:
    with pytest.raises(ValueError, match="kind"):
        FetchImages(kind="document")
    with pytest.raises(ValueError, match="resize"):
        FetchImages(resize=0)
    with pytest.raises(ValueError, match="settings"):
        FetchImages(settings=["DOWNLOAD_DELAY=0"])  # type: ignore[arg-type]
    for workers in (0, True, "2"):
        with pytest.raises(ValueError, match="workers"):
            FetchImages(workers=workers)  # type: ignore[arg-type]


def test_workers_become_the_fetch_option(tmp_path: Path) -> None:
    assert FetchImages(workers=3).options(tmp_path, tmp_path / "o", resume=False).workers == 3
    default = FetchOptions(tmp_path, tmp_path).workers
    assert FetchImages().options(tmp_path, tmp_path / "o", resume=False).workers == default


def test_contact_url_from_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("WINNOW_CONTACT_URL", raising=False)
    assert FetchImages().options(tmp_path, tmp_path / "o", resume=False).contact_url == ""
    monkeypatch.setenv("WINNOW_CONTACT_URL", "https://example.org/bot")
    opts = FetchImages(settings={"DOWNLOAD_DELAY": 2}).options(tmp_path, tmp_path / "o", resume=True)
    assert opts.contact_url == "https://example.org/bot"
    assert opts.overrides == {"DOWNLOAD_DELAY": "2"} and opts.resume and not opts.progress
    own = FetchImages(contact_url="https://a.test/").options(tmp_path, tmp_path / "o", resume=False)
    assert own.contact_url == "https://a.test/"


@pytest.mark.parametrize("allow, private, networks", [(False, False, []), (True, True, []), ([], False, []),
                                                      (["10.0.0.0/8"], True, ["10.0.0.0/8"])])
def test_allow_private_as_the_command_takes_it(tmp_path: Path, allow, private: bool, networks: list[str]) -> None:
    opts = FetchImages(allow_private=allow).options(tmp_path, tmp_path / "o", resume=False)
    assert (opts.allow_private, opts.allowed_networks) == (private, networks)


def test_the_child_reads_back_what_the_stage_wrote(tmp_path: Path) -> None:
    opts = FetchImages(resize=128, max_mb=2.5, allow_private=["127.0.0.1/32"], bot_name="testbot",
                       settings={"DOWNLOAD_DELAY": 0}).options(tmp_path / "in", tmp_path / "out", resume=True)
    write_options(opts, tmp_path / "o.json")
    assert read_options(tmp_path / "o.json") == opts


def test_a_fetch_the_child_refuses_is_the_stage_error_with_its_reason(tmp_path: Path, monkeypatch) -> None:
    """A public image host and no contact URL: the fetch's own one-line refusal reaches the run's error."""
    monkeypatch.delenv("WINNOW_CONTACT_URL", raising=False)
    source = write_output(tmp_path / "run", [pair("p1", "https://images.example.org/a.png")])
    config = tmp_path / "c.yaml"
    config.write_text("steps:\n  - use: crawler.images.stage.FetchImages\n")
    with pytest.raises(RuntimeError, match=r"exited 2 .*\n.*winnow images fetch: .*contact"):
        run(RunOptions(config=load_config(str(config)), inputs=expand_inputs([str(source)]),
                       output=tmp_path / "o", local=True, progress=False))
