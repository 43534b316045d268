// Builds the static site into dist/ (index.html, style.css, app.js), minified by esbuild, the core bundled from
// its sources. app.js is a classic script, not a module, and carries the scan worker's code inside it (started
// from a blob: URL): Chromium loads neither module scripts nor workers from file:// URLs, and the site must
// work opened from disk. The site needs no server of its own, so dist/ is also copied
// beside the CLI's bundles (packages/cli/dist/playground-site), where `logfilter playground` serves it from.
import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { writeThirdPartyLicenses } from '../../scripts/third-party-licenses.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const p = (...s) => path.join(here, ...s);
const dist = p('dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const common = {
  bundle: true,
  platform: 'browser',
  // the browsers that have DecompressionStream('gzip') and CompressionStream('deflate-raw')
  target: ['chrome105', 'firefox113', 'safari16.4'],
  minify: true,
  legalComments: 'none',
  alias: { '@logfilter/core': p('../core/src/index.ts') },
  metafile: true,
  logLevel: 'warning',
};
const worker = await build({ ...common, entryPoints: [p('src/scan-worker.ts')], format: 'iife', write: false, sourcemap: false });
const workerCode = worker.outputFiles[0].text;
const result = await build({
  ...common,
  entryPoints: { app: p('src/main.ts') },
  outdir: dist,
  format: 'iife',
  // kept beside the bundle for debugging, not linked: the CLI's copy goes without it
  sourcemap: 'external',
  plugins: [
    {
      name: 'scan-worker-source',
      setup(b) {
        b.onResolve({ filter: /^virtual:scan-worker$/ }, () => ({ path: 'scan-worker', namespace: 'scan-worker-source' }));
        b.onLoad({ filter: /.*/, namespace: 'scan-worker-source' }, () => ({ contents: `export default ${JSON.stringify(workerCode)};`, loader: 'js' }));
      },
    },
  ],
});
for (const f of ['index.html', 'style.css']) cpSync(p('src', f), p('dist', f));
writeThirdPartyLicenses(process.cwd(), p('dist', 'THIRD_PARTY_LICENSES.txt'), [result.metafile, worker.metafile]);

const cliCopy = p('../cli/dist/playground-site');
rmSync(cliCopy, { recursive: true, force: true });
cpSync(dist, cliCopy, { recursive: true, filter: (src) => !src.endsWith('.map') });
