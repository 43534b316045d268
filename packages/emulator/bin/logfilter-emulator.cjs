#!/usr/bin/env node
// The bundled emulator (built by `npm run build` from src/main.ts): one file, no workspace resolution at run time.
require('../dist/logfilter-emulator.cjs');
