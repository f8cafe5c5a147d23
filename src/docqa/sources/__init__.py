"""Where filings come from besides local files: SEC EDGAR by ticker (edgar.py)."""
