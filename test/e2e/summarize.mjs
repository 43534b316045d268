// Prints every e2e case and the closing `N passed, N failed` line; exit 1 on any failure or missing result.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  const suite = path.basename(file, '.json');
  if (!existsSync(file)) {
    console.log(`✗ ${suite}: no result file (the suite crashed before reporting; see the log above)`);
    failed++;
    continue;
  }
  const { cases, info, skipped } = JSON.parse(readFileSync(file, 'utf8'));
  for (const c of cases) {
    if (c.ok) passed++;
    else failed++;
    console.log(`${c.ok ? '✓' : '✗'} ${suite}: ${c.name}${c.ok ? '' : `\n    ${c.error}`}`);
  }
  // E2E_STEPS ran a subset
  if (skipped?.length) console.log(`- ${suite}: ${skipped.length} step(s) skipped (E2E_STEPS=${process.env.E2E_STEPS ?? ''})`);
  // figures a suite measured on the way (e.g. activation and first-diagnostics times), for the record
  if (info && Object.keys(info).length) {
    console.log(`  ${suite} measured:`);
    for (const [k, v] of Object.entries(info)) console.log(`    ${k} ${v}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
