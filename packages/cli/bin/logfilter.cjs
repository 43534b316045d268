#!/usr/bin/env node
// The bundled CLI (built by `npm run build`): one file so that start-up reads as little as possible. `eval`
// has its own, smaller bundle, loaded through V8's code cache: an evaluation's start-up is part of its
// running time, and most of that start-up is compiling the bundle.
if (process.argv[2] === 'eval') {
  require('./eval-early-worker.cjs').start(process.argv.slice(3));
  require('./compile-filter.cjs').load(require('node:path').join(__dirname, '../dist/logfilter-eval.cjs'));
} else require('../dist/logfilter.cjs');
