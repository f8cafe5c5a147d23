#!/usr/bin/env bash
# The MCP Inspector's CLI (npm) for tests/faces/test_mcp.py: a client nobody here wrote checks the
# MCP server. Installed globally; the tests run its `mcp-inspector` binary and check its version,
# so nothing is downloaded at test time (`npx --offline` would need npm's cached registry answer).
#
# Node: the machine's own (Node 20 here). The inspector declares node >=22.19 but its CLI runs
# on Node 20 (checked: tools/list and tools/call over stdio and HTTP); npm only warns.
# Idempotent: does nothing when this version is already installed.
set -euo pipefail

VERSION=2.12.0   # keep in step with INSPECTOR in tests/faces/test_mcp.py
export DEBIAN_FRONTEND=noninteractive

if ! command -v npx >/dev/null 2>&1; then
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

installed="$(mcp-inspector --cli --version 2>/dev/null || true)"
if [ "$installed" = "$VERSION" ]; then
  echo "MCP Inspector $VERSION already installed"
  exit 0
fi

npm install -g --no-fund --no-audit --loglevel=error "@modelcontextprotocol/inspector@$VERSION"
installed="$(mcp-inspector --cli --version)"
if [ "$installed" != "$VERSION" ]; then
  echo "mcp-inspector on PATH is $installed, not $VERSION ($(command -v mcp-inspector))" >&2
  exit 1
fi
echo "MCP Inspector $VERSION installed (node $(node --version))"
