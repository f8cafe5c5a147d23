#!/usr/bin/env bash
# Schemathesis over the REST API: the OpenAPI document and the code must agree.
#
# Installs Schemathesis into its own venv ($ST_VENV, default /tmp/st-venv; never the project's
# dependencies), indexes samples/ into a throw-away index, starts `docqa serve` on 127.0.0.1 on a free
# port, runs every check with a bounded number of examples per operation, and stops the server.
# Exits with Schemathesis's status: 0 only when it reports no failure.
#
#   .ci/schemathesis.sh                  # as CI runs it (from .ci/run, after `make test`)
#   ST_MAX_EXAMPLES=100 .ci/schemathesis.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ST_VENV="${ST_VENV:-/tmp/st-venv}"
ST_VERSION="${ST_VERSION:-schemathesis==4.32.5}"
MAX_EXAMPLES="${ST_MAX_EXAMPLES:-25}"
PY="${PYTHON:-.venv/bin/python}"
DOCQA=.venv/bin/docqa

if [ ! -x "$ST_VENV/bin/st" ]; then
  echo "== installing Schemathesis into $ST_VENV"
  python3 -m venv "$ST_VENV"
  "$ST_VENV/bin/pip" install -q "$ST_VERSION"
fi
"$ST_VENV/bin/st" --version

work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# Lexical index, quotes by words alone: no embedding model to load, answers in milliseconds.
export DOCQA_DENSE=false DOCQA_QUOTE_BY_MEANING=false DOCQA_INDEX="$work/index"
unset DOCQA_API_TOKEN DOCQA_STORE

echo "== indexing samples/"
"$DOCQA" ingest samples/ --index "$work/index" >"$work/ingest.log" 2>&1 || { cat "$work/ingest.log"; exit 1; }

port="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$DOCQA" serve --host 127.0.0.1 --port "$port" --index "$work/index" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do
  if "$PY" -c "import urllib.request, sys; urllib.request.urlopen('http://127.0.0.1:$port/healthz', timeout=1)" 2>/dev/null; then
    break
  fi
  if ! kill -0 "$server" 2>/dev/null; then
    echo "docqa serve exited:"; cat "$work/server.log"; exit 1
  fi
  sleep 0.5
done

echo "== schemathesis: http://127.0.0.1:$port/openapi.json, --checks all --max-examples $MAX_EXAMPLES"
status=0
"$ST_VENV/bin/st" --config-file .ci/schemathesis.toml run "http://127.0.0.1:$port/openapi.json" --checks all --max-examples "$MAX_EXAMPLES" \
  --workers 1 --seed "${ST_SEED:-15}" --no-color --generation-database none \
  --report junit --report-dir "${ST_REPORT_DIR:-$work/report}" || status=$?
if [ "$status" -ne 0 ]; then
  echo "== last lines of the server log"
  tail -n 40 "$work/server.log"
fi
exit "$status"
