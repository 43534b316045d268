#!/usr/bin/env bash
# Installs ClickHouse's in-process engine (the chdb npm package, ~550 MB with its native library) into a cache
# directory outside the repository, for the differential tests of `npm run test:engines`. Everything comes
# from the npm registry: chdb's install script does nothing, and libchdb.so ships inside the platform package
# @chdb/lib-linux-x64-gnu (an optional dependency). Exit 0 when chdb loads and answers a query.
set -euo pipefail
CHDB_DIR="${LOGFILTER_CHDB_DIR:-/tmp/logfilter-chdb}"
CHDB_VERSION=3.4.0
t() { echo "[$(date +%T)] chdb: $*"; }

probe() { node -e "const c=require('$CHDB_DIR/node_modules/chdb'); if (c.query('SELECT 1','CSV').trim()!=='1') process.exit(1)" 2>/dev/null; }

if [ -f "$CHDB_DIR/node_modules/chdb/package.json" ] && grep -q "\"version\": \"$CHDB_VERSION\"" "$CHDB_DIR/node_modules/chdb/package.json" && probe; then
  t "chdb $CHDB_VERSION cached in $CHDB_DIR"
  exit 0
fi

t "installing chdb $CHDB_VERSION into $CHDB_DIR"
rm -rf "$CHDB_DIR"
mkdir -p "$CHDB_DIR"
printf '{"name":"logfilter-chdb-cache","private":true}\n' > "$CHDB_DIR/package.json"
(cd "$CHDB_DIR" && npm install --no-audit --no-fund --no-save --loglevel=error "chdb@$CHDB_VERSION" >/dev/null)
if ! probe; then
  t "chdb installed but does not load on this machine ($(uname -m), $(ldd --version 2>&1 | head -1))"
  exit 1
fi
t "chdb $CHDB_VERSION ready ($(du -sh "$CHDB_DIR" | cut -f1))"
