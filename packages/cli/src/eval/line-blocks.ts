/**
 * Cuts a byte stream into blocks of whole lines without holding more than one block and one partial line.
 * Linear in the input whatever the line lengths: the pieces of a partial line are kept in a list and joined
 * once, when its end arrives (joining per chunk would copy a long line again at every chunk).
 * A line longer than the limit (MAX_LINE_BYTES) is not held: it is reported as one too-long (malformed) line
 * and skipped; workers apply the same limit through `splitLongLines`, so every mode gives the same answer.
 */
import { Buffer } from 'node:buffer';

/**
 * Longest line evaluated (real log lines are a few KB). Holding, decoding and parsing one line costs several
 * times its size, so this bound keeps peak memory flat; V8 could not hold a string above 512 MiB anyway.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type LineBlock = { kind: 'block'; buf: Buffer } | { kind: 'too-long'; bytes: number };
export type Segment = { kind: 'lines'; start: number; end: number } | { kind: 'too-long'; bytes: number };

/**
 * The whole lines of `buf[start, end)` as runs of lines to scan and too-long lines to count. Only walks the
 * lines when the range itself is longer than the limit (never for ordinary blocks).
 */
export function* splitLongLines(buf: Uint8Array, start: number, end: number, maxLine: number): Generator<Segment> {
  if (end - start <= maxLine) {
    if (end > start) yield { kind: 'lines', start, end };
    return;
  }
  let run = start;
  let s = start;
  while (s < end) {
    let nl = buf.indexOf(10, s);
    if (nl < 0 || nl >= end) nl = end;
    if (nl - s > maxLine) {
      if (run < s) yield { kind: 'lines', start: run, end: s };
      yield { kind: 'too-long', bytes: Math.min(nl + 1, end) - s };
      run = nl + 1;
    }
    s = nl + 1;
  }
  if (run < end) yield { kind: 'lines', start: run, end };
}

function asBuffer(piece: Uint8Array | string): Buffer {
  if (typeof piece === 'string') return Buffer.from(piece);
  return Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
}

/** The blocks yielded are views of the chunk: the consumer is done with each before asking for the next. */
export async function* lineBlocks(source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array>, maxLine = MAX_LINE_BYTES): AsyncGenerator<LineBlock> {
  let pieces: Buffer[] = []; // the partial line so far
  let held = 0; // its length
  let skipping = -1; // bytes of an over-long line being skipped (-1: not skipping)
  const blocks = function* (buf: Buffer): Generator<LineBlock> {
    for (const seg of splitLongLines(buf, 0, buf.length, maxLine)) {
      yield seg.kind === 'lines' ? { kind: 'block', buf: buf.subarray(seg.start, seg.end) } : seg;
    }
  };
  for await (const piece of source) {
    let chunk = asBuffer(piece);
    while (chunk.length > 0) {
      if (skipping >= 0) {
        const nl = chunk.indexOf(10);
        if (nl < 0) {
          skipping += chunk.length;
          break;
        }
        yield { kind: 'too-long', bytes: skipping + nl + 1 };
        skipping = -1;
        chunk = chunk.subarray(nl + 1);
        continue;
      }
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        if (held + chunk.length > maxLine) {
          skipping = held + chunk.length;
          pieces = [];
          held = 0;
        } else {
          // Copied when small, so a big chunk's memory is not kept alive by a short tail.
          pieces.push(chunk.length < 65536 ? Buffer.from(chunk) : chunk);
          held += chunk.length;
        }
        break;
      }
      if (held + nl > maxLine) {
        yield { kind: 'too-long', bytes: held + nl + 1 };
        pieces = [];
        held = 0;
        chunk = chunk.subarray(nl + 1);
        continue;
      }
      if (held > 0) {
        // Only the held line is joined with its end; the chunk's other lines are passed on without a copy.
        const line = chunk.subarray(0, nl + 1);
        yield* blocks(Buffer.concat([...pieces, line], held + line.length));
        pieces = [];
        held = 0;
        chunk = chunk.subarray(nl + 1);
        continue;
      }
      const last = chunk.lastIndexOf(10);
      yield* blocks(chunk.subarray(0, last + 1));
      chunk = chunk.subarray(last + 1);
    }
  }
  if (skipping >= 0) yield { kind: 'too-long', bytes: skipping };
  else if (held > 0) yield* blocks(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, held));
}
