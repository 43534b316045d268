// Bundles each bin into one CommonJS file with esbuild: one file to read at start-up is what keeps
// `compile-filter` close to the cold start of `node -e 0` (see bench/startup.bench.mjs).
import { build } from 'esbuild';
import { writeThirdPartyLicenses } from './third-party-licenses.mjs';
import { startUpPatches } from './bundle-patches.mjs';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const p = (...s) => path.join(root, ...s);

const entries = [
  { in: 'packages/cli/src/bin/logfilter.ts', out: 'packages/cli/dist/logfilter.cjs' },
  { in: 'packages/cli/src/bin/compile-filter.ts', out: 'packages/cli/dist/compile-filter.cjs', parserApart: true, startUp: true },
  // `logfilter eval` alone, loaded by bin/logfilter.cjs for that command (start-up is part of every evaluation)
  { in: 'packages/cli/src/bin/logfilter-eval.ts', out: 'packages/cli/dist/logfilter-eval.cjs', parserApart: true, startUp: true },
  // the filter language's reference parser (Chevrotain's), which those two load only for a filter with syntax
  // problems (referenceParserApart below)
  { in: 'packages/core/src/filter/syntax/parse.ts', out: 'packages/cli/dist/filter-parser.cjs' },
  { in: 'packages/cli/src/eval/worker.ts', out: 'packages/cli/dist/eval-worker.cjs' },
  { in: 'packages/language-server/src/main.ts', out: 'packages/language-server/dist/logfilter-language-server.cjs' },
  { in: 'packages/emulator/src/main.ts', out: 'packages/emulator/dist/logfilter-emulator.cjs' },
];

/**
 * commander requires child_process when it loads, for subcommands that are executables of their own, which
 * these programs never declare; child_process brings net, streams and more with it (~5 ms of every start-up,
 * measured on `logfilter eval` with a one-line input). It gets a stand-in that loads the real module on first
 * use.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "let real; const load = () => (real ??= require('node:child_process')); module.exports = new Proxy({}, { get: (_, k) => load()[k], has: (_, k) => k in load() });",
      loader: 'js',
    }));
  },
};

/**
 * The reference parser (filter/syntax/parse.ts, with Chevrotain and lodash-es: 150 of compile-filter's 353 KB)
 * in a file of its own beside the start-up bundles, which require it on its first use (the bundle patch of
 * parse-with-fast-path.ts makes that import a require on first call). A valid filter never needs it, and a
 * bundle's size is paid at every start even when its code does not run: the code cache holds an entry for every
 * function, and the whole text is read (compile-filter's cache 369 -> 275 KB; callgrind, instructions of a whole
 * run: -4.4 M, a tenth of its cost past Node's own start). The parser's results are plain data (the AST and
 * diagnostics), so the copies of the small modules both files hold do not meet.
 */
const referenceParserApart = {
  name: 'reference-parser-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/parse\.js$/ }, (args) =>
      /[\\/]filter[\\/]syntax[\\/]parse-with-fast-path\.ts$/.test(args.importer) ? { path: './filter-parser.cjs', external: true } : undefined,
    );
  },
};

/**
 * The core's package entry: one ESM file holding its modules and those of its dependencies. Imported file by
 * file, `@logfilter/core` took ~0.3 s to load, most of it Chevrotain's and lodash-es's hundreds of small
 * modules going through Node's ESM loader one at a time (measured: `await import('chevrotain')` alone, 0.25 s
 * on a quiet machine). Not minified: a library's stack traces should read as its sources.
 */
const library = build({
  entryPoints: [p('packages/core/src/index.ts')],
  outfile: p('packages/core/dist/logfilter-core.js'),
  bundle: true,
  platform: 'neutral',
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [startUpPatches({ commonjs: false })],
  metafile: true,
});

const built = [{ out: 'packages/core/dist/logfilter-core.js', result: await library }];
await Promise.all(
  entries
    .filter((e) => existsSync(p(e.in)))
    .map(async (e) => {
      const result = await build({
        entryPoints: [p(e.in)],
        outfile: p(e.out),
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        // the map is kept beside the bundle for debugging but not linked from it: packages ship without it
        sourcemap: 'external',
        minify: true,
        // Function and class names kept through minifying (a defineProperty per function at load), except in the
        // two start-up bundles: there they were ~2.5 M of compile-filter's ~45 M instructions (callgrind), and
        // nothing in them reads a function's name (commander names its errors by their class, which only shows
        // in `.name`; the CLI tells them apart by instanceof and code). Chevrotain, which does, is in
        // filter-parser.cjs.
        keepNames: !e.startUp,
        legalComments: 'none',
        logLevel: 'warning',
        // the workspace packages are bundled from their sources
        alias: {
          '@logfilter/core': p('packages/core/src/index.ts'),
          '@logfilter/api': p('packages/api/src/index.ts'),
          '@logfilter/emulator': p('packages/emulator/src/index.ts'),
        },
        // optional native parts stay outside the bundle: loaded from node_modules only when asked for
        external: ['@duckdb/node-api', '@logfilter/native-inflate'],
        // import.meta.url in the ESM sources → the bundle's own file URL, made on first use: compile-filter never
        // asks for it, and pathToFileURL at load was ~1.5 M instructions of its start (callgrind)
        define: { 'import.meta.url': '__importMeta.url' },
        banner: { js: "let __importMetaUrl; const __importMeta = { get url() { return (__importMetaUrl ??= require('url').pathToFileURL(__filename).href); } };" },
        plugins: [...(e.parserApart ? [referenceParserApart] : []), lazyChildProcess, startUpPatches({ commonjs: true })],
        metafile: true,
      });
      built.push({ out: e.out, result });
    }),
);

// Each package's bundles hold third-party code: its licences go beside them (scripts/third-party-licenses.mjs).
const byPackage = new Map();
for (const { out, result } of built) {
  const dist = path.dirname(p(out));
  byPackage.set(dist, [...(byPackage.get(dist) ?? []), result.metafile]);
}
for (const [dist, metafiles] of byPackage) writeThirdPartyLicenses(process.cwd(), path.join(dist, 'THIRD_PARTY_LICENSES.txt'), metafiles);
