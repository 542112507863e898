import textwrap

import pytest

from pipelines.config import ConfigError, load_config


def write(tmp_path, body):
    path = tmp_path / "p.yaml"
    path.write_text(textwrap.dedent(body))
    return str(path)


def test_bundled_light_loads():
    config = load_config("light")
    assert [s.name for s in config.steps] == ["opt_out", "extract", "langid", "langid_interleaved", "exact_dedup",
                                              "exact_dedup_interleaved", "exact_dedup_images"]
    assert config.steps[1].produces_kinds == ("document", "image_text", "interleaved")
    config.check_kinds({"page", "document"})


def test_bundled_default_is_the_whole_chain():
    config = load_config("default")
    names = [s.name for s in config.steps]
    assert names[:3] == ["opt_out", "url_filter", "extract"]
    for lane in (["langid", "clear_junk", "quality_model", "profanity", "pii", "exact_dedup", "minhash_dedup"],
                 ["langid_interleaved", "clear_junk_interleaved", "quality_model_interleaved", "pii_interleaved",
                  "exact_dedup_interleaved", "minhash_dedup_interleaved"],
                 ["langid_alt", "alt_quality", "pii_alt", "exact_dedup_images"]):
        assert [n for n in names if n in lane] == lane
    config.check_kinds({"page", "document"})


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("steps:\n  - use: filters.langid.LanguageIDD\n", "has no class 'LanguageIDD'"),
        ("steps:\n  - use: filters.nope.X\n", "no module 'filters.nope'"),
        ("steps:\n  - use: filters.langid.LanguageID\n    with: {min_scor: 0.5}\n", "min_scor"),
        ("steps:\n  - use: filters.langid.LanguageID\n    with: {min_score: 7}\n", "min_score"),
        ("steps:\n  - use: filters.langid.LanguageID\n    wiht: {}\n", "unknown key"),
        ("steps:\n  - use: pathlib.Path\n", "not a winnow Step"),
        ("steps: []\n", "non-empty list"),
        ("stepz:\n  - use: filters.langid.LanguageID\n", "unknown top-level"),
        ("steps:\n  - use: filters.langid.LanguageID\n  - use: filters.langid.LanguageID\n", "unique"),
        ("steps: [\n", "not valid YAML"),
    ],
)
def test_bad_configs_name_the_problem(tmp_path, body, message):
    with pytest.raises(ConfigError, match=message) as err:
        load_config(write(tmp_path, body))
    assert "p.yaml" in str(err.value)


def test_step_number_is_named(tmp_path):
    body = "steps:\n  - use: filters.langid.LanguageID\n  - use: dedup.exact.ExactDedupp\n"
    with pytest.raises(ConfigError, match=r"step 2 \(dedup.exact.ExactDedupp\)"):
        load_config(write(tmp_path, body))


def test_pages_without_extract_are_refused(tmp_path):
    config = load_config(write(tmp_path, "steps:\n  - use: dedup.exact.ExactDedup\n"))
    config.check_kinds({"document"})
    with pytest.raises(ConfigError, match="extract step"):
        config.check_kinds({"page"})


def test_missing_config_file():
    with pytest.raises(ConfigError, match="not found"):
        load_config("/nonexistent/pipeline.yaml")
