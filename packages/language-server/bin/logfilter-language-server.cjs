#!/usr/bin/env node
// Editors start this with `--stdio`; with no transport flag stdio is assumed, so `logfilter-language-server` alone works too.
if (!process.argv.slice(2).some((a) => /^--(stdio|node-ipc|socket|pipe|clientProcessId)/.test(a))) process.argv.push('--stdio');
require('../dist/logfilter-language-server.cjs');
