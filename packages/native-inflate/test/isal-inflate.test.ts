/**
 * The ISA-L addon against Node's zlib, the inflater it stands in for: the same content for every member,
 * header flag and level, whatever the input pieces and output room; the same verdict (fails exactly when
 * zlib fails) on cut, damaged and padded data; zero padding left unread; bad arguments thrown as TypeError or
 * RangeError, never a crash. Skipped where the addon is not built, except where
 * LOGFILTER_REQUIRE_NATIVE_INFLATE=1 (CI), where a missing build fails.
 */
import zlib from 'node:zlib';
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binding, reason } from '@logfilter/native-inflate';

const required = process.env.LOGFILTER_REQUIRE_NATIVE_INFLATE === '1';

it.runIf(required)('is built (LOGFILTER_REQUIRE_NATIVE_INFLATE=1)', () => {
  expect(reason).toBeUndefined();
  expect(binding).toBeDefined();
});

function text(n: number, seed: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(JSON.stringify({ i, seed, host: `h${(i * 7919 + seed) % 97}.example.com`, pad: 'x'.repeat((i * 13 + seed) % 70) }));
  return Buffer.from(lines.join('\n') + '\n');
}

/** A gzip member with the optional header fields set by hand (zlib.gzipSync writes none of them). */
function member(content: Buffer, opts: { name?: string; comment?: string; extra?: Buffer; hcrc?: boolean; level?: number } = {}): Buffer {
  let flags = 0;
  const parts: Buffer[] = [];
  if (opts.extra) {
    flags |= 4;
    const len = Buffer.alloc(2);
    len.writeUInt16LE(opts.extra.length);
    parts.push(len, opts.extra);
  }
  if (opts.name !== undefined) {
    flags |= 8;
    parts.push(Buffer.from(opts.name + '\0', 'latin1'));
  }
  if (opts.comment !== undefined) {
    flags |= 16;
    parts.push(Buffer.from(opts.comment + '\0', 'latin1'));
  }
  let header = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, flags, 1, 2, 3, 4, 0, 3]), ...parts]);
  if (opts.hcrc) {
    header[3]! |= 2;
    const crc = Buffer.alloc(2);
    crc.writeUInt16LE(zlib.crc32(header) & 0xffff);
    header = Buffer.concat([header, crc]);
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(zlib.crc32(content), 0);
  trailer.writeUInt32LE(content.length >>> 0, 4);
  return Buffer.concat([header, zlib.deflateRawSync(content, { level: opts.level ?? 6 }), trailer]);
}

interface Outcome {
  ok: boolean;
  content: Buffer;
  /** input bytes left unread where the data ended before the input (zero padding after a member) */
  unread: number;
}

interface Driven {
  write(finish: boolean, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): boolean;
  availOut(): number;
  availIn(): number;
  close(): void;
}

function isalHandle(): Driven {
  const b = binding!;
  const h = b.create();
  const state = new Uint32Array(2);
  return {
    write: (finish, input, inOff, inLen, out, outOff, outLen) => b.write(h, finish, input, inOff, inLen, out, outOff, outLen, state) >= 0,
    availOut: () => state[0]!,
    availIn: () => state[1]!,
    close: () => b.close(h),
  };
}

type ZlibInternals = zlib.Gunzip & { _handle: { writeSync(...a: unknown[]): void }; _writeState: Uint32Array };

/** Node's zlib handle driven as eval drives it (the inflater ISA-L stands in for). */
function zlibHandle(): Driven {
  const gz = zlib.createGunzip() as ZlibInternals;
  gz.on('error', () => {});
  const { Z_NO_FLUSH, Z_FINISH } = zlib.constants;
  return {
    write: (finish, input, inOff, inLen, out, outOff, outLen) => {
      if (gz.destroyed) return false;
      gz._handle.writeSync(finish ? Z_FINISH : Z_NO_FLUSH, input, inOff, inLen, out, outOff, outLen);
      return !gz.destroyed;
    },
    availOut: () => gz._writeState[0]!,
    availIn: () => gz._writeState[1]!,
    close: () => {
      if (!gz.destroyed) gz.close();
    },
  };
}

/**
 * Inflates `gz` fed in pieces of the given sizes (cycled) into output room of the given sizes (cycled), as
 * eval's file reader does: `finish` once the input is all given; room left with input unread is the end.
 */
function drive(make: () => Driven, gz: Buffer, inSizes: number[] = [gz.length || 1], outSizes: number[] = [1 << 16]): Outcome {
  const inf = make();
  const out = Buffer.alloc(Math.max(...outSizes));
  const parts: Buffer[] = [];
  let given = 0; // input bytes handed over so far
  let off = 0; // of those, consumed
  let k = 0;
  try {
    for (let i = 0; i < 2_000_000; i++) {
      if (off >= given && given < gz.length) given = Math.min(gz.length, given + inSizes[k++ % inSizes.length]!);
      const finish = given === gz.length;
      const room = outSizes[i % outSizes.length]!;
      const ok = inf.write(finish, gz, off, given - off, out, 0, room);
      if (!ok) return { ok: false, content: Buffer.concat(parts), unread: 0 };
      parts.push(Buffer.from(out.subarray(0, room - inf.availOut())));
      off = given - inf.availIn();
      if (inf.availOut() > 0 && inf.availIn() > 0) return { ok: true, content: Buffer.concat(parts), unread: gz.length - off };
      if (finish && inf.availOut() > 0) return { ok: true, content: Buffer.concat(parts), unread: 0 };
    }
    throw new Error('no end after 2,000,000 writes');
  } finally {
    inf.close();
  }
}

const isal = (gz: Buffer, inSizes?: number[], outSizes?: number[]) => drive(isalHandle, gz, inSizes, outSizes);
const reference = (gz: Buffer, inSizes?: number[], outSizes?: number[]) => drive(zlibHandle, gz, inSizes, outSizes);

describe.runIf(binding || required)('ISA-L inflater', () => {
  it.each([
    ['empty content', () => member(Buffer.alloc(0))],
    ['one byte', () => member(Buffer.from('x'))],
    ['stored blocks (level 0)', () => member(text(2000, 1), { level: 0 })],
    ['level 1', () => member(text(5000, 2), { level: 1 })],
    ['level 9', () => member(text(5000, 3), { level: 9 })],
    ['random bytes', () => member(Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 2654435761) >>> 24)))],
    ['a file name', () => member(text(300, 4), { name: 'access.log' })],
    ['a comment', () => member(text(300, 5), { comment: 'made by hand' })],
    ['an extra field', () => member(text(300, 6), { extra: Buffer.from('AB\x04\x00abcd', 'latin1') })],
    ['a header CRC', () => member(text(300, 7), { hcrc: true, name: 'x.log' })],
    ['every header field', () => member(text(300, 8), { name: 'n', comment: 'c', extra: Buffer.from('XY\x00\x00', 'latin1'), hcrc: true })],
    ['zlib.gzipSync output', () => zlib.gzipSync(text(4000, 9))],
    ['three members, one empty', () => Buffer.concat([member(text(100, 10)), member(Buffer.alloc(0)), zlib.gzipSync(text(700, 11))])],
  ])('gives zlib content for %s, whole and in pieces', (_name, make) => {
    const gz = make();
    const ref = reference(gz);
    expect(ref.ok).toBe(true);
    expect(ref.content.equals(zlib.gunzipSync(gz))).toBe(true);
    for (const [inSizes, outSizes] of [
      [[gz.length || 1], [gz.length * 20 + 64]],
      // a byte at a time both ways where that stays under a second
      gz.length < 20_000 ? [[1], [1]] : [[1, 2, 3], [1, 100]],
      [[7, 1, 300], [13, 4096, 1]],
      [[65_536], [1 << 20]],
    ] as const) {
      const got = isal(gz, [...inSizes], [...outSizes]);
      expect(got.ok).toBe(true);
      expect(got.content.equals(ref.content)).toBe(true);
      expect(got.unread).toBe(0);
    }
  });

  it('leaves zero padding after the last member unread, and fails on junk after it', () => {
    const gz = member(text(500, 12));
    const padded = isal(Buffer.concat([gz, Buffer.alloc(100)]), [1000]);
    expect(padded).toMatchObject({ ok: true, unread: 100 });
    expect(padded.content.equals(text(500, 12))).toBe(true);
    expect(isal(Buffer.concat([gz, Buffer.from('junk')])).ok).toBe(false);
    expect(isal(Buffer.concat([gz, Buffer.from([0x1f, 0x8b, 9])])).ok).toBe(false); // a header with a bad method
    expect(isal(Buffer.from('not gzip at all')).ok).toBe(false);
  });

  it('fails data cut short at every length, and a wrong CRC-32 or size in the trailer', () => {
    const content = text(40, 13);
    const gz = member(content, { name: 'cut.log', hcrc: true });
    for (let n = 0; n < gz.length; n++) expect(isal(gz.subarray(0, n), [Math.max(1, n)]).ok, `cut at ${n}`).toBe(false);
    for (const at of [gz.length - 8, gz.length - 5, gz.length - 4, gz.length - 1]) {
      const bad = Buffer.from(gz);
      bad[at]! ^= 0x01;
      expect(isal(bad).ok, `trailer byte ${at}`).toBe(false);
      expect(reference(bad).ok).toBe(false);
    }
  });

  it('agrees with zlib on damaged data: fails exactly when zlib fails, and gives the same content otherwise', () => {
    const base = Buffer.concat([member(text(200, 14), { name: 'a' }), zlib.gzipSync(text(150, 15), { level: 1 })]);
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.nat(base.length - 1), xor: fc.integer({ min: 1, max: 255 }) }), { minLength: 1, maxLength: 3 }),
        fc.option(fc.nat(base.length), { nil: undefined }),
        fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 4 }),
        (flips, cut, inSizes, outSizes) => {
          const gz = Buffer.from(base.subarray(0, cut ?? base.length));
          for (const f of flips) if (f.at < gz.length) gz[f.at]! ^= f.xor;
          const ref = reference(gz, inSizes, outSizes);
          const got = isal(gz, inSizes, outSizes);
          // A flip in a header's mtime, xfl or os byte changes nothing: both succeed alike.
          expect(got.ok).toBe(ref.ok);
          if (ref.ok) {
            expect(got.content.equals(ref.content)).toBe(true);
            expect(got.unread).toBe(ref.unread);
          }
        },
      ),
      { numRuns: 300, seed: 28 },
    );
  });

  it('throws TypeError or RangeError on bad arguments, and a closed or failed handle only fails', () => {
    const b = binding!;
    const h = b.create();
    const state = new Uint32Array(2);
    const gz = member(text(10, 16));
    const out = Buffer.alloc(4096);
    const call = (...args: unknown[]) => (b.write as (...a: unknown[]) => number)(...args);
    expect(() => call({}, true, gz, 0, gz.length, out, 0, out.length, state)).toThrow(TypeError);
    expect(() => call(h, true, 'gz', 0, 2, out, 0, out.length, state)).toThrow(TypeError);
    expect(() => call(h, true, gz, 0, gz.length, out, 0, out.length, new Uint8Array(8))).toThrow(TypeError);
    expect(() => call(h, true, gz, 0, gz.length, out, 0, out.length, new Uint32Array(1))).toThrow(RangeError);
    expect(() => call(h, true, gz, 1, gz.length, out, 0, out.length, state)).toThrow(RangeError);
    expect(() => call(h, true, gz, -1, 2, out, 0, out.length, state)).toThrow(RangeError);
    expect(() => call(h, true, gz, 0.5, 2, out, 0, out.length, state)).toThrow(RangeError);
    expect(() => call(h, true, gz, 0, gz.length, out, 4000, 200, state)).toThrow(RangeError);
    expect(() => call(h, true, gz)).toThrow(TypeError);
    // The handle is still good after thrown arguments.
    expect(b.write(h, true, gz, 0, gz.length, out, 0, out.length, state)).toBe(1);
    expect(out.subarray(0, out.length - state[0]!).equals(text(10, 16))).toBe(true);
    b.close(h);
    expect(b.write(h, true, gz, 0, gz.length, out, 0, out.length, state)).toBe(-1);
    const bad = b.create();
    expect(b.write(bad, true, Buffer.from('junk'), 0, 4, out, 0, out.length, state)).toBe(-1);
    expect(b.write(bad, true, gz, 0, gz.length, out, 0, out.length, state)).toBe(-1);
    b.close(bad);
  });

  it('frees the memory of a handle at close, not at garbage collection (a run opens one per file)', () => {
    // ~90 KB of ISA-L state a handle: 3,000 handles kept until collection would add ~270 MB.
    const gz = member(text(20, 18));
    const out = Buffer.alloc(4096);
    const state = new Uint32Array(2);
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 3000; i++) {
      const h = binding!.create();
      binding!.write(h, true, gz, 0, gz.length, out, 0, out.length, state);
      binding!.close(h);
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(100 << 20);
  });

  it('inflates into WebAssembly memory (the line kernel gives its own)', () => {
    const content = text(3000, 17);
    const gz = member(content);
    // (the tests' type libraries have no WebAssembly declarations)
    const Wasm = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number }) => { buffer: ArrayBuffer } } }).WebAssembly;
    const mem = new Wasm.Memory({ initial: 8 });
    const view = new Uint8Array(mem.buffer);
    const state = new Uint32Array(2);
    const h = binding!.create();
    expect(binding!.write(h, true, gz, 0, gz.length, view, 1000, content.length + 1, state)).toBe(1);
    binding!.close(h);
    expect(state[0]).toBe(1);
    expect(Buffer.from(mem.buffer, 1000, content.length).equals(content)).toBe(true);
  });
});
