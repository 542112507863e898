"""HTML to records: main-text extraction (and, later, image/alt pairs and interleaved documents)."""
