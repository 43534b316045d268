// Loading a CommonJS bundle through V8's code cache (src/code-cache.ts), as the extension's entry loads its
// main bundle: the module sees what require() would give it, the cache is written once and used after, and a
// cache that V8 rejects or cannot be written changes nothing but speed.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadWithCodeCache } from '../src/code-cache.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lf-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Bundle = { sum(n: number): number; file: string; dir: string; sep: string; self: boolean };
/** A bundle as esbuild writes one: CommonJS, requiring a node module, using its own path. */
function bundle(name: string): string {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    `"use strict";
const path = require("node:path");
exports.sum = (n) => { let s = 0; for (let i = 1; i <= n; i++) s += i; return s; };
exports.file = __filename;
exports.dir = __dirname;
exports.sep = path.sep;
exports.self = module.exports === exports && this === exports;
`,
  );
  return file;
}

describe('loadWithCodeCache', () => {
  it('evaluates the bundle as a CommonJS module, then writes a cache that the next load uses', () => {
    const file = bundle('a.js');
    const first = loadWithCodeCache<Bundle>(file);
    expect(first.fromCache).toBe(false);
    expect(first.exports.sum(10)).toBe(55);
    expect([first.exports.file, first.exports.dir, first.exports.sep, first.exports.self]).toEqual([file, dir, path.sep, true]);
    expect(existsSync(`${file}.cache`)).toBe(false);
    first.saveCache();
    expect(readFileSync(`${file}.cache`).length).toBeGreaterThan(0);

    const second = loadWithCodeCache<Bundle>(file);
    expect(second.fromCache).toBe(true);
    expect(second.exports.sum(100)).toBe(5050);
    // nothing to write: the cache was used
    rmSync(`${file}.cache`);
    second.saveCache();
    expect(existsSync(`${file}.cache`)).toBe(false);
  });

  it('compiles as usual when V8 rejects the cache (another source, another V8), and replaces it', () => {
    const file = bundle('b.js');
    writeFileSync(`${file}.cache`, Buffer.from('not a code cache'));
    const loaded = loadWithCodeCache<Bundle>(file);
    expect(loaded.fromCache).toBe(false);
    expect(loaded.exports.sum(3)).toBe(6);
    loaded.saveCache();
    expect(loadWithCodeCache<Bundle>(file).fromCache).toBe(true);
  });

  it('goes on without a cache where it cannot be written', () => {
    const file = bundle('c.js');
    const cacheFile = path.join(dir, 'no-such-dir', 'c.js.cache');
    const loaded = loadWithCodeCache<Bundle>(file, cacheFile);
    expect(() => loaded.saveCache()).not.toThrow();
    expect(existsSync(cacheFile)).toBe(false);
    expect(loaded.exports.sum(4)).toBe(10);
  });
});
