# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
SAMPLE_INDEX ?= .docqa-sample
QUESTION ?= What is Amazon's FY2017 capital expenditure in USD millions?

.PHONY: run test install eval bench clean

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch first and pinned: the CPU wheel; an unpinned torch would pull a multi-GB CUDA build
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[dense,dev]'
	touch $@

install: $(VENV)/.installed

run: install
	$(PY) -m docqa.faces.cli ingest samples --index $(SAMPLE_INDEX)
	$(PY) -m docqa.faces.cli docs --index $(SAMPLE_INDEX)
	$(PY) -m docqa.faces.cli search "$(QUESTION)" --index $(SAMPLE_INDEX) --k 5
	$(PY) -m docqa.faces.cli ask "$(QUESTION)" --index $(SAMPLE_INDEX)

test: install
	$(PY) -m pytest -q

# Retrieval (indexes the shared corpus first, lexically, if needed), then answers, on one index.
EVAL_INDEX ?= .docqa-eval
eval: install
	$(PY) -m docqa.faces.cli eval retrieval --questions ../shared/data/questions/financebench.jsonl \
		--pdfs ../shared/data/pdfs --index $(EVAL_INDEX)
	$(PY) -m docqa.faces.cli eval answers --questions ../shared/data/questions/financebench.jsonl \
		--questions eval/unanswerable.jsonl --index $(EVAL_INDEX)

clean:
	rm -rf $(SAMPLE_INDEX) .pytest_cache
