"""The errors a face turns into a message, an exit code or an HTTP status: raised below the use cases,
named here so that a face needs no import of the parts that raise them."""

from docqa.engine import AnswerNotFound, PageOutOfRange
from docqa.ingest.parallel import ClusterUnavailable
from docqa.ingest.parse import ParseError
from docqa.store import AmbiguousDocument, DiskFull, DocumentNotFound, EmbedderMismatch, StoreUnavailable, disk_full

__all__ = ["AmbiguousDocument", "AnswerNotFound", "ClusterUnavailable", "DiskFull", "DocumentNotFound",
           "EmbedderMismatch", "PageOutOfRange", "ParseError", "StoreUnavailable", "disk_full"]
