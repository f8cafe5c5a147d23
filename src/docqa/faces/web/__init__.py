"""The web face: REST API, background ingestion and the single-page UI (``docqa serve``)."""
