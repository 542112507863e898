"""The name configs and notebooks written before issue 29 use for the fastText quality classifier, which now lives
in ``filters/quality_fasttext.py`` (the quality decision of the ``default`` chain is ``filters/quality_model.py``;
a newcomer looked for it here). ``use: filters.quality.QualityClassifier`` keeps working: these are the same
objects, not copies."""

from filters.quality_fasttext import (
    DEFAULT_MODEL,
    MAX_CHARS,
    POSITIVE,
    QualityClassifier,
    load_model,
    model_text,
    read_texts,
    resolve_model,
    score,
    train,
)

__all__ = ["DEFAULT_MODEL", "MAX_CHARS", "POSITIVE", "QualityClassifier", "load_model", "model_text", "read_texts",
           "resolve_model", "score", "train"]
