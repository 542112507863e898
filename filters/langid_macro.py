"""Macrolanguages among lid.176's labels: the labels that name varieties of one language.

lid.176 was trained on Wikipedia editions, and some editions write one language under several names: Serbo-Croatian
as ``sh``, ``hr``, ``bs`` and ``sr``; Norwegian as ``no`` and ``nn``; Malay as ``ms``, ``id`` and ``min``. On a page
of such a language the model splits its probability between the names, and no single one reaches a threshold it
would pass whole (measured on ../shared/data/langid_dev.jsonl, pages of 15 sentences: Bosnian ``hr`` 0.37 + ``sh``
0.31 + ``sr`` 0.14; Croatian ``hr`` 0.42-0.45 with ``sh`` and ``sr`` 0.39-0.40; Nynorsk ``nn`` 0.64 + ``no`` 0.21).
A language-ID threshold asks whether the model is sure of the language; for these pages it is, of the
macrolanguage. ``macro_score`` sums the probabilities of the top label's macrolanguage.

The groups are ISO 639-3's macrolanguages (SIL, the ISO 639-3 registration authority, macrolanguage mappings),
restricted to lid.176's labels. Collections that are not macrolanguages (Bihari, Hindustani) and labels whose
Wikipedia code means another language than its ISO code (``als`` is Alemannic in Wikipedia, Tosk Albanian in ISO
639-3) are left out.
"""

from __future__ import annotations

# macrolanguage (ISO 639-1 where it has one, else 639-3) -> its members among lid.176's labels
MACROLANGUAGES: dict[str, frozenset[str]] = {
    "ar": frozenset({"ar", "arz"}),  # Arabic: Egyptian Arabic
    "az": frozenset({"az", "azb"}),  # Azerbaijani: South Azerbaijani
    "chm": frozenset({"mhr", "mrj"}),  # Mari: Meadow and Hill Mari
    "ku": frozenset({"ku", "ckb"}),  # Kurdish: Central Kurdish (Sorani)
    "ms": frozenset({"ms", "id", "min"}),  # Malay: Indonesian, Minangkabau
    "ne": frozenset({"ne", "dty"}),  # Nepali: Dotyali
    "no": frozenset({"no", "nn"}),  # Norwegian: Nynorsk (lid.176's "no" is Bokmål)
    "sh": frozenset({"sh", "hr", "bs", "sr"}),  # Serbo-Croatian: Croatian, Bosnian, Serbian
    "zh": frozenset({"zh", "wuu", "yue"}),  # Chinese: Wu, Cantonese
}
MACROLANGUAGE_OF: dict[str, str] = {label: macro for macro, labels in MACROLANGUAGES.items() for label in labels}
# How many of lid.176's labels are read to sum a macrolanguage: the largest group has four members.
TOP_K = 4


def macro_score(labels: list[str], probs: list[float]) -> float:
    """The probability of ``labels[0]``'s macrolanguage: the sum over its members among ``labels`` (the model's top
    labels, best first, with their ``probs``); ``probs[0]`` for a label in no macrolanguage."""
    if not labels:
        return 0.0
    macro = MACROLANGUAGE_OF.get(labels[0])
    if macro is None:
        return probs[0]
    return min(sum(p for label, p in zip(labels, probs, strict=True) if MACROLANGUAGE_OF.get(label) == macro), 1.0)
