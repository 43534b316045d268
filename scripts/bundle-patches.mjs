// Source patches the bundler applies to third-party code on the start-up path (scripts/bundle.mjs). Each one
// names the exact text it replaces and fails the build when that text is gone (a new version of the library
// then needs the patch looked at again), and a test checks what the replacement computes
// (packages/cli/test/startup.test.ts).

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
const patches = [{ file: CHEVROTAIN_LEXER, from: CHAR_CODE_TABLE_ORIGINAL, to: CHAR_CODE_TABLE_FILL }];

/** `source` of `file` with its patches applied; throws when a patch's text is not found exactly once. */
export function applyPatches(file, source) {
  let out = source;
  for (const p of patches) {
    if (!p.file.test(file)) continue;
    const at = out.indexOf(p.from);
    if (at < 0 || out.indexOf(p.from, at + 1) >= 0) throw new Error(`scripts/bundle-patches.mjs: the text to patch is not found once in ${file}; review the patch for this version`);
    out = out.slice(0, at) + p.to + out.slice(at + p.from.length);
  }
  return out;
}

/** The esbuild plugin applying them. */
export const startUpPatches = {
  name: 'start-up-patches',
  setup(b) {
    b.onLoad({ filter: CHEVROTAIN_LEXER }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      return { contents: applyPatches(args.path, await readFile(args.path, 'utf8')), loader: 'js' };
    });
  },
};
