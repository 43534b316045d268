#!/usr/bin/env node
// Writes grammars/logfilter-rules.tmLanguage.json from the BUILT core's rules tables (run `tsc -b` first).
// `--check` exits 1 when the committed file differs from what the tables give.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rulesGrammarText } from './build-rules-grammar.mjs';

const core = new URL('../packages/core/dist/', import.meta.url);
const load = async (rel) => {
  try {
    return await import(new URL(rel, core).href);
  } catch (e) {
    console.error(`cannot load ${fileURLToPath(new URL(rel, core))}: build the core first (npm run build). ${e.message}`);
    process.exit(2);
  }
};
const { COMPARISON_OPERATORS, LOGICAL_OPERATORS } = await load('rules/operators.js');
const { RULE_FIELDS } = await load('rules/fields.js');
const { RULE_FUNCTIONS } = await load('rules/functions.js');

const text = rulesGrammarText({ COMPARISON_OPERATORS, LOGICAL_OPERATORS, RULE_FIELDS, RULE_FUNCTIONS });
const out = fileURLToPath(new URL('./logfilter-rules.tmLanguage.json', import.meta.url));
if (process.argv.includes('--check')) {
  if (readFileSync(out, 'utf8') !== text) {
    console.error(`${out} is stale: run node grammars/generate-rules.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
