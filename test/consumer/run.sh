#!/usr/bin/env bash
# The consumer test (see consumer.mjs): builds if the bundles are missing, then packs, installs and uses the
# packages from a temporary directory outside the repository. Prints `N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f packages/cli/dist/logfilter.cjs ] || [ ! -f packages/core/dist/logfilter-core.js ]; then npm run build; fi
exec node test/consumer/consumer.mjs
