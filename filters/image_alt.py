"""Image-text quality: alt-text pairs (``AltTextQuality``) and interleaved documents (``InterleavedQuality``).

The pair's text: extraction writes ``text`` and ``text_source`` on each pair (``pair_text``): the alt, unless the alt
is junk (empty, a file name or path such as ``../_images/sphx_glr_plot_noisy_thumb.png``, a generic word) or shorter
than the caption rule's three words while the figure's caption passes it; then the caption (``text_source:
caption``). A Sphinx gallery writes its thumbnails' file names as alts and their titles as captions: the caption is
the description a reader sees. The rules below judge that text (the alt, for pairs written before ``text`` existed).

AltTextQuality drops an ImageTextPair when (drop reason in brackets):

- it has no text: no alt and no caption (``no_alt``);
- the alt has 2 words or fewer, or 5 characters or fewer (``short_alt``): DataComp's "basic
  filtering" (Gadre et al. 2023, section 3.3) keeps captions of more than two words and more than five
  characters; a text taken from the figure's caption needs ``min_caption_words`` (2) words: an author's figure
  title names its subject ("Radon transform", "Convex hull": 26 of scikit-image's gallery captions have two words),
  where a two-word alt is most often a label ("Image 3", "Product photo");
- the alt is longer than ``max_chars`` (1,000: winnow's choice; such "alts" are pasted paragraphs) (``long_alt``);
- the alt is a generic word ("image", "logo", "icon", "banner", "photo", "thumbnail", ...,
  optionally with a number) (``generic_alt``);
- the alt looks like a file name (``IMG_2041.jpg``, ``DSC01234``, a hash) (``filename_alt``);
- ``languages`` is given and the alt's language (``filters.langid.LanguageID`` with
  ``kind: image_text``, run before) is not in it (``alt_language``);
- the image is known to be smaller than 200 px on its short side (``small_image``) or to have an
  aspect ratio above 3 (``aspect_ratio``): DataComp's basic filtering again;
- the same alt is used for more than ``max_alt_repeats`` different images of one page
  (``repeated_alt``): "product image" under every picture describes none of them (winnow's choice, 1).
  Pairs of one page reach the step in one batch (extraction emits them together).

InterleavedQuality drops an InterleavedDoc with fewer than ``min_images`` (1) images (``too_few_images``), or
more than ``max_images`` images (30: OBELICS, Laurençon et al. 2023, keeps documents with at most 30 images)
*and* fewer than ``min_words_per_image`` (50) words of text per image (``too_many_images``): OBELICS's cap
counts images only, so a long illustrated chapter (a 12,000-word tutorial with 60 figures) went with the
galleries; winnow keeps it while its text carries the images (one image per 50 words is a figure every
paragraph or two; a gallery has a caption per image). Also dropped: fewer than ``min_text_words`` (50,
Gopher's document minimum) words of text
(``short_text``), or more than ``max_images_per_100_words`` images per 100 words of text
(``image_text_ratio``; 5: winnow's choice, a gallery with captions rather than a document).
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from filters.text import word_count, words
from pipelines.arguments import check_number
from pipelines.step import Drop, Step

GENERIC_ALTS = frozenset({
    "image", "img", "picture", "pic", "photo", "photograph", "logo", "icon", "banner", "thumbnail", "thumb",
    "avatar", "placeholder", "spacer", "untitled", "graphic", "figure", "fig", "screenshot", "header", "footer",
    "background", "bg", "button", "arrow", "loading", "blank", "default", "no image", "image not found",
    "click here", "read more", "more", "alt", "alt text", "featured image", "product image", "profile picture",
    "user avatar", "company logo", "site logo", "cover image", "hero image", "gallery image", "image placeholder",
})
_TRAILING_NUMBER = re.compile(r"[\s_#-]*\d+$")
_PATH_END = re.compile(r"[?#].*$")
_FILENAME = re.compile(
    r"^(?:[\w\-.()%+ ]+\.(?:jpe?g|png|gif|webp|svg|bmp|tiff?|avif|heic|ico)"   # a file name with an image extension
    r"|(?:img|dsc|dscn|dcim|pxl|photo|image|screenshot|screen shot|wp|pic)[\s_-]*\d[\w\s_-]*"  # camera/CMS names
    r"|[0-9a-f]{16,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$",  # hashes, UUIDs
    re.IGNORECASE,
)


# DataComp's basic caption rule (Gadre et al. 2023, section 3.3): more than two words and more than five characters.
MIN_CAPTION_WORDS, MIN_CAPTION_CHARS = 3, 6


def _norm(alt: str) -> str:
    return " ".join(alt.lower().split()).strip(" .:;,!-_|")


def is_generic(alt: str) -> bool:
    norm = _norm(alt)
    return norm in GENERIC_ALTS or _TRAILING_NUMBER.sub("", norm) in GENERIC_ALTS


def is_filename(alt: str) -> bool:
    """Whether ``alt`` is a file name, a path or URL of one (``../_images/plot_thumb.png``), a camera or CMS name, or
    a hash: what a generator writes when nobody wrote an alt."""
    text = alt.strip()
    if ("/" in text or "\\" in text) and (not any(c.isspace() for c in text) or "://" in text):
        # a path or a URL (no spaces: "before/after comparison" is prose): judged by its last part, as
        # sphinx-gallery writes "../_images/sphx_glr_<name>_thumb.png"
        text = _PATH_END.sub("", text).replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    return bool(_FILENAME.match(text))


def _words_ok(text: str, min_words: int = MIN_CAPTION_WORDS, min_chars: int = MIN_CAPTION_CHARS) -> bool:
    return len(words(text)) >= min_words and len(text) >= min_chars


def usable(text: str | None) -> bool:
    """Whether ``text`` can describe an image at all: not empty, not a file name, not a generic word."""
    return bool(text and text.strip()) and not is_filename(text) and not is_generic(text)  # type: ignore[arg-type]


def pair_text(alt: str | None, caption: str | None) -> tuple[str | None, str | None]:
    """``(text, text_source)`` of an image pair (module docstring): the alt, or the caption where the alt is junk or
    too short for the caption rule and the caption is not; ``(None, None)`` when neither is usable."""
    alt = " ".join(alt.split()) if alt else None
    caption = " ".join(caption.split()) if caption else None
    alt_ok, caption_ok = usable(alt), usable(caption)
    if alt_ok and (not caption_ok or _words_ok(alt) or not _words_ok(caption)):  # type: ignore[arg-type]
        return alt, "alt"
    if caption_ok:
        return caption, "caption"
    return None, None


def text_of(pair: Any) -> str | None:
    """The text a pair is judged, scored and trained on: ``text`` (extraction's choice), else its alt."""
    return getattr(pair, "text", None) or pair.alt


class AltTextQuality(Step):
    input_kind = "image_text"
    default_name = "alt_quality"

    def __init__(self, min_words: int = 3, min_chars: int = 6, max_chars: int = 1000,
                 languages: list[str] | None = None, min_side: int = 200, max_aspect_ratio: float = 3.0,
                 max_alt_repeats: int = 1, min_caption_words: int = 2) -> None:
        self.min_words = int(check_number("min_words", min_words, 0, integer=True))
        self.min_caption_words = int(check_number("min_caption_words", min_caption_words, 0, integer=True))
        self.min_chars = int(check_number("min_chars", min_chars, 0, integer=True))
        self.max_chars = int(check_number("max_chars", max_chars, 1, integer=True))
        if languages is not None and (not isinstance(languages, list) or not languages
                                      or not all(isinstance(x, str) and x for x in languages)):
            raise ValueError(f"languages must be a non-empty list of language codes, got {languages!r}")
        self.languages = languages
        self.min_side = int(check_number("min_side", min_side, 0, integer=True))
        self.max_aspect_ratio = check_number("max_aspect_ratio", max_aspect_ratio, 1)
        self.max_alt_repeats = int(check_number("max_alt_repeats", max_alt_repeats, 1, integer=True))

    def check(self, pair: Any) -> tuple[str, str | None] | None:
        """The first rule ``pair`` fails, or None (``repeated_alt`` needs the page: see process_batch)."""
        alt = (text_of(pair) or "").strip()
        if not alt:
            return "no_alt", None
        if len(alt) > self.max_chars:
            return "long_alt", str(len(alt))
        if is_generic(alt):
            return "generic_alt", alt[:100]
        if is_filename(alt):
            return "filename_alt", alt[:100]
        min_words = self.min_caption_words if getattr(pair, "text_source", None) == "caption" else self.min_words
        if len(words(alt)) < min_words or len(alt) < self.min_chars:
            return "short_alt", alt[:100]
        if self.languages is not None and pair.lang not in self.languages:
            return "alt_language", pair.lang
        w, h = pair.width, pair.height
        if w and h and w > 0 and h > 0:
            if min(w, h) < self.min_side:
                return "small_image", f"{w}x{h}"
            if max(w, h) / min(w, h) > self.max_aspect_ratio:
                return "aspect_ratio", f"{w}x{h}"
        return None

    def process_batch(self, records: list[Any]) -> list[Any]:
        images: dict[tuple[str | None, str], set[str | None]] = defaultdict(set)
        for r in records:
            text = text_of(r)
            if text and text.strip():
                images[(r.doc_id or r.url, _norm(text))].add(r.image_url)
        out: list[Any] = []
        for r in records:
            fail = self.check(r)
            text = text_of(r) or ""
            if fail is None and len(images[(r.doc_id or r.url, _norm(text))]) > self.max_alt_repeats:
                fail = ("repeated_alt", text[:100])
            out.append(Drop(*fail) if fail else r)
        return out


class InterleavedQuality(Step):
    input_kind = "interleaved"
    default_name = "interleaved_quality"

    def __init__(self, min_images: int = 1, max_images: int = 30, min_text_words: int = 50,
                 max_images_per_100_words: float = 5.0, min_words_per_image: float = 50) -> None:
        self.min_images = int(check_number("min_images", min_images, 0, integer=True))
        self.max_images = int(check_number("max_images", max_images, 1, integer=True))
        self.min_words_per_image = check_number("min_words_per_image", min_words_per_image, 0)
        self.min_text_words = int(check_number("min_text_words", min_text_words, 0, integer=True))
        self.max_images_per_100_words = check_number("max_images_per_100_words", max_images_per_100_words, 0)

    def failures(self, doc: Any) -> list[str]:
        return [reason for reason, _ in self._check(doc)]

    def _check(self, doc: Any) -> list[tuple[str, str]]:
        n_images = sum(s.kind == "image" for s in doc.segments)
        n_words = sum(word_count(s.text, doc.lang) for s in doc.segments if s.kind == "text" and s.text)
        fails = []
        if n_images < self.min_images:
            fails.append(("too_few_images", str(n_images)))
        if n_images > self.max_images and n_words < n_images * self.min_words_per_image:
            fails.append(("too_many_images", f"{n_images} images, {n_words} words"))
        if n_words < self.min_text_words:
            fails.append(("short_text", f"{n_words} words"))
        if n_images and 100 * n_images / max(n_words, 1) > self.max_images_per_100_words:
            fails.append(("image_text_ratio", f"{n_images} images, {n_words} words"))
        return fails

    def process(self, doc: Any) -> Any:
        fails = self._check(doc)
        if fails:
            raise Drop(*fails[0])
        return doc
