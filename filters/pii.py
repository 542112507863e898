"""Personally identifiable information: find it, replace it with typed placeholders.

``redact(text) -> (redacted_text, spans)``: every span found is replaced with ``<TYPE>``; ``spans``
are ``Span(start, end, label)`` in the coordinates of the *original* text. Types and how each is
recognised (precision comes from validation, not from the pattern alone):

- ``EMAIL``: RFC 5322-ish address with a dotted domain and an alphabetic top-level domain.
- ``PHONE``: Google's libphonenumber (the ``phonenumbers`` package), ``PhoneNumberMatcher`` run for
  each of ``phone_regions`` (numbers written with a ``+`` country code match under any of them); a
  match must be a *valid* number for its region (known ranges and lengths), not merely digit-shaped.
- ``IP``: IPv4 and IPv6 addresses that parse (``ipaddress``) and are globally routable: private,
  loopback, link-local, documentation and reserved ranges are not personal data and are kept.
- ``CREDIT_CARD``: 12 to 19 digits (single spaces or dashes allowed between groups) that pass the
  Luhn checksum and start with an issuer prefix (Visa, Mastercard, Amex, Discover, Diners, JCB,
  Maestro, UnionPay).
- ``IBAN``: country code, check digits and BBAN (compact, or in groups of four) whose length is the
  registered length for the country (ISO 13616) and whose ISO 7064 mod-97 checksum is 1.
- ``SSN``: US social security numbers written ``AAA-GG-SSSS`` (or with spaces), excluding the
  numbers the SSA never issues (area 000, 666, 900-999; group 00; serial 0000).
- custom: ``patterns`` maps a label to a regular expression; its matches become ``<LABEL>``.

Overlaps are resolved by priority (custom patterns, EMAIL, IBAN, CREDIT_CARD, SSN, IP, PHONE), then
by length. Scores on ../shared/data/pii_dev.jsonl: ``bench/filters_pii.py``.

The ``RedactPII`` step redacts every free-text field of a record (document text and title; alt text
and context of an image pair; text segments, alt texts and title of an interleaved document) and
appends one label per redacted span to ``pii_redacted``, so counts per type come from the data
(``pii_counts(table)``; ``python -m filters.pii OUT/`` prints them for an output folder). It never drops.
"""

from __future__ import annotations

import ipaddress
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import phonenumbers

from filters.text import ALL_KINDS, check_kind, map_texts
from pipelines.step import Step

TYPES = ("EMAIL", "IBAN", "CREDIT_CARD", "SSN", "IP", "PHONE")  # also the overlap priority
DEFAULT_PHONE_REGIONS = ("US", "GB", "DE", "FR", "AU", "CH", "SE", "NL", "BE", "IT", "ES", "IN", "BR", "CA")


class Span(NamedTuple):
    start: int
    end: int
    label: str


_EMAIL = re.compile(r"(?<![\w.+%-])[\w.+%-]*\w@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,24}"
                    r"(?![\w-])")
_IPV4 = re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.]*\d)")
_IPV6 = re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{0,4}|(?:\d{1,3}\.){3}\d{1,3})(?![\w:])")
_CARD = re.compile(r"(?<![\w+-])\d(?:[ -]?\d){11,18}(?!\d)")
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}"
                   r"(?:[A-Za-z0-9]{10,30}|(?: [A-Za-z0-9]{4}){2,7}(?: [A-Za-z0-9]{1,4})?)(?![A-Za-z0-9])")
_VERSION_BEFORE = re.compile(r"(?:\bversion|\bver\.?|\bv)\s*$", re.IGNORECASE)  # "version 1.2.3.4" is no address
_SSN = re.compile(r"(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])")
_PHONE_PAD = 40
_PHONE_HINT = re.compile(r"\d(?:[\s().+-]{0,3}\d){6,}")
# Context (presidio's idea: context words raise a candidate's score): a phone word up to four words
# before the number, "number" unless an identifier word (licence, card, account...) is near it, a label after.
_WORDS_BEFORE = r"\W*(?:[\w']+\W+){0,4}$"
_PHONE_CUE = re.compile(r"\b(?:phones?|tel|telephone|call(?:ed|ing)?|mobile|cell(?:phone)?|fax|desk|contact|reach|"
                        r"text|sms|whatsapp|dial|ring|hotline)\b" + _WORDS_BEFORE, re.IGNORECASE)
_PHONE_NUMBER_WORD = re.compile(r"\bnumber\b\W*(?:[\w']+\W+){0,2}$", re.IGNORECASE)
_PHONE_NEGATIVE = re.compile(r"\b(?:licen[cs]e|account|card|order|invoice|id|passport|policy|tracking|serial|zip|"
                             r"postal|postcode|iban|ssn|social security|routing|vat|tax|isbn|ref(?:erence)?)\b"
                             r"\W*(?:[\w']+\W+){0,3}$", re.IGNORECASE)
_PHONE_LABEL_AFTER = re.compile(r"^\s*(?:[-–,]\s*)?\(?(?:office|fax|mobile|home|work|cell|phone|tel)\b",
                                re.IGNORECASE)
# Grouped like a phone number: optional country code, area code (parenthesised or not), 2-4 more groups.
_PHONE_SHAPE = re.compile(r"^(?:\+?\d{1,3}[\s.-]?)?(?:\(\d{2,5}\)[\s.-]?|\d{2,5}[\s.-])"
                          r"\d{2,4}[\s.-]\d{2,4}(?:[\s.-]\d{2,4})?$")

# ISO 13616 registered IBAN lengths per country.
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29, "BY": 28,
    "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
    "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22,
    "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20,
    "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
    "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SD": 18,
    "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22,
    "VG": 24, "XK": 20,
}
# Issuer prefixes (IIN ranges) of the major card networks.
_CARD_PREFIX = re.compile(r"^(?:4|5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720|3[47]|30[0-59]|36|38|39|35|2131|1800"
                          r"|6011|64[4-9]|65|62|50|5[6-9]|6)")


def _card_length_ok(digits: str) -> bool:
    """Visa numbers have 13, 16 or 19 digits; Maestro 12 to 19; the other networks 14 to 19."""
    n = len(digits)
    if digits[0] == "4":
        return n in (13, 16, 19)
    return 12 <= n <= 19 if digits[:2] in ("50", "56", "57", "58", "63", "67") or digits[0] == "6" else 14 <= n <= 19


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = ord(ch) - 48
        if i % 2:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def iban_ok(candidate: str) -> bool:
    iban = candidate.replace(" ", "").upper()
    if IBAN_LENGTHS.get(iban[:2]) != len(iban):
        return False
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def ssn_ok(area: str, group: str, serial: str) -> bool:
    a = int(area)
    return a != 0 and a != 666 and a < 900 and group != "00" and serial != "0000"


def _public_ip(candidate: str) -> bool:
    try:
        return ipaddress.ip_address(candidate).is_global
    except ValueError:
        return False


def _find_builtin(text: str, types: frozenset[str], regions: tuple[str, ...]) -> Iterable[Span]:
    if "EMAIL" in types and "@" in text:
        for m in _EMAIL.finditer(text):
            yield Span(m.start(), m.end(), "EMAIL")
    if "IBAN" in types:
        for m in _IBAN.finditer(text):
            if iban_ok(m.group()):
                yield Span(m.start(), m.end(), "IBAN")
    runs = _numeric_runs(text) if types & {"CREDIT_CARD", "SSN", "IP"} else []
    if "CREDIT_CARD" in types:
        for m in _in_runs(_CARD, text, runs, 12):
            digits = re.sub(r"[ -]", "", m.group())
            if _card_length_ok(digits) and _CARD_PREFIX.match(digits) and luhn_ok(digits):
                yield Span(m.start(), m.end(), "CREDIT_CARD")
    if "SSN" in types:
        for m in _in_runs(_SSN, text, runs, 9):
            if ssn_ok(m.group(1), m.group(3), m.group(4)):
                yield Span(m.start(), m.end(), "SSN")
    if "IP" in types:
        for m in _in_runs(_IPV4, text, runs, 4):
            if _public_ip(m.group()) and not _VERSION_BEFORE.search(text, max(0, m.start() - 12), m.start()):
                yield Span(m.start(), m.end(), "IP")
        if "::" in text or text.count(":") >= 7:
            for m in _IPV6.finditer(text):
                if m.group().count(":") >= 2 and _public_ip(m.group()):
                    yield Span(m.start(), m.end(), "IP")
    if "PHONE" in types and _PHONE_HINT.search(text):
        yield from _find_phones(text, regions)


# A stretch of digits, spaces, dots and dashes from a digit on. Every card number, SSN and IPv4 address is made of
# these characters only, and so is what their look-aheads read (digits, dots, dashes), so each match lies in one
# stretch: the patterns run over the stretches with enough digits (``pos``/``endpos``, one character of context
# each side) instead of over the whole text. Same spans as scanning the whole text (tests/filters/test_pii.py);
# the three scans were a third of the step's time on bench/e2e.py's pages.
_NUMERIC_RUN = re.compile(r"\d[\d .-]*")


def _numeric_runs(text: str) -> list[tuple[int, int, int]]:
    """(start, end, digits) of each stretch of ``_NUMERIC_RUN`` with at least 4 digits (an IPv4 address's least)."""
    runs = []
    for m in _NUMERIC_RUN.finditer(text):
        run = m.group()
        if len(run) >= 4 and (digits := sum(map(str.isdigit, run))) >= 4:
            runs.append((m.start(), m.end(), digits))
    return runs


def _in_runs(pattern: re.Pattern[str], text: str, runs: list[tuple[int, int, int]],
             min_digits: int) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` where each match lies in one of ``runs`` (look-behinds still see the text before a
    run; the character after it ends the look-aheads)."""
    for start, end, digits in runs:
        if digits >= min_digits:
            yield from pattern.finditer(text, start, end + 1)


def _find_phones(text: str, regions: tuple[str, ...]) -> Iterable[Span]:
    """Phone numbers: libphonenumber's matcher proposes digit runs of a possible length for a region; a
    run is a phone when it is *valid* and written like one (``+`` country code, or grouped digits), or
    when the text around it says so (a phone word before it, a phone label after it)."""
    seen: set[tuple[int, int]] = set()
    for lo, hi in _phone_windows(text):
        window = text[lo:hi]
        for region in regions:
            for match in phonenumbers.PhoneNumberMatcher(window, region, leniency=phonenumbers.Leniency.POSSIBLE):
                start, end = lo + match.start, lo + match.end
                key = (start, end)
                raw = match.raw_string
                if key in seen or sum(c.isdigit() for c in raw) < 7:
                    continue
                before = text[max(0, start - 60):start]
                negative = bool(_PHONE_NEGATIVE.search(before))
                cue = ((_PHONE_CUE.search(before) or _PHONE_NUMBER_WORD.search(before)) and not negative) or \
                    _PHONE_LABEL_AFTER.match(text[end:end + 15])
                # the SSN layout AAA-GG-SSSS is valid in some numbering plans but written that way it is not a phone
                shaped = raw.startswith("+") or (_PHONE_SHAPE.match(raw) and not negative and not _SSN.fullmatch(raw))
                if cue or (shaped and phonenumbers.is_valid_number(match.number)):
                    seen.add(key)
                    yield Span(start, end, "PHONE")


def _phone_windows(text: str) -> list[tuple[int, int]]:
    """The stretches of ``text`` around runs of 7+ digits (``_PHONE_HINT``), ``_PHONE_PAD`` characters either
    side, overlapping ones merged: libphonenumber's matcher scans the whole text once per region (14 by default),
    which on long pages was a fifth of the default chain's CPU time; a phone number lies inside such a run, and the
    matcher looks only at the characters next to a candidate. Same spans as scanning the whole text on every
    WCXB dev page and every pii_dev text (tests/filters/test_pii.py)."""
    windows: list[tuple[int, int]] = []
    for m in _PHONE_HINT.finditer(text):
        lo, hi = max(0, m.start() - _PHONE_PAD), min(len(text), m.end() + _PHONE_PAD)
        if windows and lo <= windows[-1][1]:
            windows[-1] = (windows[-1][0], hi)
        else:
            windows.append((lo, hi))
    return windows


def find(text: str, types: Iterable[str] = TYPES, patterns: dict[str, str | re.Pattern[str]] | None = None,
         phone_regions: Iterable[str] = DEFAULT_PHONE_REGIONS) -> list[Span]:
    """Non-overlapping PII spans of ``text``, sorted by position."""
    if not text:
        return []
    custom = [(label, re.compile(p) if isinstance(p, str) else p) for label, p in (patterns or {}).items()]
    priority = {label: i for i, (label, _) in enumerate(custom)}
    priority.update({t: len(custom) + i for i, t in enumerate(TYPES)})
    found = [Span(m.start(), m.end(), label) for label, rx in custom for m in rx.finditer(text) if m.end() > m.start()]
    found += _find_builtin(text, frozenset(types), tuple(phone_regions))
    found.sort(key=lambda s: (priority[s.label], s.start - s.end, s.start))
    taken: list[Span] = []
    for span in found:
        if all(span.end <= t.start or span.start >= t.end for t in taken):
            taken.append(span)
    return sorted(taken)


def redact(text: str, types: Iterable[str] = TYPES, patterns: dict[str, str | re.Pattern[str]] | None = None,
           phone_regions: Iterable[str] = DEFAULT_PHONE_REGIONS, placeholder: str = "<{label}>",
           ) -> tuple[str, list[Span]]:
    """``text`` with each PII span replaced by ``placeholder`` (``<EMAIL>``...); spans in original coordinates."""
    spans = find(text, types, patterns, phone_regions)
    if not spans:
        return text, []
    parts: list[str] = []
    pos = 0
    for span in spans:
        parts.append(text[pos:span.start])
        parts.append(placeholder.format(label=span.label))
        pos = span.end
    parts.append(text[pos:])
    return "".join(parts), spans


_LABEL = re.compile(r"^[A-Z][A-Z0-9_]*$")


class RedactPII(Step):
    """Replace PII in every text field with typed placeholders; record the types in ``pii_redacted``."""

    default_name = "pii"

    def __init__(self, kind: str = "document", types: list[str] | None = None, patterns: dict[str, str] | None = None,
                 phone_regions: list[str] | None = None, placeholder: str = "<{label}>") -> None:
        self.input_kind = check_kind(kind, ALL_KINDS)
        chosen = list(TYPES) if types is None else types
        if not isinstance(chosen, list) or any(t not in TYPES for t in chosen):
            raise ValueError(f"types must be a list drawn from {list(TYPES)}, got {types!r}")
        patterns = patterns or {}
        if not isinstance(patterns, dict):
            raise ValueError(f"patterns must map LABEL -> regular expression, got {patterns!r}")
        for label, rx in patterns.items():
            if not isinstance(label, str) or not _LABEL.match(label) or label in TYPES:
                raise ValueError(f"pattern label {label!r} must be UPPER_SNAKE_CASE and not a built-in type")
            try:
                re.compile(rx)
            except (re.error, TypeError) as exc:
                raise ValueError(f"pattern {label}: not a regular expression: {exc}") from None
        regions = list(DEFAULT_PHONE_REGIONS) if phone_regions is None else phone_regions
        supported = phonenumbers.SUPPORTED_REGIONS
        if not isinstance(regions, list) or any(r not in supported for r in regions):
            raise ValueError(f"phone_regions must be a list of region codes such as 'US', got {phone_regions!r}")
        if not isinstance(placeholder, str) or "{label}" not in placeholder:
            raise ValueError(f"placeholder must contain '{{label}}', got {placeholder!r}")
        self.types = chosen
        self.patterns = dict(patterns)
        self.phone_regions = regions
        self.placeholder = placeholder

    def process(self, record: Any) -> Any:
        found: list[str] = []
        compiled = {label: re.compile(rx) for label, rx in self.patterns.items()}

        def one(text: str) -> str:
            redacted, spans = redact(text, self.types, compiled, self.phone_regions, self.placeholder)
            found.extend(s.label for s in spans)
            return redacted

        map_texts(record, one)
        record.pii_redacted = [*(record.pii_redacted or []), *found]
        return record


def pii_counts(tables: Iterable[Any]) -> dict[str, int]:
    """Redactions per type over record tables (or Parquet shards) with a ``pii_redacted`` column."""
    counts: Counter[str] = Counter()
    for table in tables:
        for labels in table.column("pii_redacted").to_pylist():
            counts.update(labels or [])
    return dict(sorted(counts.items()))


def main(argv: list[str] | None = None) -> int:
    """``python -m filters.pii OUT/``: redactions per type in the shards of an output folder."""
    import pyarrow.parquet as pq

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m filters.pii OUTPUT_DIR", file=sys.stderr)
        return 2
    shards = sorted(Path(args[0]).rglob("part-*.parquet"))
    tables = (pq.read_table(p, columns=["pii_redacted"]) for p in shards
              if "pii_redacted" in pq.read_schema(p).names)
    for label, n in pii_counts(tables).items():
        print(f"{label}\t{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
