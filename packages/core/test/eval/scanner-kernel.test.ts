/**
 * The block scanner with the WebAssembly kernel: exact verdicts on every line it reads (so the malformed count
 * is exact on candidates), matches without JSON.parse but with their text, escaped keys resolved by the JS
 * extractor, blocks of many lines and large ones, and the same counts under `node --jitless` (no
 * WebAssembly), where the JS path runs.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createBlockScanner } from '../../src/eval/index.js';
import type { FilterDocument } from '../../src/filter/filter.js';
import { REPO } from '../../../../test/support/paths.js';
import { createLineKernel } from '../../src/eval/line-kernel.js';
import { refCounts } from './reference.js';
import { nodeHooks } from './harness.js';

const enc = new TextEncoder();
/** A negative condition: the prefilter cannot narrow it, so every line is read by the kernel. */
const NOT_A: FilterDocument = { where: { key: 'host', operator: '!eq', value: 'a' } } as FilterDocument;

function scanAll(filter: FilterDocument, text: string, kernel: boolean, blockLines = 1_000_000) {
  const scanner = createBlockScanner(filter, { ...nodeHooks, kernel });
  const lines = text.split('\n');
  const out = { total: 0, matched: 0, malformed: 0, parsed: 0, texts: [] as string[] };
  for (let i = 0; i < lines.length; i += blockLines) {
    const bytes = enc.encode(lines.slice(i, i + blockLines).join('\n'));
    const c = scanner.scan(bytes, 0, bytes.length, { onMatch: (t) => out.texts.push(t) });
    out.total += c.total;
    out.matched += c.matched;
    out.malformed += c.malformed;
    out.parsed += c.parsed;
  }
  return { ...out, seen: scanner.seenFields() };
}

const LINES = [
  '{"host":"b","n":1}',
  '{"host":"a","n":2}',
  '{"host":"b","n":01}',
  '{"host":"a","n":01}',
  '{"host":"b",}',
  '{"host":"b"} x',
  '{"\\u0068ost":"a"}',
  '{"\\u0068ost":"c","z":1}',
  '{"host":"\\u0061"}',
  '{"host":"c"}\r',
  '{"host":"c","host":"a"}',
  '{"host":"a","host":"c"}',
  '{"o":{"host":"c"},"host":"a"}',
  '[{"host":"c"}]',
  '{"n":[1,2,{"host":"a"}]}',
  '  ',
  '{"host":"\u0001"}',
  '{"host":"' + 'y'.repeat(200_000) + '"}',
];

describe('block scanner with the line kernel', () => {
  it('counts exactly what the reference counts, malformed lines included, without validate', () => {
    const text = LINES.join('\n');
    const ref = refCounts(NOT_A, text);
    for (const blockLines of [1, 3, 100]) {
      const got = scanAll(NOT_A, text, true, blockLines);
      expect({ total: got.total, matched: got.matched, malformed: got.malformed }).toEqual({ total: ref.total, matched: ref.matched, malformed: ref.malformed });
      // the text of each match, without its \r
      expect(got.texts).toEqual(ref.matches.map((i) => LINES[i]!.replace(/\r$/, '')));
    }
    // Without the kernel only candidates that pass the extractor are parsed: the malformed count is a lower bound.
    const js = scanAll(NOT_A, text, false);
    expect(js.matched).toBe(ref.matched);
    expect(js.malformed).toBeLessThan(ref.malformed);
    // The kernel parses nothing with JSON.parse; the JS path parses the lines it keeps.
    expect(scanAll(NOT_A, text, true).parsed).toBe(0);
    expect(js.parsed).toBeGreaterThanOrEqual(ref.matched);
  });

  it('counts every line of a block of many thousand lines', () => {
    // 12,000 lines in one block, blank and CR-ended ones among them, and no newline after the last.
    const many = Array.from({ length: 12_000 }, (_, i) => (i % 7 === 3 ? '' : LINES[i % (LINES.length - 1)]!));
    const text = many.join('\n');
    const ref = refCounts(NOT_A, text);
    const got = scanAll(NOT_A, text, true, 1_000_000);
    expect({ total: got.total, matched: got.matched, malformed: got.malformed }).toEqual({ total: ref.total, matched: ref.matched, malformed: ref.malformed });
    expect(ref.total).toBeGreaterThan(9_000);
    // and with a needle that leaves few lines to read: every line is still counted
    const needle: FilterDocument = { where: { key: 'host', operator: 'eq', value: 'a' } } as FilterDocument;
    const refNeedle = refCounts(needle, text);
    const gotNeedle = scanAll(needle, text, true, 1_000_000);
    expect({ total: gotNeedle.total, matched: gotNeedle.matched }).toEqual({ total: refNeedle.total, matched: refNeedle.matched });
  });

  it('a line of bytes that are not UTF-8 is malformed even when the block decoder does not check', () => {
    const bytes = Uint8Array.from([...enc.encode('{"host":"b"}\n{"host":"'), 0xff, ...enc.encode('"}\n{"host":"c"}')]);
    const lenient = new TextDecoder();
    const scanner = createBlockScanner(NOT_A, nodeHooks);
    const c = scanner.scan(bytes, 0, bytes.length, { decode: (h, s, e) => lenient.decode(h.subarray(s, e)) });
    expect({ total: c.total, matched: c.matched, malformed: c.malformed }).toEqual({ total: 3, matched: 2, malformed: 1 });
  });

  it('finds strings seen before by hash, and never takes one string for another of the same hash', () => {
    // Two strings whose kernel hashes collide (a birthday search over the kernel's own hash).
    const kernel = createLineKernel(['a'])!;
    const byHash = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; !pair && i < 400_000; i++) {
      const s = 'v' + i.toString(36);
      const bytes = enc.encode(`{"a":"${s}"}`);
      kernel.load(bytes, 0, bytes.length);
      kernel.scan(0, bytes.length);
      const h = kernel.hashes[0]!;
      const other = byHash.get(h);
      if (other !== undefined) pair = [other, s];
      else byHash.set(h, s);
    }
    expect(pair).toBeDefined();
    const [x, y] = pair!;
    // A negation: no prefilter, every line is read by the kernel.
    const filter = { where: { key: 'a', operator: '!eq', value: x } } as FilterDocument;
    const lines = [y, x, y, x, 'é', y, '\\u0076', x].map((v) => `{"a":"${v}","n":1}`);
    const text = lines.join('\n');
    expect(scanAll(filter, text, true, 2).matched).toBe(refCounts(filter, text).matched);
    expect(refCounts(filter, text).matched).toBe(5);
  });

  it('reports the fields it saw, from the kernel and from escaped keys', () => {
    const filter = { where: { or: [{ key: 'host', operator: '!eq', value: 'a' }, { key: 'n', operator: 'gt', value: 1 }, { key: 'zz', operator: 'eq', value: 1 }] } } as FilterDocument;
    expect(scanAll(filter, '{"\\u006e":2}\n{"host":"q"}', true).seen.sort()).toEqual(['host', 'n']);
  });

  it('gives the same counts under node --jitless, where WebAssembly is missing and the JS path runs', () => {
    // The built core (`npm test` builds first): a child process cannot load the TypeScript sources.
    const dist = pathToFileURL(path.join(REPO, 'packages/core/dist/')).href;
    const script = `
      const { createBlockScanner } = await import(${JSON.stringify(dist + 'index.js')});
      const { createLineKernel } = await import(${JSON.stringify(dist + 'eval/line-kernel.js')});
      const lines = ${JSON.stringify(LINES.filter((l) => l.length < 1000))};
      lines.push('{"host":"' + 'y'.repeat(200000) + '"}');
      for (let i = 0; i < 300; i++) lines.push(JSON.stringify({ host: i % 7 === 0 ? 'a' : 'h' + i, n: i, tags: ['x', i] }));
      const bytes = new TextEncoder().encode(lines.join('\\n'));
      const filters = [${JSON.stringify(NOT_A)}, { where: { key: 'host', operator: 'eq', value: 'a' } }, { where: { key: 'n', operator: 'geq', value: 100 } }];
      const counts = filters.map((f) => {
        const c = createBlockScanner(f).scan(bytes, 0, bytes.length);
        return [c.total, c.matched];
      });
      console.log(JSON.stringify({ kernel: createLineKernel(['host']) !== undefined, counts }));
    `;
    const run = (flags: string[]) => JSON.parse(execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' }));
    const normal = run([]);
    const jitless = run(['--jitless']);
    expect(normal.kernel).toBe(true);
    expect(jitless.kernel).toBe(false);
    expect(jitless.counts).toEqual(normal.counts);
    expect(normal.counts[1][1]).toBeGreaterThan(0);
  });
});
