/**
 * Whole gzip files inflated into a reused buffer (eval/inflate.ts): the content is exactly gunzip's, whatever
 * the size hint (too small, absent, a lie), multi-member files included; damaged or cut-short data and content
 * beyond the bound give -1 (the caller then streams the file and reports what it read). Run with each inflater
 * (ISA-L's where its addon is built, Node's zlib).
 */
import zlib from 'node:zlib';
import { Buffer } from 'node:buffer';
import { describe, expect, it, vi } from 'vitest';
import { gunzipInto } from '../../src/eval/inflate.js';
import { INFLATERS, useInflater } from './support.js';

function text(n: number, seed: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(JSON.stringify({ i, seed, s: `v${(i * 7919 + seed) % 1000}`, pad: 'x'.repeat((i * 13) % 50) }));
  return Buffer.from(lines.join('\n') + '\n');
}

/** A growable buffer as the job runner keeps one: content kept when it grows. */
function room() {
  let buf = Buffer.alloc(0);
  const grow = (n: number) => {
    if (buf.length < n) {
      const bigger = Buffer.alloc(n);
      buf.copy(bigger);
      buf = bigger;
    }
    return buf;
  };
  return { grow, get: () => buf };
}

describe.each(INFLATERS)('gunzipInto with %s', (inflater) => {
  useInflater(inflater);

  it.each([
    ['the exact size', (n: number) => n],
    ['no hint', () => 0],
    ['a hint far too small (the buffer grows)', () => 100],
    ['a hint too large', (n: number) => n * 3],
  ])('gives gunzip content with %s as hint', (_name, hint) => {
    const plain = text(3000, 1);
    const r = room();
    const n = gunzipInto(zlib.gzipSync(plain), r.grow, 64 << 20, hint(plain.length));
    expect(n).toBe(plain.length);
    expect(r.get().subarray(0, n).equals(plain)).toBe(true);
  });

  it('reads every member of a multi-member file', () => {
    const a = text(500, 2);
    const b = text(700, 3);
    const r = room();
    const n = gunzipInto(Buffer.concat([zlib.gzipSync(a), zlib.gzipSync(b)]), r.grow, 64 << 20, b.length);
    expect(n).toBe(a.length + b.length);
    expect(r.get().subarray(0, n).equals(Buffer.concat([a, b]))).toBe(true);
  });

  it('reuses the buffer from file to file (no new buffer once it is large enough)', () => {
    const r = room();
    gunzipInto(zlib.gzipSync(text(2000, 4)), r.grow, 64 << 20, 0);
    const first = r.get();
    const plain = text(1000, 5);
    const n = gunzipInto(zlib.gzipSync(plain), r.grow, 64 << 20, plain.length);
    expect(r.get()).toBe(first);
    expect(first.subarray(0, n).equals(plain)).toBe(true);
  });

  it('gives -1 for data cut short, damaged data, and content beyond the bound', () => {
    const plain = text(3000, 6);
    const gz = zlib.gzipSync(plain);
    expect(gunzipInto(gz.subarray(0, gz.length >> 1), room().grow, 64 << 20, 0)).toBe(-1);
    const damaged = Buffer.from(gz);
    damaged.fill(0x55, 20, 60);
    expect(gunzipInto(damaged, room().grow, 64 << 20, 0)).toBe(-1);
    expect(gunzipInto(Buffer.from('not gzip at all'), room().grow, 64 << 20, 0)).toBe(-1);
    expect(gunzipInto(gz, room().grow, plain.length - 1, 0)).toBe(-1);
    expect(gunzipInto(gz, room().grow, plain.length, 0)).toBe(plain.length);
  });

  it.runIf(inflater === 'zlib')('falls back to gunzipSync where the zlib internals are missing', async () => {
    const plain = text(800, 7);
    const gz = zlib.gzipSync(plain);
    const real = zlib.createGunzip;
    const spy = vi.spyOn(zlib, 'createGunzip').mockImplementation((o) => {
      const g = real(o) as zlib.Gunzip & { _handle?: unknown };
      // Close the real handle, then hide it: what a Node without these internals would look like.
      g.close();
      Object.defineProperty(g, '_handle', { value: undefined });
      return g;
    });
    try {
      const r = room();
      const n = gunzipInto(gz, r.grow, 64 << 20, 0);
      expect(spy).toHaveBeenCalled();
      expect(n).toBe(plain.length);
      expect(r.get().subarray(0, n).equals(plain)).toBe(true);
      expect(gunzipInto(gz.subarray(0, 100), room().grow, 64 << 20, 0)).toBe(-1);
    } finally {
      spy.mockRestore();
    }
  });
});
