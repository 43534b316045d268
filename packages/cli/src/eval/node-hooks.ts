/**
 * Node's native byte search and UTF-8 decoding, injected into the pure core scanner. `Buffer#indexOf` with a
 * byte needle is a memchr/Boyer-Moore search in C++, far faster than a JS loop.
 */
import { Buffer, isUtf8 } from 'node:buffer';
import type { ByteDecode, ByteSearch, ScanHooks } from '@logfilter/core';

function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

export const nodeSearch: ByteSearch = (hay, needle, from, to) => {
  if (to - from < needle.length) return -1;
  const i = asBuffer(hay).subarray(from, to).indexOf(needle);
  return i < 0 ? -1 : i + from;
};

/** Validating decoder: a line that is not UTF-8 is malformed rather than silently repaired. */
export const nodeDecode: ByteDecode = (hay, start, end) => {
  const b = asBuffer(hay).subarray(start, end);
  return isUtf8(b) ? b.toString('utf8') : null;
};

/** Decoder for a block already known to be valid UTF-8 (checked once per block, SIMD-fast). */
export const trustedDecode: ByteDecode = (hay, start, end) => asBuffer(hay).toString('utf8', start, end);

export const nodeHooks: ScanHooks = { search: nodeSearch, decode: nodeDecode };
