"""Settings in groups: every environment name of the flat settings still sets the same setting, flat
and grouped construction agree, and a name that is no setting is an error."""

from __future__ import annotations

import json
import os
import typing
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from docqa.config import FLAT, GROUPS, Settings, env_names

# Every environment variable the settings read before they were grouped (one flat class).
OLD_ENV_NAMES = """
DOCQA_INDEX DOCQA_STORE DOCQA_DENSE DOCQA_EMBEDDER DOCQA_EMBED_MAX_TOKENS DOCQA_MODEL_THREADS DOCQA_CHUNK_WORDS
DOCQA_INGEST_CLUSTER DOCQA_OCR DOCQA_OCR_ENGINE DOCQA_OCR_WORKERS DOCQA_OCR_PSM DOCQA_OCR_OEM DOCQA_OCR_TEXT_PX
DOCQA_OCR_SHARP_TEXT_PX DOCQA_OCR_TIMEOUT_S DOCQA_MAX_UPLOAD_MB DOCQA_MAX_UPLOAD_REQUEST_MB DOCQA_MAX_JSON_KB
DOCQA_MAX_PAGES DOCQA_MAX_HTML_MB DOCQA_MAX_TABLE_CELLS DOCQA_MAX_HTML_CELLS DOCQA_MAX_RENDER_PIXELS
DOCQA_MAX_QUESTION_CHARS DOCQA_RENDER_TIMEOUT_S DOCQA_LEXICAL DOCQA_CANDIDATES DOCQA_RRF_K DOCQA_STATEMENT_BOOST
DOCQA_DENSE_WEIGHT DOCQA_SECTION_BOOST DOCQA_QUOTE_BY_MEANING DOCQA_QUOTE_MEANING_WEIGHT DOCQA_ANSWERER
DOCQA_ANTHROPIC_API_KEY DOCQA_ANTHROPIC_MODEL DOCQA_ANTHROPIC_BASE_URL DOCQA_OPENAI_API_KEY DOCQA_OPENAI_MODEL
DOCQA_OPENAI_BASE_URL DOCQA_LLM_TIMEOUT_S DOCQA_SEC_USER_AGENT DOCQA_SEC_TICKERS_URL DOCQA_SEC_SUBMISSIONS_URL
DOCQA_SEC_ARCHIVES_URL DOCQA_SEC_REQUESTS_PER_SECOND DOCQA_SEC_TIMEOUT_S DOCQA_SEC_LISTING_MAX_AGE_H
DOCQA_SEC_MAX_LISTING_MB DOCQA_SEC_MAX_DOCUMENT_MB DOCQA_HOST DOCQA_PORT DOCQA_API_TOKEN DOCQA_API_TOKENS
DOCQA_WEB_WORKERS DOCQA_ALLOWED_HOSTS DOCQA_MCP_TOKEN DOCQA_MCP_LOG_QUESTIONS DOCQA_CLI_LOG_QUESTIONS
""".split()


@pytest.fixture(autouse=True)
def no_docqa_env(monkeypatch):
    for name in [n for n in os.environ if n.upper().startswith("DOCQA_")]:
        monkeypatch.delenv(name)


def _place(settings: Settings, place: str):
    value = settings
    for part in place.split("."):
        value = getattr(value, part)
    return value


def _other_value(place: str) -> tuple[str, object]:
    """An environment string for the setting at ``place`` that is not its default, and the value it gives."""
    if place == "index":
        return "/tmp/elsewhere", Path("/tmp/elsewhere")
    group, leaf = place.split(".")
    field = GROUPS[group].model_fields[leaf]
    default, kind = field.default, field.annotation
    if typing.get_origin(kind) is typing.Literal:
        choice = next(c for c in typing.get_args(kind) if c != default)
        return choice, choice
    if kind is bool:
        return str(not default).lower(), not default
    if kind is int:
        return str(default + 1), default + 1
    if kind is float:
        return str(default / 2), default / 2
    if SecretStr in typing.get_args(kind):
        return "s3cret", "s3cret"
    return "some-value", "some-value"  # str, str | None


def test_every_old_environment_name_still_sets_a_setting():
    assert set(OLD_ENV_NAMES) <= set(env_names())  # new settings may add names; none may go
    assert env_names()["DOCQA_STORE"] == "store.url" and env_names()["DOCQA_DENSE"] == "ingest.dense"


@pytest.mark.parametrize("name", OLD_ENV_NAMES)
def test_each_environment_name_sets_its_place(name, monkeypatch):
    place = env_names()[name]
    text, expected = _other_value(place)
    monkeypatch.setenv(name, text)
    got = _place(Settings(), place)
    got = got.get_secret_value() if isinstance(got, SecretStr) else got
    assert got == expected


def test_leaf_names_are_unique_across_groups():
    leaves = [leaf for model in GROUPS.values() for leaf in model.model_fields]
    assert len(leaves) == len(set(leaves))
    assert len(FLAT) == len(leaves)
    # a flat name is never a group's name, but for the store's URL (DOCQA_STORE)
    assert set(FLAT) & set(GROUPS) == {"store"}
    assert "index" not in FLAT


def test_every_group_forbids_what_it_does_not_hold():
    assert Settings.model_config["extra"] == "forbid"
    assert all(model.model_config["extra"] == "forbid" for model in GROUPS.values())


def test_flat_and_grouped_construction_agree(tmp_path):
    flat = Settings(index=tmp_path, dense=True, max_upload_mb=2, store="sqlite:x.db", port=9001, sec_timeout_s=3)
    grouped = Settings(index=tmp_path, ingest={"dense": True}, limits={"max_upload_mb": 2},
                       store={"url": "sqlite:x.db"}, web={"port": 9001}, edgar={"sec_timeout_s": 3})
    assert flat == grouped
    assert flat.ingest.dense and flat.limits.max_upload_mb == 2 and flat.store.url == "sqlite:x.db"


@pytest.mark.parametrize("given", [{"densee": True}, {"ingest": {"densee": True}}, {"ingest": {"port": 1}},
                                   {"search": {"dense": True}}])
def test_a_name_that_is_no_setting_is_an_error(given):
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Settings(**given)
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Settings().with_(**given)


def test_environment_names_that_are_no_setting_are_ignored(monkeypatch):
    monkeypatch.setenv("DOCQA_NOT_A_SETTING", "1")
    monkeypatch.setenv("DOCQA_SERVE_SETTINGS", "{}")
    monkeypatch.setenv("DOCQA_URL", "postgresql://x")  # the store's URL is DOCQA_STORE, not its leaf's name
    assert Settings().store.url is None


def test_keywords_win_over_the_environment_and_keep_the_rest_of_a_group(monkeypatch):
    monkeypatch.setenv("DOCQA_DENSE", "true")
    monkeypatch.setenv("DOCQA_EMBEDDER", "hashing")
    monkeypatch.setenv("DOCQA_LEXICAL", "fts5")
    s = Settings(dense=False, store="sqlite:x.db")
    assert s.ingest.dense is False and s.ingest.embedder == "hashing"
    assert s.store.url == "sqlite:x.db" and s.store.lexical == "fts5"
    assert Settings(ingest={"dense": False}).ingest.embedder == "hashing"


def test_with_copies_with_flat_or_grouped_changes(tmp_path):
    s = Settings(index=tmp_path, api_token="t0ken")
    changed = s.with_(dense=True, port=9, index=str(tmp_path / "other"), search={"rrf_k": 10})
    assert changed.ingest.dense and changed.web.port == 9 and changed.index == tmp_path / "other"
    assert changed.search.rrf_k == 10 and changed.search.candidates == s.search.candidates
    assert changed.bearer_tokens == ("t0ken",)
    assert s.ingest.dense is False and s.web.port == 8000  # the original is unchanged
    with pytest.raises(ValidationError):
        s.with_(port="not a port")


def test_json_of_the_grouped_form_gives_the_settings_back(tmp_path):
    s = Settings(index=tmp_path, dense=True, max_json_kb=64, answerer="openai")
    assert Settings(**json.loads(s.model_dump_json())) == s
