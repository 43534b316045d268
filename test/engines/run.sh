#!/usr/bin/env bash
# `npm run test:engines`: the differential tests on the real engines. DuckDB is a dev dependency; ClickHouse
# (chdb) is installed into a cache directory by scripts/install-chdb.sh. When it cannot be installed, the
# ClickHouse tests are skipped and the reason is printed (the DuckDB ones still run).
set -uo pipefail
cd "$(dirname "$0")/../.."
if bash scripts/install-chdb.sh; then
  export LOGFILTER_CHDB=1
else
  echo "== ClickHouse (chdb) unavailable: its differential tests are SKIPPED (see the message above)"
  export LOGFILTER_CHDB=0
fi
exec npx vitest run --config vitest.engines.config.ts "$@"
