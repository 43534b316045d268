// Source patches the bundler applies on the start-up path (scripts/bundle.mjs): to third-party code, and to the
// CLI's CommonJS bundles where the ESM sources cannot say what they mean. Each one names the exact text it
// replaces and fails the build when that text is gone (a new version of the library then needs the patch looked
// at again), and a test checks what the replacement computes (packages/cli/test/startup.test.ts).

/**
 * Chevrotain's lexer fills a 65536-entry char-code → optimisation-index table when the first lexer is built,
 * one element at a time in a plain array (~7.5 ms of CPU on every start of `compile-filter`, most of a lexer's
 * construction: the interpreter allocates a number per `i / 255`). The same values in a Uint16Array, filled a
 * run at a time: ~0.3 ms. The table is only indexed by char codes (< 65536) and tested with lodash's isEmpty,
 * which treats a typed array like an array.
 */
export const CHAR_CODE_TABLE_ORIGINAL = `        charCodeToOptimizedIdxMap = new Array(65536);
        for (let i = 0; i < 65536; i++) {
            charCodeToOptimizedIdxMap[i] = i > 255 ? 255 + ~~(i / 255) : i;
        }`;
export const CHAR_CODE_TABLE_FILL = `        charCodeToOptimizedIdxMap = new Uint16Array(65536);
        for (let i = 0; i < 256; i++) charCodeToOptimizedIdxMap[i] = i;
        for (let q = 1; q * 255 < 65536; q++) charCodeToOptimizedIdxMap.fill(255 + q, Math.max(256, q * 255), Math.min(65536, (q + 1) * 255));`;

const CHEVROTAIN_LEXER = /[\\/]chevrotain[\\/]lib[\\/]src[\\/]scan[\\/]lexer\.js$/;

/**
 * parse() reads a filter without syntax problems with its fast path and runs the reference parser (Chevrotain's)
 * only for the others (packages/core/src/filter/syntax/parse-with-fast-path.ts). In the CLI's CommonJS bundles
 * the reference parser's module — Chevrotain, lodash-es, the tokens and the grammar — is then initialised on its
 * first use instead of at every start (esbuild wraps a module that is require()d in an initialiser run on the first
 * require). The ESM sources cannot load a module synchronously on demand, hence a patch of the bundle.
 */
export const REFERENCE_IMPORT = "import * as reference from './parse.js';";
export const REFERENCE_IMPORT_TYPE = "import type * as reference from './parse.js';";
export const REFERENCE_LOAD = 'const loadReference = (): typeof reference => reference;';
export const REFERENCE_LOAD_LAZY = "let loaded: typeof reference | undefined;\nconst loadReference = (): typeof reference => (loaded ??= require('./parse.js'));";
const FILTER_PARSE = /[\\/]packages[\\/]core[\\/]src[\\/]filter[\\/]syntax[\\/]parse-with-fast-path\.ts$/;

/**
 * picocolors decides its default colours when it loads, reading `process.stdout.isTTY`: that creates
 * process.stdout, which the bins no longer create to write their output (packages/cli/src/fd-output.ts: the
 * stream stack, ~3.5 ms of every start). The CLI never uses those defaults: every colour goes through
 * `createColors(useColor(ctx))` (a test checks), so the probe is dropped from the bundles.
 */
export const PICOCOLORS_PROBE_ORIGINAL = '((p.stdout || {}).isTTY && env.TERM !== "dumb")';
export const PICOCOLORS_PROBE_DROPPED = '(false /* bundle patch: the CLI passes its own choice to createColors */)';
const PICOCOLORS = /[\\/]picocolors[\\/]picocolors\.js$/;

const patches = [
  { file: PICOCOLORS, from: PICOCOLORS_PROBE_ORIGINAL, to: PICOCOLORS_PROBE_DROPPED, commonjs: true },
  { file: CHEVROTAIN_LEXER, from: CHAR_CODE_TABLE_ORIGINAL, to: CHAR_CODE_TABLE_FILL },
  { file: FILTER_PARSE, from: REFERENCE_IMPORT, to: REFERENCE_IMPORT_TYPE, commonjs: true },
  { file: FILTER_PARSE, from: REFERENCE_LOAD, to: REFERENCE_LOAD_LAZY, commonjs: true },
];

/**
 * `source` of `file` with its patches applied (those for CommonJS bundles only when `commonjs`); throws when a
 * patch's text is not found exactly once.
 */
export function applyPatches(file, source, commonjs = false) {
  let out = source;
  for (const p of patches) {
    if (p.commonjs && !commonjs) continue;
    if (!p.file.test(file)) continue;
    const at = out.indexOf(p.from);
    if (at < 0 || out.indexOf(p.from, at + 1) >= 0) throw new Error(`scripts/bundle-patches.mjs: the text to patch is not found once in ${file}; review the patch for this version`);
    out = out.slice(0, at) + p.to + out.slice(at + p.from.length);
  }
  return out;
}

/** The esbuild plugin applying them; `commonjs` for the CLI's CommonJS bundles. */
export function startUpPatches({ commonjs }) {
  return {
    name: 'start-up-patches',
    setup(b) {
      const apply = (loader) => async (args) => {
        const { readFile } = await import('node:fs/promises');
        return { contents: applyPatches(args.path, await readFile(args.path, 'utf8'), commonjs), loader };
      };
      b.onLoad({ filter: CHEVROTAIN_LEXER }, apply('js'));
      if (commonjs) b.onLoad({ filter: FILTER_PARSE }, apply('ts'));
      if (commonjs) b.onLoad({ filter: PICOCOLORS }, apply('js'));
    },
  };
}
