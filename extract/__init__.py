"""HTML to records: main text, image/alt-text pairs and interleaved documents from one parse.

``extract_page(html, url)`` is the notebook entry point (``extract_pages`` for many pages at once);
``extract.step.ExtractPage`` is the pipeline step around them; ``extract.trafilatura_step.TrafilaturaExtract``
is the older text-only step.
"""

from extract.page import Extraction, extract_page, extract_pages

__all__ = ["Extraction", "extract_page", "extract_pages"]
