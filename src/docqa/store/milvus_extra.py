"""The 'milvus' extra's packages, imported here once: every Milvus module imports them from this one,
so an install without the extra is told how to add it, whichever module it opened first."""

from __future__ import annotations

try:  # the 'milvus' extra
    from pymilvus import AnnSearchRequest, DataType, Function, FunctionType, MilvusClient, RRFRanker
    from pymilvus.client import entity_helper
    from pymilvus.exceptions import MilvusException, MilvusUnavailableException
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the Milvus store needs the 'milvus' extra: pip install -e '.[milvus]'") from exc

# pymilvus 3.0.2's row insert "checks" a VARCHAR value by iterating over its characters (isinstance
# and length per character: it checks nothing, and a 60 kB page row costs ~1.5 ms; two thirds of a
# load's CPU, docs/milvus.md). This store builds every string itself and checks their byte lengths
# against MAX_VARCHAR before inserting, so the per-character pass is switched off.
entity_helper.CHECK_STR_ARRAY = False

__all__ = ["AnnSearchRequest", "DataType", "Function", "FunctionType", "MilvusClient", "MilvusException",
           "MilvusUnavailableException", "RRFRanker"]
