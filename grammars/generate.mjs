#!/usr/bin/env node
// Writes grammars/logfilter.tmLanguage.json from the BUILT core (run the root `tsc -b` first).
// `--check` exits 1 when the committed file differs from what the tables give (CI-friendly freshness check).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { grammarText } from './build-grammar.mjs';

const core = new URL('../packages/core/dist/', import.meta.url);
const load = async (rel) => {
  try {
    return await import(new URL(rel, core).href);
  } catch (e) {
    console.error(`cannot load ${fileURLToPath(new URL(rel, core))}: build the core first (npm run build). ${e.message}`);
    process.exit(2);
  }
};
const { OPERATORS } = await load('filter/operators.js');
const { KEYWORDS } = await load('filter/syntax/tokens.js');
const { DATASETS, DEFAULT_DATASET } = await load('filter/datasets/index.js');

const text = grammarText({ OPERATORS, KEYWORDS, DATASETS, DEFAULT_DATASET });
const out = fileURLToPath(new URL('./logfilter.tmLanguage.json', import.meta.url));
if (process.argv.includes('--check')) {
  const current = readFileSync(out, 'utf8');
  if (current !== text) {
    console.error(`${out} is stale: run node grammars/generate.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
