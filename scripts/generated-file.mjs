// What the scripts that generate committed files share: run directly, they write the file; with `--check` they
// compare it with what they would write and exit 1 when it is stale (a test runs the same comparison).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** When `scriptUrl` is the script run, writes `text` to `out` (or checks it with --check). */
export async function writeOrCheck(scriptUrl, out, text) {
  if (process.argv[1] !== fileURLToPath(scriptUrl)) return;
  const script = `scripts/${fileURLToPath(scriptUrl).split(/[\\/]/).pop()}`;
  const body = await text();
  if (process.argv.includes('--check')) {
    if (readFileSync(out, 'utf8') !== body) {
      console.error(`${out} is stale: run node ${script}`);
      process.exit(1);
    }
  } else writeFileSync(out, body);
}
