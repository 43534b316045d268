#!/usr/bin/env node
// Builds what the extension runs, into dist/: the client (a small entry and its main bundle) and the language
// server as CommonJS bundles (esbuild), the TextMate grammar (copied from grammars/) and the filter document JSON Schema (from the core).
// The core is bundled from its TypeScript sources, so the bundles never depend on a stale packages/core/dist.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inlineImages } from './readme.mjs';
import { writeThirdPartyLicenses } from '../../../scripts/third-party-licenses.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const repo = path.resolve(pkg, '../..');
const dist = path.join(pkg, 'dist');
const coreSrc = path.join(repo, 'packages/core/src/index.ts');
// the custom requests' types and names, shared with the server (types and two constants: no server code)
const protocolSrc = path.join(repo, 'packages/language-server/src/protocol.ts');
// the start-up timeline's writer (LOGFILTER_STARTUP_TRACE), shared with the server
const startupTraceSrc = path.join(repo, 'packages/language-server/src/startup-trace.ts');
// LOGFILTER_SERVER_ENTRY: development only, to try the client against another server build.
const serverEntry = process.env.LOGFILTER_SERVER_ENTRY || path.join(repo, 'packages/language-server/src/main.ts');
const grammar = path.join(repo, 'grammars/logfilter.tmLanguage.json');
const rulesGrammar = path.join(repo, 'grammars/logfilter-rules.tmLanguage.json');

for (const [what, file] of [['core', coreSrc], ['language server', serverEntry], ['grammar', grammar], ['rules grammar', rulesGrammar]]) {
  if (!existsSync(file)) {
    console.error(`logfilter-vscode build: the ${what} is missing (${path.relative(repo, file)})`);
    process.exit(1);
  }
}

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // code-server 4.100 / VS Code 1.90+ run extensions on Node 20.
  target: 'node20',
  alias: { '@logfilter/core': coreSrc, '@logfilter/language-server/protocol': protocolSrc, '@logfilter/language-server/startup-trace': startupTraceSrc },
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const bundles = await Promise.all([
  // package.json `main`: a small entry that starts the server thread, then loads extension-main.js through
  // V8's code cache (src/entry.ts, src/code-cache.ts)
  build({ ...common, metafile: true, entryPoints: [path.join(pkg, 'src/entry.ts')], outfile: path.join(dist, 'extension.js'), external: ['vscode'] }),
  build({ ...common, metafile: true, entryPoints: [path.join(pkg, 'src/extension.ts')], outfile: path.join(dist, 'extension-main.js'), external: ['vscode'] }),
  build({ ...common, metafile: true, entryPoints: [serverEntry], outfile: path.join(dist, 'server.js') }),
  // the server thread's entry: loads server.js through V8's code cache (src/server-loader.ts)
  build({ ...common, metafile: true, entryPoints: [path.join(pkg, 'src/server-loader.ts')], outfile: path.join(dist, 'server-loader.js') }),
]);
// the licences of the third-party code in the two bundles, shipped in the .vsix beside them
writeThirdPartyLicenses(process.cwd(), path.join(dist, 'THIRD_PARTY_LICENSES.txt'), bundles.map((b) => b.metafile));

copyFileSync(grammar, path.join(dist, 'logfilter.tmLanguage.json'));
copyFileSync(rulesGrammar, path.join(dist, 'logfilter-rules.tmLanguage.json'));
// packaged as the .vsix README (`vsce package --readme-path dist/README.md`), images inlined (see readme.mjs)
writeFileSync(path.join(dist, 'README.md'), inlineImages(readFileSync(path.join(pkg, 'README.md'), 'utf8'), pkg));

// The schema is a value of the core: evaluate a tiny bundle that exports it, then write it as JSON.
const schemaBundle = path.join(os.tmpdir(), `logfilter-schema-${process.pid}.cjs`);
try {
  await build({
    ...common,
    minify: false,
    stdin: { contents: `export { FILTER_DOCUMENT_SCHEMA } from ${JSON.stringify(coreSrc)};`, resolveDir: pkg, loader: 'ts' },
    outfile: schemaBundle,
  });
  const { FILTER_DOCUMENT_SCHEMA } = createRequire(import.meta.url)(schemaBundle);
  writeFileSync(path.join(dist, 'filter.schema.json'), `${JSON.stringify(FILTER_DOCUMENT_SCHEMA, null, 2)}\n`);
} finally {
  rmSync(schemaBundle, { force: true });
}
console.log(`logfilter-vscode: built ${path.relative(repo, dist)}/{extension.js,extension-main.js,server.js,server-loader.js,THIRD_PARTY_LICENSES.txt,logfilter.tmLanguage.json,logfilter-rules.tmLanguage.json,filter.schema.json,README.md}`);
