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


def test_a_step_for_several_kinds_is_declared_once(tmp_path):
    path = write(tmp_path, """
        steps:
          - use: filters.langid.LanguageID
            with: {kind: [document, interleaved, image_text], min_score: 0.5}
          - use: filters.pii.RedactPII
            with: {kind: [interleaved, document]}
            name: scrub
    """)
    steps = load_config(path).steps
    assert [(s.name, s.input_kind) for s in steps] == [
        ("langid", "document"), ("langid_interleaved", "interleaved"), ("langid_image_text", "image_text"),
        ("scrub", "interleaved"), ("scrub_document", "document")]
    assert {s.min_score for s in steps[:3]} == {0.5}  # the other arguments go to every kind's step


@pytest.mark.parametrize(("kinds", "message"), [
    ("[]", "distinct record kinds"),
    ("[document, document]", "distinct record kinds"),
    ("[document, 3]", "distinct record kinds"),
    ("[document, pages]", "kind must be one of|pages"),
])
def test_a_bad_kind_list_names_the_step(tmp_path, kinds, message):
    path = write(tmp_path, f"""
        steps:
          - use: filters.pii.RedactPII
            with: {{kind: {kinds}}}
    """)
    with pytest.raises(ConfigError, match=f"step 1 .*({message})"):
        load_config(path)


def test_a_kind_list_on_a_step_without_kind_is_refused(tmp_path):
    path = write(tmp_path, """
        steps:
          - use: filters.policy.TrainingOptOut
            with: {kind: [document, interleaved]}
    """)
    with pytest.raises(ConfigError, match="bad argument"):
        load_config(path)
