"""Every setting in one place, in groups: ``settings.ingest.dense``, ``settings.web.port``, ...

Each setting keeps one flat name, unique across the groups, and its environment variable is that
name: DOCQA_DENSE sets ``ingest.dense``, DOCQA_PORT ``web.port``. The one exception is the store's
URL, ``store.url``, whose flat name (DOCQA_STORE) is its group's. Environment variables override
defaults; CLI flags override both.

Construction takes either form: ``Settings(dense=False)`` and ``Settings(ingest={"dense": False})``
are the same settings. A name that is no setting, flat or in a group, is a validation error.
``settings.with_(dense=False)`` is a validated copy with flat or grouped changes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict


class Group(BaseModel):
    """One group of settings; a name it does not hold is an error, not ignored."""

    model_config = ConfigDict(extra="forbid")


class StoreSettings(Group):
    url: str | None = Field(None, description="postgresql://... to use PostgreSQL; default: SQLite in the index folder")
    # The SQLite store's lexical index: tantivy in a folder beside the file, or FTS5 inside it. FTS5 is
    # always written (tantivy is rebuilt from it at open when they differ, store/tantivy_lexical.py) and
    # is the fallback. tantivy ranks as FTS5 does (its IDF, its terms) at a quarter of the CPU, and its
    # cost does not grow with the index the way FTS5's bm25() does (docs/benchmarks.md, Scale).
    lexical: Literal["fts5", "tantivy"] = Field("tantivy", description="SQLite store's lexical index: tantivy or fts5")


class IngestSettings(Group):
    # Off by default because it measured worse: on the 129 FinanceBench questions hybrid search
    # (MiniLM + BM25) scored Hit@5 0.806 against 0.837 for the lexical path alone (README).
    dense: bool = Field(False, description="embed chunks for vector and hybrid search (needs the 'dense' extra)")
    embedder: str = "minilm"
    embed_max_tokens: int = 128   # word pieces embedded per chunk; part of the index's embedder identity
    # torch threads of the sentence model per process (0: every core). One: re-ranking 40 quotes took
    # 0.6 s CPU on one thread and 1.4-2.1 s on two on this shared 2-core machine (spinning threads), and
    # `docqa serve` runs a process per core anyway (benchmarks/ask_latency.py).
    model_threads: int = Field(1, ge=0, le=256, description="torch threads of the sentence model; 0: every core")
    chunk_words: int = 250
    # The web app's uploads are built on this Dask scheduler (tcp://host:8786) when set, as
    # `docqa ingest --cluster` does (ingest/parallel.py); this process still writes the index.
    ingest_cluster: str | None = Field(None, description="Dask scheduler that builds uploaded documents")
    ocr: bool = True
    # OCR (ingest/ocr.py): scanned and garbled pages are read page by page on ocr_workers processes.
    # tesseract took a twelfth of rapidocr-onnxruntime's CPU a page on the garbled report, an eighth on
    # scanned statements, and read more of their figures right (99.0 % against 97.9 %; benchmarks/ocr.py,
    # docs/benchmarks.md); rapidocr needs its wheel (the 'rapidocr' extra).
    ocr_engine: Literal["tesseract", "rapidocr"] = Field("tesseract", description="OCR engine: tesseract or rapidocr")
    ocr_workers: int = Field(0, ge=0, le=256, description="OCR processes; 0: one per core")
    ocr_psm: int = Field(4, ge=0, le=13, description="tesseract page segmentation mode (--psm)")
    ocr_oem: int = Field(1, ge=0, le=3, description="tesseract engine mode (--oem); 1: LSTM")
    # A page is rendered for OCR at this many pixels per point of its text size (9-pt print: 256 dpi);
    # a garbled text layer is drawn sharp and needs fewer (9-pt: 192 dpi), and a garbled page of plain
    # prose fewer still (9-pt: 160 dpi): its figures read as at 24 and its words nearly so, for less
    # CPU, where statement pages at 20 lost figures (benchmarks/ocr.py, docs/benchmarks.md).
    ocr_text_px: float = Field(32.0, ge=8, le=100, description="OCR of a scan: pixels per point of text size")
    ocr_sharp_text_px: float = Field(24.0, ge=8, le=100,
                                     description="OCR of a garbled text layer: pixels per point of text size")
    ocr_sharp_prose_text_px: float = Field(20.0, ge=8, le=100, description=(
        "OCR of a garbled page of plain prose (no table, chart or picture): pixels per point of text size"))
    ocr_timeout_s: float = Field(120.0, gt=0, description="time budget for reading one page by OCR, in seconds")


class LimitsSettings(Group):
    """What one request or one document may cost: every face and reader keeps within these (limits.py)."""

    max_upload_mb: int = 100
    # A request body is refused (413) once it runs past its limit, before the rest is read: one upload
    # request (all its files; never below one file at max_upload_mb) or one JSON request (/api/ask,
    # /api/feedback). Without them a 400 MB JSON question was parsed in 13.6 s at 1.1 GB of memory.
    max_upload_request_mb: int = Field(250, ge=1, description="largest upload request, all its files together, in MB")
    max_json_kb: int = Field(256, ge=16, description="largest JSON request body (a question, feedback), in KB")
    max_pages: int = 2000
    # One HTML filing (ingest/html.py): a larger file is refused; a table's cells past max_table_cells
    # are skipped and the filing is read up to max_html_cells cells, tagged facts and contexts, each
    # with a warning. The shared 10-Ks are 1-4 MB with at most 1,035 cells in a table and 17,000 in
    # all; a generated 50 MB single table took 5.7 GB before these limits.
    max_html_mb: int = Field(100, ge=1, description="largest HTML filing read, in MB")
    max_table_cells: int = Field(100_000, ge=10, description="cells read of one HTML table; the rest are skipped")
    max_html_cells: int = Field(500_000, ge=100, description="table cells, facts and contexts read of one HTML filing")
    # A page is rasterised (evidence images, OCR) at a scale lowered so that width x height stays
    # within this many pixels: a few-hundred-byte PDF can hold a 200 x 200 inch page.
    max_render_pixels: int = Field(25_000_000, ge=1_000_000, description="pixel cap for rendering and OCR one page")
    # Longest question (or search query) any face takes: CLI, REST and MCP refuse a longer one with the same message.
    max_question_chars: int = Field(2000, ge=20, description="longest question or search query, in characters")
    # Drawing one evidence image (MuPDF is synchronous): a page slow to draw is drawn at a lower zoom
    # (evidence._rasterise).
    render_timeout_s: float = Field(10.0, gt=0, description="time budget for drawing one page image, in seconds")


class SearchSettings(Group):
    candidates: int = 200      # chunks fetched per retriever before fusion
    rrf_k: int = 60
    statement_boost: float = 1.0  # added to a page's fused score (in RRF units * 100) when it holds the statement asked for
    dense_weight: float = 0.3     # weight of the dense ranking in the hybrid fusion (lexical has 1); tuned on the dev set
    section_boost: float = 0.5    # likewise when the page sits in the Item that usually holds the topic asked about


class AnswerSettings(Group):
    # Quotes for questions that are not a figure: the lexically closest lines re-ranked by the
    # sentence model's similarity to the question (needs the 'dense' extra; measured on the dev
    # set: text answers citing an evidence page 0.43 -> 0.50, proxy accuracy 0.22 -> 0.29).
    quote_by_meaning: bool = True
    quote_meaning_weight: float = 0.5   # cosine similarity's weight against word coverage (0-1)
    # The text answerer, by its name in answer/factory.py:TEXT_ANSWERERS.
    answerer: Literal["extractive", "anthropic", "openai"] = "extractive"
    anthropic_api_key: SecretStr | None = None
    anthropic_model: str = "claude-sonnet-4-5"
    anthropic_base_url: str | None = None
    openai_api_key: SecretStr | None = None
    openai_model: str = "qwen2.5"
    openai_base_url: str | None = None
    llm_timeout_s: float = 60.0


class EdgarSettings(Group):
    """Fetching filings from SEC EDGAR (`docqa fetch`, sources/edgar.py)."""

    # The SEC asks every automated client to say who it is: "Name email@example.com". Required to fetch.
    sec_user_agent: str | None = Field(None, description="User-Agent for SEC EDGAR: your name and e-mail")
    sec_tickers_url: str = "https://www.sec.gov/files/company_tickers.json"
    sec_submissions_url: str = "https://data.sec.gov/submissions"      # + /CIK##########.json
    sec_archives_url: str = "https://www.sec.gov/Archives/edgar/data"  # + /<cik>/<accession>/<document>
    sec_requests_per_second: float = Field(10.0, gt=0, le=10, description="the SEC's fair-access limit is 10/s")
    sec_timeout_s: float = 30.0
    sec_listing_max_age_h: float = 24.0  # ticker map and filing lists are fetched again after this; filings never
    # Caps on one download, read as it streams in: a listing (the ticker map, a filing list: EDGAR's are
    # a few MB) and a filing's primary document (large 10-Ks are tens of MB). sec_timeout_s bounds each
    # whole download (connecting, redirects, retries and the body), not each read.
    sec_max_listing_mb: float = Field(20.0, gt=0, description="largest ticker map or filing list fetched, in MB")
    sec_max_document_mb: float = Field(100.0, gt=0, description="largest filing document fetched, in MB")


class WebSettings(Group):
    """`docqa serve`: the web app and REST API (the MCP HTTP server shares allowed_hosts)."""

    host: str = "127.0.0.1"
    port: int = 8000
    api_token: SecretStr | None = None
    # Several tokens, comma-separated (with or without api_token): each token is its own user, who sees
    # only the questions and threads asked with it (faces/web/guard.py, docs/web.md).
    api_tokens: SecretStr | None = Field(None, description="bearer tokens of several users, comma-separated")
    # `docqa serve` answers in this many processes (0: one per core) and indexes uploads in one more:
    # answering is CPU-bound Python, so threads of one process would share one core (faces/web/serving.py).
    web_workers: int = Field(0, ge=0, le=64, description="answering processes of `docqa serve`; 0: one per core")
    # The indexing process's priority beside the answering ones (a nice value, 0-19). Under full load
    # the kernel shares the cores by these weights; at nice 5 the indexer got 4.7 s of CPU in a minute
    # of eight clients and an uploaded filing was not ready (docs/benchmarks.md, Load and faults).
    ingest_nice: int = Field(0, ge=0, le=19, description="nice value of `docqa serve`'s indexing process")
    # Without a token the web app and the MCP HTTP server answer only to Host 127.0.0.1 / localhost /
    # [::1] (and the bound address) and refuse writes from other origins (faces/origin.py); a
    # deliberate public name goes here, comma-separated.
    allowed_hosts: str = Field("", description="extra Host names the HTTP servers answer to, comma-separated")


class McpSettings(Group):
    mcp_token: SecretStr | None = None
    # The MCP tools are read-only: `ask` writes nothing to the question log unless this is on (then
    # its readOnlyHint is false). The web app always logs; the CLI unless cli_log_questions is off (docs/mcp.md).
    mcp_log_questions: bool = Field(False, description="log MCP `ask` calls to the question log (export-log)")


class CliSettings(Group):
    # The CLI keeps its questions by default (a person at a prompt, as on the web); scripts that ask in
    # bulk turn it off with DOCQA_CLI_LOG_QUESTIONS=false.
    cli_log_questions: bool = Field(True, description="log `docqa ask` questions to the question log (export-log)")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DOCQA_", env_file=None, extra="forbid")

    index: Path = Field(Path(".docqa"), description="index folder (SQLite file, copies of ingested PDFs)")
    store: StoreSettings = Field(default_factory=StoreSettings)
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    limits: LimitsSettings = Field(default_factory=LimitsSettings)
    search: SearchSettings = Field(default_factory=SearchSettings)
    answer: AnswerSettings = Field(default_factory=AnswerSettings)
    edgar: EdgarSettings = Field(default_factory=EdgarSettings)
    web: WebSettings = Field(default_factory=WebSettings)
    mcp: McpSettings = Field(default_factory=McpSettings)
    cli: CliSettings = Field(default_factory=CliSettings)

    @model_validator(mode="before")
    @classmethod
    def _route_flat_names(cls, data: Any) -> Any:
        return nest(data) if isinstance(data, Mapping) else data

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Keyword arguments, then DOCQA_<flat name>; both nested before they are merged, so that
        # Settings(store="sqlite:x") keeps DOCQA_LEXICAL, and Settings(dense=True) beats DOCQA_DENSE.
        return _NestedInit(init_settings), _FlatEnv(settings_cls)

    def with_(self, **changes: Any) -> Settings:
        """A validated copy with ``changes``: flat names (``dense=False``) or groups (``ingest={...}``)."""
        return type(self).model_validate(_merged(self.model_dump(), nest(changes)))

    @property
    def bearer_tokens(self) -> tuple[str, ...]:
        """Every token the web API accepts: api_token, then each of api_tokens (blanks and repeats dropped)."""
        web = self.web
        given = [web.api_token.get_secret_value() if web.api_token else ""]
        given += (web.api_tokens.get_secret_value() if web.api_tokens else "").split(",")
        return tuple(dict.fromkeys(t.strip() for t in given if t.strip()))

    @property
    def upload_request_bytes(self) -> int:
        """The upload request limit in bytes: one file at the per-file limit always fits (plus its framing)."""
        return max(self.limits.max_upload_request_mb, self.limits.max_upload_mb + 1) * 1024 * 1024

    @property
    def sqlite_path(self) -> Path:
        return self.index / "docqa.sqlite"

    @property
    def files_dir(self) -> Path:
        return self.index / "files"


# The groups by field name, and each flat name's place: "dense" -> ("ingest", "dense").
GROUPS: dict[str, type[Group]] = {name: field.annotation for name, field in Settings.model_fields.items()
                                  if isinstance(field.annotation, type) and issubclass(field.annotation, Group)}
FLAT_ALIASES = {("store", "url"): "store"}  # a leaf whose flat name is not its own: DOCQA_STORE
FLAT: dict[str, tuple[str, str]] = {FLAT_ALIASES.get((group, leaf), leaf): (group, leaf)
                                    for group, model in GROUPS.items() for leaf in model.model_fields}


def nest(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with each flat name moved into its group ({"dense": False} -> {"ingest": {"dense": False}});
    a flat name wins over the same setting given in its group. A name that is no setting stays, to be refused."""
    out: dict[str, Any] = {}
    moved: dict[str, dict[str, Any]] = {}
    for key, value in values.items():
        grouped = key in GROUPS and isinstance(value, (Mapping, BaseModel))
        if key in FLAT and not grouped:
            group, leaf = FLAT[key]
            moved.setdefault(group, {})[leaf] = value
        else:
            out[key] = value
    for group, leaves in moved.items():
        given = out.get(group, {})
        if isinstance(given, BaseModel):
            given = given.model_dump()
        out[group] = {**given, **leaves} if isinstance(given, Mapping) else given
    return out


def _merged(base: dict[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``changes``: a group given as a mapping changes only the leaves it names."""
    out = dict(base)
    for key, value in changes.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


class _NestedInit(PydanticBaseSettingsSource):
    """The keyword arguments, flat names moved into their groups."""

    def __init__(self, inner: PydanticBaseSettingsSource):
        super().__init__(inner.settings_cls)
        self.inner = inner

    def get_field_value(self, field, field_name):  # pragma: no cover - __call__ does the work
        return None, "", False

    def __call__(self) -> dict[str, Any]:
        return nest(self.inner())


class _FlatEnv(PydanticBaseSettingsSource):
    """DOCQA_<flat name> for every setting, whatever its group (DOCQA_DENSE -> ingest.dense), any case.
    Values are the strings as set; validation reads them (\"false\" -> False, \"8\" -> 8)."""

    def get_field_value(self, field, field_name):  # pragma: no cover - __call__ does the work
        return None, "", False

    def __call__(self) -> dict[str, Any]:
        prefix = str(self.config.get("env_prefix") or "").lower()
        env = {name.lower(): value for name, value in os.environ.items()}
        names = ["index", *FLAT]
        return nest({name: env[prefix + name] for name in names if prefix + name in env})


def env_names() -> dict[str, str]:
    """Every environment variable a setting reads, and the setting's place ("DOCQA_DENSE" -> "ingest.dense")."""
    places = {"index": "index", **{flat: f"{group}.{leaf}" for flat, (group, leaf) in FLAT.items()}}
    return {f"DOCQA_{flat.upper()}": place for flat, place in places.items()}
