// rules eval: the slowest regular expressions and wildcards we know of, against a 1 KB input (goal: every call
// under 100 ms).
// `matches` runs on re2js (RE2: linear time, no backtracking), with programs over MAX_REGEX_INSTRUCTIONS refused;
// this measures the worst that remains: classic catastrophic-backtracking patterns, and programs at the size limit.
// Run after `npm run build`: `node bench/rules-eval.bench.mjs` (prints the slowest call of each pattern, best of 5).
import { evaluateRule, readSampleRequest, MAX_REGEX_INSTRUCTIONS } from '../packages/core/dist/index.js';

const input = 'a'.repeat(1023) + '!';
const fields = readSampleRequest({ 'http.request.uri.path': input }).fields;
const n = Math.floor(MAX_REGEX_INSTRUCTIONS / 3.2);
const patterns = [
  '(a+)+$',
  '(a|aa)+$',
  '(a|a?)+b',
  '(.*a){20}',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  `[a-z]{${n}}[0-9]{${n}}[a-z]{${n}}`,
  '(?i)(a|b|c|d|e|f|g|h)*z',
  '\\w*\\d\\w*\\d\\w*\\d\\w*!',
];
const wildcards = ['*a*a*a*a*a*a*a*a*b', `*${'a*'.repeat(30)}b`, '*a*b*a*b*a*b*a*b*!x'];
let worst = 0;
evaluateRule('ssl', fields); // the parser's first build is not the regex's cost
for (const expr of [...patterns.map((p) => `http.request.uri.path matches ${JSON.stringify(p)}`), ...wildcards.map((p) => `http.request.uri.path wildcard ${JSON.stringify(p)}`)]) {
  const p = expr.replace('http.request.uri.path ', '');
  let best = Infinity;
  let outcome = '';
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = evaluateRule(expr, fields);
    best = Math.min(best, performance.now() - t);
    outcome = r.ok ? String(r.matched) : (r.problem?.message ?? 'refused');
  }
  worst = Math.max(worst, best);
  console.log(`${best.toFixed(1).padStart(7)} ms  ${p.slice(0, 50).padEnd(50)} ${outcome.slice(0, 60)}`);
}
console.log(`slowest: ${worst.toFixed(1)} ms (goal < 100 ms)`);
process.exit(worst < 100 ? 0 : 1);
