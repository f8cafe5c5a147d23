#!/usr/bin/env bash
# PostgreSQL 15 (Debian bookworm) + pgvector for the PostgreSQL store tests and benchmarks.
#
# bookworm has no pgvector package, so pgvector is built from Debian trixie's *source* package
# against bookworm's PostgreSQL 15 (only a deb-src entry is added: no trixie binaries are installed).
# The tests start their own throwaway cluster (tests/store/test_postgres.py: initdb in a temp dir,
# 127.0.0.1 on a random port, stopped at the end), so this script starts no server.
# Idempotent: does nothing when pgvector is already installed for PostgreSQL 15.
set -euo pipefail

PG_MAJOR=15
PG_CONFIG=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config
export DEBIAN_FRONTEND=noninteractive

if [ ! -x "$PG_CONFIG" ] || [ ! -x /usr/lib/postgresql/$PG_MAJOR/bin/initdb ]; then
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends postgresql-$PG_MAJOR postgresql-client-$PG_MAJOR >/dev/null
fi

if [ -f "$("$PG_CONFIG" --sharedir)/extension/vector.control" ]; then
  echo "pgvector already installed for PostgreSQL $PG_MAJOR"
  exit 0
fi

SRC_LIST=/etc/apt/sources.list.d/trixie-src.sources
if [ ! -f "$SRC_LIST" ]; then
  cat >"$SRC_LIST" <<'LIST'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
LIST
fi
apt-get -o DPkg::Lock::Timeout=600 update -qq
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends postgresql-server-dev-$PG_MAJOR build-essential dpkg-dev >/dev/null

BUILD="$(mktemp -d)"
trap 'rm -rf "$BUILD"' EXIT
(
  cd "$BUILD"
  apt-get source -qq --download-only pgvector >/dev/null
  dpkg-source -x --no-check ./pgvector_*.dsc src >/dev/null
  cd src
  make -s PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >/dev/null
  make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
)
test -f "$("$PG_CONFIG" --sharedir)/extension/vector.control"
echo "pgvector $(sed -n "s/^default_version = '\(.*\)'/\1/p" "$("$PG_CONFIG" --sharedir)/extension/vector.control") installed for PostgreSQL $PG_MAJOR"
