"""How winnow's shipped quality models are made: recipes run at build time, never by a pipeline.

- ``fasttext_default``: the fastText model ``filters/models/quality-default.ftz`` (the default of
  ``filters.quality_fasttext``);
- ``junk``, ``junk_web``, ``junk_vocabulary``: the generated junk families the signals model
  (``filters/models/quality-signals.zip``, scripts/train_quality_model.py) learns as part of its negative class.
"""
