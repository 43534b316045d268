/**
 * The server the end-to-end tests spawn: the built bin when its bundle is newer than the sources (after
 * `npm run build`), else a bundle made from the sources with esbuild into a temporary directory, so the
 * tests also run on a checkout that has not been built.
 */
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = path.join(REPO, 'packages/language-server/bin/logfilter-language-server.cjs');
const BUNDLE = path.join(REPO, 'packages/language-server/dist/logfilter-language-server.cjs');

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

let cached: Promise<string> | undefined;

/** Path of a script that starts the server when run with `node <script> --stdio`. */
export function serverScript(): Promise<string> {
  cached ??= (async () => {
    const sources = Math.max(newestSource(path.join(REPO, 'packages/language-server/src')), newestSource(path.join(REPO, 'packages/core/src')));
    if (existsSync(BUNDLE) && statSync(BUNDLE).mtimeMs >= sources) return BIN;
    const { build } = await import('esbuild');
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'logfilter-lsp-')), 'logfilter-language-server.cjs');
    await build({
      entryPoints: [path.join(REPO, 'packages/language-server/src/main.ts')],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
      alias: { '@logfilter/core': path.join(REPO, 'packages/core/src/index.ts') },
      define: { 'import.meta.url': 'importMetaUrl' },
      banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
    });
    return out;
  })();
  return cached;
}
