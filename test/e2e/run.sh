#!/usr/bin/env bash
# End-to-end suite of the VS Code extension in a real VS Code: code-server 4.100.3 (VS Code 1.100.3, the last
# release for Node 20) driven by Debian's chromium through playwright-core.
#   1. UI test (ui-test.mjs): what a user sees, through the workbench DOM.
#   2. Extension-host tests (exthost/): the `vscode` API inside code-server's extension host.
# Both run against the packaged .vsix installed into a fresh profile. Prints `N passed, N failed`, exits
# non-zero on any failure, saves screenshots under $ARTIFACTS.
# Env: E2E_WORK (cache + scratch, default /tmp/logfilter-e2e), ARTIFACTS (default <repo>/test-artifacts),
#      E2E_SKIP_PACKAGE=1 (use the existing packages/vscode/logfilter-vscode-*.vsix),
#      E2E_UPDATE_SCREENSHOT=1 (copy the overview screenshot to packages/vscode/images/screenshot.png),
#      E2E_STEPS=<regular expression> (run only the UI steps whose names match, e.g. `warm opens`, and no
#      extension-host tests), E2E_WARM_ROUNDS (rounds of warm opens, default 5).
# The summary ends with the figures measured (open → squiggle times, split into steps).
set -euo pipefail
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
E2E="$REPO/test/e2e"
export E2E_WORK="${E2E_WORK:-/tmp/logfilter-e2e}"
export ARTIFACTS="${ARTIFACTS:-$REPO/test-artifacts}"
START=$(date +%s)
t() { echo "[$(date +%T)] e2e: $*"; }

bash "$E2E/setup.sh"
CS="$E2E_WORK/cs/node_modules/.bin/code-server"

VERSION=$(node -p "require('$REPO/packages/vscode/package.json').version")
VSIX="$REPO/packages/vscode/logfilter-vscode-$VERSION.vsix"
if [ "${E2E_SKIP_PACKAGE:-}" != 1 ] || [ ! -f "$VSIX" ]; then
  t "building and packaging the extension"
  (cd "$REPO" && npm run build -w logfilter-vscode --silent && npm run package -w logfilter-vscode --silent >/dev/null)
fi
t "vsix: $VSIX ($(stat -c %s "$VSIX") bytes)"

RUN="$E2E_WORK/run"
rm -rf "$RUN"
mkdir -p "$RUN/home" "$RUN/tmp" "$RUN/data/User" "$RUN/ext" "$ARTIFACTS"
# code-server and chromium write state under HOME; keep it in the scratch dir.
export HOME="$RUN/home" TMPDIR="$RUN/tmp"
cp "$E2E/fixtures/user-settings.json" "$RUN/data/User/settings.json"
# Two copies of the workspace: the UI session's restored editors must not leak into the activation test.
for ws in ws-ui ws-exthost; do cp -r "$E2E/fixtures/workspace" "$RUN/$ws"; done

t "installing the vsix into a fresh profile"
"$CS" --user-data-dir "$RUN/data" --extensions-dir "$RUN/ext" --install-extension "$VSIX" >/dev/null
"$CS" --user-data-dir "$RUN/data" --extensions-dir "$RUN/ext" --list-extensions --show-versions

# the start-up timeline of the extension host and the language server (startup-breakdown.mjs reads it)
export LOGFILTER_STARTUP_TRACE="$RUN/startup-trace.ndjson"
PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
t "starting code-server on 127.0.0.1:$PORT"
# setsid: own process group, so the trap also stops the file watcher and extension hosts it forks.
LOGFILTER_E2E_RESULT="$RUN/exthost-result.json" setsid "$CS" --bind-addr "127.0.0.1:$PORT" --auth none \
  --user-data-dir "$RUN/data" --extensions-dir "$RUN/ext" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override > "$RUN/code-server.log" 2>&1 &
CS_PGID=$!
cleanup() { kill -- "-$CS_PGID" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 150); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null || { echo "code-server did not start:"; cat "$RUN/code-server.log"; exit 1; }

export CS_URL="http://127.0.0.1:$PORT" RUN
set +e
t "UI test"
node "$E2E/ui-test.mjs"
RESULTS=("$RUN/ui-result.json")
if [ -z "${E2E_STEPS:-}" ]; then
  t "extension-host tests"
  WS="$RUN/ws-exthost" node "$E2E/exthost-driver.mjs"
  RESULTS+=("$RUN/exthost-result.json")
fi
set -e
cp "$RUN/code-server.log" "$ARTIFACTS/code-server.log" 2>/dev/null || true
cp "$LOGFILTER_STARTUP_TRACE" "$ARTIFACTS/startup-trace.ndjson" 2>/dev/null || true
cp "$RUN/ui-result.json" "$ARTIFACTS/ui-result.json" 2>/dev/null || true
# E2E_UPDATE_SCREENSHOT=1 refreshes the README screenshot of the extension from this run.
if [ "${E2E_UPDATE_SCREENSHOT:-}" = 1 ] && [ -f "$ARTIFACTS/overview.png" ]; then
  cp "$ARTIFACTS/overview.png" "$REPO/packages/vscode/images/screenshot.png"
fi

status=0
node "$E2E/summarize.mjs" "${RESULTS[@]}" || status=$?
t "done in $(( $(date +%s) - START )) s; screenshots in $ARTIFACTS"
exit $status
