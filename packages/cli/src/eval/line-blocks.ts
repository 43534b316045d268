/**
 * Cuts a byte stream into blocks of whole lines without holding more than one block and one partial line.
 * A line longer than MAX_LINE_BYTES is not held: it is reported as one too-long (malformed) line and skipped.
 */
import { Buffer } from 'node:buffer';

/** Above V8's comfortable string sizes; such a line could not be parsed anyway. */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

export type LineBlock = { kind: 'block'; buf: Buffer } | { kind: 'too-long'; bytes: number };

export async function* lineBlocks(source: AsyncIterable<Uint8Array | string>, maxLine = MAX_LINE_BYTES): AsyncGenerator<LineBlock> {
  let carry: Buffer | null = null;
  let skipping = 0; // bytes of an over-long line being skipped (0: not skipping)
  for await (const piece of source) {
    let chunk = typeof piece === 'string' ? Buffer.from(piece) : Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (skipping > 0) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        skipping += chunk.length;
        continue;
      }
      yield { kind: 'too-long', bytes: skipping + nl };
      skipping = 0;
      chunk = chunk.subarray(nl + 1);
    }
    const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    const last = buf.lastIndexOf(10);
    if (last < 0) {
      if (buf.length > maxLine) {
        skipping = buf.length;
        carry = null;
      } else carry = buf;
      continue;
    }
    yield { kind: 'block', buf: buf.subarray(0, last + 1) };
    // Copy the tail so the block's memory can be released.
    carry = last + 1 < buf.length ? Buffer.from(buf.subarray(last + 1)) : null;
  }
  if (skipping > 0) yield { kind: 'too-long', bytes: skipping };
  else if (carry && carry.length > 0) yield { kind: 'block', buf: carry };
}
