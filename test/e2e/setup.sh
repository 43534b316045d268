#!/usr/bin/env bash
# Installs what the editor end-to-end suite needs on a fresh Debian 12 machine, caching everything under
# $E2E_WORK (outside the repository, so vsce and git never walk it):
#   - apt: chromium (driven by playwright-core over CDP), ripgrep (seeds @vscode/ripgrep), libkrb5-dev (kerberos build)
#   - code-server 4.100.3 from npm: the last release whose engines.node is 20 (VS Code 1.100.3)
# Each workaround for driving code-server offline is explained where it is applied.
set -euo pipefail
E2E_WORK="${E2E_WORK:-/tmp/logfilter-e2e}"
CS_VERSION=4.100.3
CS_DIR="$E2E_WORK/cs"
t() { echo "[$(date +%T)] setup: $*"; }

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v rg >/dev/null || missing+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
command -v g++ >/dev/null || missing+=(build-essential)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
  t "apt-get install ${missing[*]}"
  # DPkg::Lock::Timeout: another job on the machine may be holding the dpkg lock for a moment.
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ -x "$CS_DIR/node_modules/.bin/code-server" ] && HOME="$E2E_WORK/home" "$CS_DIR/node_modules/.bin/code-server" --version 2>/dev/null | grep -q "^$CS_VERSION "; then
  t "code-server $CS_VERSION cached in $CS_DIR"
  exit 0
fi

t "installing code-server $CS_VERSION into $CS_DIR (native modules are compiled locally, ~1 min)"
rm -rf "$CS_DIR"
mkdir -p "$CS_DIR" "$E2E_WORK/tmp"
export TMPDIR="$E2E_WORK/tmp"
# node-gyp must use the system headers instead of downloading them (~/.npmrc says so, but HOME may differ).
export npm_config_nodedir=/usr
# @vscode/ripgrep's postinstall downloads rg from GitHub; pre-seed its cache with Debian's rg.
RG_CACHE="$TMPDIR/vscode-ripgrep-cache-1.15.11"
mkdir -p "$RG_CACHE"
tar czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg
# unsafe_perm: postinstall.sh refuses to run as root without it; yes: node-pty's postinstall runs `npx node-gyp`.
# No -g / --prefix: they leak into the nested `npm install` that postinstall.sh runs in lib/vscode.
cd "$CS_DIR"
echo '{"private":true}' > package.json
# Own logs dir: npm keeps only the last 10 logs, and other npm runs on the machine would rotate ours away.
npm_config_unsafe_perm=true npm_config_yes=true npm install --no-package-lock --no-audit --no-fund --loglevel=warn \
  --logs-dir "$E2E_WORK/npm-logs" --fetch-retries=5 --fetch-timeout=600000 "code-server@$CS_VERSION"
# HOME: code-server writes ~/.config/code-server on any start; keep it in the work dir.
HOME="$E2E_WORK/home" "$CS_DIR/node_modules/.bin/code-server" --version
