#!/usr/bin/env node
// The bundled CLI (built by `npm run build`): one file so that start-up reads as little as possible.
require('../dist/logfilter.cjs');
