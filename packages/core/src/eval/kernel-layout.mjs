// The line kernel's memory layout: the one table both sides are generated from. scripts/gen-line-kernel.mjs
// replaces each `{{NAME}}` in kernel.wat with its value here before assembling it (`{{NAME_SHIFT}}` is the
// log2 of a `NAME_BYTES` record size), and writes the table into line-kernel.generated.ts, from which
// line-kernel.ts lays the memory out and reads the results. A value changed here changes both, so the two
// sides cannot drift apart. (Kept in JavaScript so the generator reads it without a TypeScript build.)
//
// The regions, in the order line-kernel.ts places them: the key filter, hash slots, key records, result records, the keys'
// bytes, the needle, the filter's program (its nodes, then their bytes), the block records and the fields seen, the
// prefilter's clauses (their records, needle records, trigger units and needle bytes), then the data and its
// nesting stack (kernel.wat's header comment describes each).
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

  // A node of the filter's program (kernel-program.ts writes them, $eval in kernel.wat runs them over a line's
  // results): a group's children are chained, a leaf is one condition that the value's bytes decide.
  NODE_BYTES: 64,
  // i32: what the node is (one of the NODE_ kinds below)
  NODE_KIND: 0,
  // i32: 1 + index of a group's first child, 0 for none
  NODE_CHILD: 4,
  // i32: 1 + index of the next child of the same group, 0 for none
  NODE_NEXT: 8,
  // i32: a leaf's field (index of its result record)
  NODE_FIELD: 12,
  // i32: 1 for a negative operator (true on an absent or null field, the negation on a present one)
  NODE_NEG: 16,
  // i32: offset from the program's start of a leaf's needle, or of its members' (offset, length) i32 pairs
  NODE_AT: 20,
  // i32: the needle's length, or the number of members (f64 numbers at NODE_AT for NODE_NUMEQ); for NODE_BOOLEQ,
  // 1 when `true` is a member plus 2 when `false` is
  NODE_LEN: 24,
  // i32, i32: offsets in the needle of its two rarest bytes (what $find compares first)
  NODE_RARE_A: 28,
  NODE_RARE_B: 32,
  // i32: 1 when an array value must be decoded (`in`, which tests its elements), 0 when it never equals (`eq`)
  NODE_ARRAYS: 36,
  // f64: the number a comparison compares with
  NODE_NUM: 40,
  // The kinds: groups, constants, and the leaves (a string's bytes, or a small integer's digits). $eval relies
  // on their order: `and` 0 and `or` 1 (the verdict that decides each), the comparisons last.
  NODE_AND: 0,
  NODE_OR: 1,
  NODE_FALSE: 2,
  NODE_UNKNOWN: 3,
  NODE_EQUALS: 4,
  NODE_STARTS: 5,
  NODE_ENDS: 6,
  NODE_CONTAINS: 7,
  // `eq`/`in` whose members are all numbers (doubles), or all booleans
  NODE_NUMEQ: 8,
  NODE_BOOLEQ: 9,
  NODE_LT: 10,
  NODE_LEQ: 11,
  NODE_GT: 12,
  NODE_GEQ: 13,

  // A line of a block that the JS side must see ($scanBlock writes one per line it did not decide as a miss).
  REC_BYTES: 32,
  // i32: the line's index among the block's physical lines
  REC_LINE: 0,
  // i32: its start, and its end (the offset of its `\n`, or the block's end)
  REC_START: 4,
  REC_END: 8,
  // i32: what it is (one of the REC_ codes below)
  REC_CODE: 12,
  // i32: the non-blank lines up to and including it
  REC_TOTAL: 16,
  // i32: the lines scanned up to and including it (a prefilter skips some)
  REC_READ: 20,
  REC_MALFORMED: 0,
  REC_MATCH: 1,
  // valid, but the program could not decide it (or a key is spelled with escapes): the JS side reads it
  REC_UNDECIDED: 2,
  // Records per $scanBlock call (the JS side reads them, then calls again from where it stopped).
  REC_MAX: 1024,

  // A clause of the prefilter $scanBlock applies (needles.ts: a line that holds none of a clause's needles and
  // none of its trigger escapes cannot match): the records of its needles, and its trigger code units.
  CLAUSE_BYTES: 16,
  // i32: offset of its first needle record (PIECE_BYTES each), and how many
  CLAUSE_PIECES: 0,
  CLAUSE_COUNT: 4,
  // i32: offset of its trigger code units (i32 each), and how many
  CLAUSE_TRIGGERS: 8,
  CLAUSE_TRIGGER_COUNT: 12,
  // A needle of a clause.
  PIECE_BYTES: 16,
  // i32: offset of its bytes, its length, and the offsets in it of its two rarest bytes (as NODE_RARE_A/B)
  PIECE_AT: 0,
  PIECE_LEN: 4,
  PIECE_RARE_A: 8,
  PIECE_RARE_B: 12,

  // Room for the needle $find looks for (a longer one is left to the host's search).
  NEEDLE_BYTES: 256,
  // Room for a string value with escapes that $eval decodes (its content, escaped, at most this long; a longer
  // one is left to the JS side). PAD readable bytes follow it, for $find.
  UNESCAPE_BYTES: 4096,
  // Readable bytes after a line's end: string scanning loads two 16-byte vectors past it without bounds checks.
  PAD: 32,
  // Longest string value hashed (a longer string is rarely repeated).
  HASH_MAX_BYTES: 32,
  // The multiplier of the key slot hash and of the string hash (2^64 / golden ratio).
  HASH_FACTOR: '0x9E3779B97F4A7C15',
};
