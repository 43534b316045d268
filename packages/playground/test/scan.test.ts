import { describe, expect, it } from 'vitest';
import { compile, createLineMatcher, type FilterDocument } from '@logfilter/core';
import { isGzip, scanStream, sliceStream } from '../src/scan.js';
import { explainLine } from '../src/explain-line.js';

const filter = (src: string) => compile(src).filter as FilterDocument;

/** A stream of the bytes in chunks of `size`, to cross block and chunk boundaries mid-line. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

function logs(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 97 === 5) lines.push('not json');
    else if (i % 89 === 3) lines.push('');
    else lines.push(JSON.stringify({ BotScore: i % 100, ClientCountry: ['fr', 'de', 'us'][i % 3], ClientRequestPath: `/p/${i}` }));
  }
  return lines.join('\n');
}

describe('scanStream', () => {
  it('counts what the line matcher decides, line by line, across chunks and 1 MiB blocks', async () => {
    const f = filter('BotScore < 30 and ClientCountry != "us"');
    const text = logs(40_000);
    const m = createLineMatcher(f);
    const expected = text.split('\n').filter((l) => m.test(l)).length;
    const total = text.split('\n').filter((l) => l !== '').length;
    for (const size of [7919, 1 << 20]) {
      const r = await scanStream(f, chunked(new TextEncoder().encode(text), size), { keep: 5 });
      expect(r.matched).toBe(expected);
      expect(r.total).toBe(total);
      expect(r.read).toBe(new TextEncoder().encode(text).length);
      expect(r.matches).toHaveLength(5);
      // the kept lines carry their own line numbers
      for (const { line, text: t } of r.matches) expect(text.split('\n')[line - 1]).toBe(t);
    }
  });

  it('reports progress as blocks are scanned', async () => {
    const seen: number[] = [];
    const text = logs(30_000);
    await scanStream(filter('BotScore < 30'), chunked(new TextEncoder().encode(text), 65536), { onProgress: (p) => seen.push(p.read) });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('reads a blob in slices, every byte once', async () => {
    const text = logs(5000);
    const blob = new Blob([text]);
    const f = filter('BotScore < 30');
    const whole = await scanStream(f, blob.stream());
    const sliced = await scanStream(f, sliceStream(blob, 10_007));
    // the same answer; only where the time went differs
    expect({ ...sliced, profile: undefined }).toEqual({ ...whole, profile: undefined });
    expect(Object.keys(sliced.profile).sort()).toEqual(['first', 'join', 'scan', 'wait']);
    expect(sliced.read).toBe(blob.size);
  });

  it('keeps several slices of a blob being read at once, and hands them out in order', async () => {
    const bytes = new TextEncoder().encode(logs(1000));
    let inFlight = 0;
    let most = 0;
    const reads: (() => void)[] = [];
    // a blob whose reads finish only when the test says, last started first
    const slow = (from: number, to: number): Blob =>
      ({
        size: to - from,
        slice: (a: number, b: number) => slow(from + a, from + Math.min(b, to - from)),
        arrayBuffer: () =>
          new Promise<ArrayBuffer>((resolve) => {
            inFlight++;
            most = Math.max(most, inFlight);
            reads.push(() => {
              inFlight--;
              resolve(bytes.slice(from, to).buffer);
            });
          }),
      }) as unknown as Blob;
    const stream = sliceStream(slow(0, bytes.length), 4096, 3);
    const reader = stream.getReader();
    const got: Uint8Array[] = [];
    for (;;) {
      const next = reader.read();
      // let the stream start its reads, then finish them in reverse order
      await new Promise((r) => setTimeout(r, 0));
      while (reads.length) reads.pop()!();
      const { done, value } = await next;
      if (done) break;
      got.push(value);
    }
    expect(most).toBe(3);
    const joined = new Uint8Array(got.reduce((n, c) => n + c.length, 0));
    got.reduce((at, c) => (joined.set(c, at), at + c.length), 0);
    expect(joined).toEqual(bytes);
  });

  it('scans a line longer than a block, whole, between others', async () => {
    const f = filter('ClientRequestPath contains "/long"');
    const long = JSON.stringify({ ClientRequestPath: `/long/${'x'.repeat(3 << 20)}`, BotScore: 1 });
    const text = `${logs(2000)}\n${long}\n${logs(2000)}\n${long}`;
    const bytes = new TextEncoder().encode(text);
    const m = createLineMatcher(f);
    const expected = text.split('\n').filter((l) => m.test(l)).length;
    expect(expected).toBe(2);
    for (const size of [65536, 5 << 20]) {
      const r = await scanStream(f, chunked(bytes, size), { keep: 5 });
      expect([r.matched, r.total, r.read]).toEqual([expected, text.split('\n').filter((l) => l !== '').length, bytes.length]);
      expect(r.matches.map((m) => [m.line, m.text.length])).toEqual([
        [2001, long.length],
        [4002, long.length],
      ]);
    }
  });

  it('knows gzip by its magic bytes', () => {
    expect(isGzip(new Uint8Array([0x1f, 0x8b, 8]))).toBe(true);
    expect(isGzip(new TextEncoder().encode('{"a":1}'))).toBe(false);
  });
});

describe('explainLine', () => {
  it('says which conditions held on one line', () => {
    const e = explainLine(filter('BotScore < 30 and ClientCountry != "us"'), '{"BotScore":10,"ClientCountry":"us"}');
    expect(e).toMatchObject({ ok: true, matched: false });
    if (!e.ok) return;
    expect(e.rows.map((r) => [r.id, r.depth, r.held])).toEqual([
      ['/where', 0, false],
      ['/where/and/0', 1, true],
      ['/where/and/1', 1, false],
    ]);
  });

  it('writes each condition as the language writes it (what the editor beside it shows)', () => {
    const e = explainLine(filter('dataset any\n`in` == 1 and ClientRequestPath not startsWith "/a" and BotScore < 30 and x in ["a", "b"]'), '{"in":1}');
    if (!e.ok) throw new Error(e.error);
    expect(e.rows.map((r) => r.label)).toEqual(['and', '`in` == 1', 'ClientRequestPath not startsWith "/a"', 'BotScore < 30', 'x in ["a", "b"]']);
  });

  it('answers a line that is not a JSON object with an error', () => {
    expect(explainLine(filter('BotScore < 30'), 'nope').ok).toBe(false);
    expect(explainLine(filter('BotScore < 30'), '[1]').ok).toBe(false);
  });
});
