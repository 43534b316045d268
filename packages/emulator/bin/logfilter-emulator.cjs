#!/usr/bin/env node
// The bundled emulator (built by `npm run build` from src/main.ts): one file, no workspace resolution at run time.
// --version is answered here, from the package.json beside the bin.
if (process.argv.slice(2).some((a) => a === '--version' || a === '-V')) process.stdout.write(`${require('../package.json').version}\n`);
else require('../dist/logfilter-emulator.cjs');
