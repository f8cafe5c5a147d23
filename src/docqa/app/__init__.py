"""The use cases the faces call: asking (and logging), conversations, history, uploads, ingest jobs,
the question log. Each is built from the engine (its store and asker); a face parses a request, calls
one of these or the engine, and formats the reply."""
