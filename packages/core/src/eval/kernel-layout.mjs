// The line kernel's memory layout: the one table both sides are generated from. scripts/gen-line-kernel.mjs
// replaces each `{{NAME}}` in kernel.wat with its value here before assembling it (`{{NAME_SHIFT}}` is the
// log2 of a `NAME_BYTES` record size), and writes the table into line-kernel.generated.ts, from which
// line-kernel.ts lays the memory out and reads the results. A value changed here changes both, so the two
// sides cannot drift apart. (Kept in JavaScript so the generator reads it without a TypeScript build.)
//
// The regions, in the order line-kernel.ts places them: the key filter, hash slots, key records, result records, the keys'
// bytes, the needle, then the data and its nesting stack (kernel.wat's header comment describes each).
export const KERNEL_LAYOUT = {
  // The key filter: an i64 per key length 0-63 (see kernel.wat), 64 of them.
  FILTER_BYTES: 8,

  // A hash slot: i32, 1 + index of the first wanted key whose hash is the slot's, 0 for none.
  SLOT_BYTES: 4,

  // A wanted key's record.
  KEY_BYTES: 32,
  // i32: offset of the key's bytes
  KEY_AT: 0,
  // i32: 1 + index of the next key of the same slot, 0 for none
  KEY_NEXT: 4,
  // i64: the key's first eight bytes (zero-padded when shorter)
  KEY_FIRST: 8,
  // i64: its last eight bytes (zero-padded when shorter)
  KEY_LAST: 16,
  // i32: its length
  KEY_LENGTH: 24,

  // A wanted key's result for the line just scanned.
  OUT_BYTES: 16,
  // i32: start of the value of its last top-level occurrence, -1 when absent
  OUT_START: 0,
  // i32: end (exclusive) of the value
  OUT_END: 4,
  // i32: 1 for a string value holding escapes
  OUT_FLAGS: 8,
  // i32: hash of a string value without escapes of at most HASH_MAX_BYTES, 0 for none
  OUT_HASH: 12,

  // Room for the needle $find looks for (a longer one is left to the host's search).
  NEEDLE_BYTES: 256,
  // Readable bytes after a line's end: string scanning loads two 16-byte vectors past it without bounds checks.
  PAD: 32,
  // Longest string value hashed (a longer string is rarely repeated).
  HASH_MAX_BYTES: 32,
  // The multiplier of the key slot hash and of the string hash (2^64 / golden ratio).
  HASH_FACTOR: '0x9E3779B97F4A7C15',
};
