// `npm run bench`: runs every bench/*.bench.mjs in turn (each prints its own figures and ratios to a
// baseline measured in the same run). Pass names to run some: `npm run bench -- compile lsp`.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => !only.length || only.some((o) => f.startsWith(o)))
  .sort();
let failed = 0;
for (const b of benches) {
  console.log(`\n=== ${b}`);
  const r = spawnSync(process.execPath, ['--expose-gc', path.join(dir, b)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`${b} exited with ${r.status}`);
  }
}
process.exit(failed ? 1 : 0);
