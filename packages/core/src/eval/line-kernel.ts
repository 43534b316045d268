/**
 * The JS side of the WebAssembly line kernel (kernel.wat): one pass per line that both decides exactly whether
 * the line is a JSON object (as JSON.parse would, UTF-8 included) and finds the value spans of the filter's
 * fields, so a line never needs JSON.parse to count as a match.
 *
 * Pure: the module is instantiated synchronously from the bytes in line-kernel.generated.ts, and the memory is
 * laid out by the table it was assembled with (kernel-layout.mjs, in the same generated file). Where
 * WebAssembly is missing (`node --jitless`) or refuses the module, `createLineKernel` returns undefined and the
 * scanner keeps its JS extractor and JSON.parse.
 */
import { KERNEL_LAYOUT as L, LINE_KERNEL_WASM } from './line-kernel.generated.js';

/** The kernel's verdicts (see kernel.wat). */
export const NOT_OBJECT = 0;
export const VALID = 1;
/** Valid, but some top-level key is spelled with escapes: its fields must be read another way. */
export const VALID_ESCAPED_KEY = 2;

interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmGlobal {
  value: number;
}
interface KernelExports {
  memory: WasmMemory;
  init(slots: number, shift: number, keys: number, out: number, nkeys: number, filter: number, scratch: number): void;
  setStack(at: number): void;
  scan(start: number, end: number): number;
  find(from: number, end: number, needle: number, length: number, a: number, b: number): number;
  setProgram(prog: number, seen: number): void;
  scanBlock(start: number, end: number, rec: number, max: number, clauses: number, nclauses: number): number;
  lines: WasmGlobal;
  total: WasmGlobal;
  read: WasmGlobal;
  next: WasmGlobal;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

const PAGE = 65536;
/** Padding after the data: the kernel may load vectors past the sentinel (kernel-layout.mjs). */
const PAD = L.PAD;
/** Memory above this is given back (a new instance) once blocks are small again. */
const RELEASE_BYTES = 64 << 20;
/** Longest needle searched by the kernel (filter values are short; a longer one is left to the host). */
const MAX_NEEDLE = L.NEEDLE_BYTES;
/** A result record's fields, as indexes of 32-bit words from its start. */
const OUT_START = L.OUT_START >> 2;
const OUT_END = L.OUT_END >> 2;
const OUT_FLAGS = L.OUT_FLAGS >> 2;
const OUT_HASH = L.OUT_HASH >> 2;

function fromBase64(text: string): Uint8Array {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const value = new Int8Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) value[alphabet.charCodeAt(i)] = i;
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    acc = (acc << 6) | value[clean.charCodeAt(i)]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

const HASH_FACTOR = BigInt(L.HASH_FACTOR);
const U64 = (1n << 64n) - 1n;

/** The slot of a key in a table of 2^bits, as kernel.wat computes it: (fingerprint ^ length) * K >> (64 - bits). */
function slotOf(key: Uint8Array, bits: number): number {
  // the fingerprint: the last eight bytes, little-endian, or all of them zero-padded when fewer
  const tail = key.length >= 8 ? key.subarray(key.length - 8) : key;
  let fp = 0n;
  for (let i = tail.length - 1; i >= 0; i--) fp = (fp << 8n) | BigInt(tail[i]!);
  return Number((((fp ^ BigInt(key.length)) * HASH_FACTOR) & U64) >> BigInt(64 - bits));
}

let compiled: object | null | undefined;

/**
 * The compiled kernel module of this thread, for other threads to adopt (`adoptLineKernelModule`): a
 * WebAssembly.Module passed to a worker shares its machine code, the optimized code of functions that have
 * already run here included, so a worker does not start over from V8's baseline compiler. Undefined where
 * WebAssembly is unavailable.
 */
export function lineKernelModule(): object | undefined {
  return kernelModule() ?? undefined;
}

/** Uses a module from `lineKernelModule` (of another thread) instead of compiling one; ignored when not one. */
export function adoptLineKernelModule(module: unknown): void {
  const api = (globalThis as { WebAssembly?: { Module: new (bytes: Uint8Array) => object } }).WebAssembly;
  if (compiled === undefined && api && module instanceof api.Module) compiled = module;
}

/** The compiled module, once per process; null where WebAssembly is unavailable or refuses it. */
function kernelModule(): object | null {
  if (compiled !== undefined) return compiled;
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  try {
    compiled = api ? new api.Module(fromBase64(LINE_KERNEL_WASM)) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

export interface LineKernel {
  /**
   * Copies `hay[from, to)` into the kernel's memory (no copy when `hay` is a `region`); later `scan` calls take
   * lines inside that range, in `hay` offsets. The byte after each line's end must be its `\n` or `\r` in
   * `hay`, or `to` itself.
   */
  load(hay: Uint8Array, from: number, to: number): void;
  /**
   * A view of `length` bytes of the kernel's own memory, for the caller to fill with a block before scanning
   * it: reading a block there spares the copy `load` would make (one pass over every byte). Valid until the
   * next `region` call; scanning a block in it may overwrite the bytes after the block. With `keep`, the bytes
   * of the previous region are kept (for a block that grows while it is being filled).
   */
  region(length: number, keep?: boolean): Uint8Array;
  /** The verdict on the line `hay[start, end)`; for VALID, `starts`, `ends`, `escaped` hold the fields' spans. */
  scan(start: number, end: number): number;
  /** Per field: start of the value of its last top-level occurrence in `hay` offsets, or -1 when absent. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Per field: 1 when the value is a string holding escapes. */
  readonly escaped: Uint8Array;
  /** Per field: a hash (never 0) of a string value of at most 32 bytes without escapes, else 0. */
  readonly hashes: Int32Array;
  /** The size of the kernel's memory now. */
  memoryBytes(): number;
  /**
   * At most how many bytes after a block of `length` bytes read into a `region` scanning it may overwrite (its
   * end sentinel and nesting stack go there).
   */
  overwrites(length: number): number;
  /**
   * The first index in `[from, to)` (hay offsets, inside the loaded range) where `needle` occurs, or -1;
   * undefined for a needle the kernel does not search (empty, or longer than it keeps).
   */
  find(needle: Uint8Array, from: number, to: number): number | undefined;
  /**
   * With a program (`createLineKernel`'s `program`): reads the lines of `[from, to)` (hay offsets, inside the
   * loaded range, whole lines) one after another in the kernel, the program deciding each valid one, and fills
   * `block` with the lines the caller must see (malformed, matched, or undecided: see BlockRecords) up to
   * REC_MAX of them; returns their number. When that is REC_MAX, call again from `block.next`. `fresh` starts
   * the counts (`block.lines`, `block.totalLines`) and the fields-seen flags from zero; `seen` sets the flags
   * (a caller that has seen every field spares the kernel that loop). `clauses`: indexes into the prefilter
   * clauses given to `createLineKernel`, in the order to test them; a line that does not hold them all is not
   * read, only its outline checked (see BlockRecords). Undefined without a program.
   */
  scanBlock?(from: number, to: number, fresh: boolean, seen: boolean, clauses?: readonly number[]): number;
  /** What the last `scanBlock` call found (only with a program). */
  readonly block?: BlockRecords;
}

/** A block's lines that the JS side must see ($scanBlock's records, in hay offsets), and its counts so far. */
export interface BlockRecords {
  /** Per record: the line's index among the block's physical lines, its start and end (its `\n`, or the block's end). */
  readonly line: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** REC_MALFORMED, REC_MATCH or REC_UNDECIDED. */
  readonly code: Int32Array;
  /** The non-blank lines up to and including the record's. */
  readonly total: Int32Array;
  /** The lines read (not skipped by the prefilter) up to and including the record's. */
  readonly read: Int32Array;
  /** Physical, non-blank and read lines so far, and where the next call goes on. */
  lines: number;
  totalLines: number;
  readLines: number;
  next: number;
  /** Per field: 1 when a valid line read in the kernel carried it (since the last `fresh` call). */
  readonly seen: Uint8Array;
}

export const REC_MALFORMED = L.REC_MALFORMED;
export const REC_MATCH = L.REC_MATCH;
export const REC_UNDECIDED = L.REC_UNDECIDED;
export const REC_MAX = L.REC_MAX;

/**
 * Byte frequency ranks in log text (higher: more frequent). The kernel's search compares two bytes of the
 * needle at each position, so it picks the two that occur least.
 */
function frequency(b: number): number {
  if (b === 34 || b === 44 || b === 58) return 4; // " , :
  if ((b >= 97 && b <= 122) || (b >= 48 && b <= 57)) return b === 101 || b === 116 || b === 97 || b === 111 || b === 105 || b === 110 || b === 115 || b === 114 || b === 48 || b === 49 ? 3 : 2;
  if (b === 32 || b === 46 || b === 47 || b === 45 || b === 95) return 2; // space . / - _
  return 1;
}

/** The offsets of the needle's two rarest bytes (the same one twice for a one-byte needle). */
export function rareOffsets(needle: Uint8Array): [number, number] {
  let a = 0;
  for (let i = 1; i < needle.length; i++) if (frequency(needle[i]!) < frequency(needle[a]!)) a = i;
  let b = a === 0 ? needle.length - 1 : 0;
  for (let i = 0; i < needle.length; i++) if (i !== a && frequency(needle[i]!) < frequency(needle[b]!)) b = i;
  return [a, b];
}

/** A clause of the prefilter (needles.ts NeedleClause): a line holds it when it contains one of its needles or an escape of one of its triggers. */
export interface KernelClause {
  readonly bytes: readonly Uint8Array[];
  readonly triggers: ReadonlySet<number>;
}

/**
 * A kernel looking for `fields` (top-level keys), or undefined when WebAssembly cannot run it. `program`: the
 * filter compiled for the kernel (kernel-program.ts), which gives it `scanBlock`; `clauses`: the prefilter
 * clauses `scanBlock` may be asked to apply (by index).
 */
export function createLineKernel(fields: readonly string[], program?: Uint8Array, clauses: readonly KernelClause[] = []): LineKernel | undefined {
  const module = kernelModule();
  if (module === null) return undefined;
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly!;
  const encoder = new TextEncoder();
  const keys = fields.map((f) => encoder.encode(f));
  // A hash table of at most one wanted key in four slots, so that most keys of a line miss at once.
  let bits = 3;
  while (1 << bits < keys.length * 4) bits++;
  // Layout (kernel-layout.mjs): key filter, hash slots, key records, results, key bytes, then the data and its stack.
  const filterAt = 0;
  const slotsAt = filterAt + 64 * L.FILTER_BYTES;
  const keysAt = slotsAt + (1 << bits) * L.SLOT_BYTES;
  const outAt = keysAt + keys.length * L.KEY_BYTES;
  const bytesAt = outAt + keys.length * L.OUT_BYTES;
  const needleAt = bytesAt + keys.reduce((n, k) => n + k.length, 0);
  // The program (its f64 numbers aligned), the fields-seen flags and the block records.
  const progAt = (needleAt + MAX_NEEDLE + 7) & ~7;
  const seenAt = progAt + (program?.length ?? 0);
  const recAt = (seenAt + keys.length + 15) & ~15;
  // The prefilter: the records of the clauses in use (rewritten when the selection changes), then each clause's
  // needle records, trigger units and needle bytes (written once).
  const clauseAt = (recAt + (program ? L.REC_MAX * L.REC_BYTES : 0) + 15) & ~15;
  const piecesAt = clauseAt + clauses.length * L.CLAUSE_BYTES;
  const needleCount = clauses.reduce((n, c) => n + c.bytes.length, 0);
  const unitsAt = piecesAt + needleCount * L.PIECE_BYTES;
  const clauseBytesAt = unitsAt + clauses.reduce((n, c) => n + c.triggers.size, 0) * 4;
  const clauseEnd = clauseBytesAt + clauses.reduce((n, c) => n + c.bytes.reduce((m, b) => m + b.length, 0), 0);
  /** Per clause: the offsets and counts of its needle records and trigger units. */
  const clauseRecords: [number, number, number, number][] = [];
  // Where $eval decodes a string value with escapes (only with a program), then the data.
  const scratchAt = (clauseEnd + 15) & ~15;
  const dataAt = (scratchAt + (program ? L.UNESCAPE_BYTES + L.PAD : 0) + 15) & ~15;

  let exports!: KernelExports;
  let u8!: Uint8Array;
  let i32!: Int32Array;
  const views = (): void => {
    u8 = new Uint8Array(exports.memory.buffer);
    i32 = new Int32Array(exports.memory.buffer);
  };
  const ensure = (bytes: number): void => {
    const have = exports.memory.buffer.byteLength;
    if (have < bytes) {
      exports.memory.grow(Math.ceil((bytes - have) / PAGE));
      views();
    }
  };
  const instantiate = (): void => {
    exports = new api.Instance(module, {}).exports as KernelExports;
    views();
    ensure(dataAt + PAD);
    // Keys of one slot are chained; a key of the line is compared only with the wanted keys of its slot.
    const slots = new Int32Array(1 << bits);
    let at = bytesAt;
    keys.forEach((k, i) => {
      u8.set(k, at);
      const record = keysAt + i * L.KEY_BYTES;
      const h = slotOf(k, bits);
      i32[(record + L.KEY_AT) >> 2] = at;
      i32[(record + L.KEY_NEXT) >> 2] = slots[h]!;
      // the first and last eight bytes, compared before anything else (zero-padded when shorter), and the length
      u8.fill(0, record + L.KEY_FIRST, record + L.KEY_FIRST + 8);
      u8.fill(0, record + L.KEY_LAST, record + L.KEY_LAST + 8);
      u8.set(k.subarray(0, 8), record + L.KEY_FIRST);
      u8.set(k.length >= 8 ? k.subarray(k.length - 8) : k, record + L.KEY_LAST);
      i32[(record + L.KEY_LENGTH) >> 2] = k.length;
      slots[h] = i + 1;
      at += k.length;
    });
    for (let h = 0; h < slots.length; h++) i32[(slotsAt + h * L.SLOT_BYTES) >> 2] = slots[h]!;
    // The key filter: per length (63 for longer keys), the last bytes of the wanted keys modulo 64 (an empty
    // key's is its closing quote, as the kernel reads it): most keys of a line are not looked up.
    u8.fill(0, filterAt, filterAt + 64 * L.FILTER_BYTES);
    for (const k of keys) {
      const bit = (k.length > 0 ? k[k.length - 1]! : 34) & 63;
      const word = (filterAt + Math.min(k.length, 63) * L.FILTER_BYTES + (bit >> 5) * 4) >> 2;
      i32[word] = i32[word]! | (1 << (bit & 31));
    }
    exports.init(slotsAt, 64 - bits, keysAt, outAt, keys.length, filterAt, scratchAt);
    if (program) {
      u8.set(program, progAt);
      exports.setProgram(progAt, 0);
    }
    let piece = piecesAt;
    let unit = unitsAt;
    let byte = clauseBytesAt;
    clauseRecords.length = 0;
    for (const c of clauses) {
      clauseRecords.push([piece, c.bytes.length, unit, c.triggers.size]);
      for (const b of c.bytes) {
        const [a, r] = b.length > 0 ? rareOffsets(b) : [0, 0];
        i32[(piece + L.PIECE_AT) >> 2] = byte;
        i32[(piece + L.PIECE_LEN) >> 2] = b.length;
        i32[(piece + L.PIECE_RARE_A) >> 2] = a;
        i32[(piece + L.PIECE_RARE_B) >> 2] = r;
        u8.set(b, byte);
        byte += b.length;
        piece += L.PIECE_BYTES;
      }
      for (const t of c.triggers) {
        i32[unit >> 2] = t;
        unit += 4;
      }
    }
    selected = undefined;
  };
  /** The clause indexes whose records are at clauseAt now (a new instance has none). */
  let selected: readonly number[] | undefined;
  const select = (chosen: readonly number[]): void => {
    if (selected !== undefined && selected.length === chosen.length && selected.every((c, i) => c === chosen[i])) return;
    chosen.forEach((c, i) => {
      const [pieces, count, units, unitCount] = clauseRecords[c]!;
      const r = clauseAt + i * L.CLAUSE_BYTES;
      i32[(r + L.CLAUSE_PIECES) >> 2] = pieces;
      i32[(r + L.CLAUSE_COUNT) >> 2] = count;
      i32[(r + L.CLAUSE_TRIGGERS) >> 2] = units;
      i32[(r + L.CLAUSE_TRIGGER_COUNT) >> 2] = unitCount;
    });
    selected = [...chosen];
  };
  try {
    instantiate();
  } catch {
    // e.g. no memory for an instance: the JS path serves
    return undefined;
  }

  // The nesting stack goes after the data (one bit per level: at most one level per byte of a line).
  const stackAt = (at: number, length: number): number => (at + length + PAD + 15) & ~15;
  const roomFor = (at: number, length: number): number => stackAt(at, length) + (length >> 3) + PAD;
  /** A new, small instance once blocks are small again after a huge one. */
  const release = (need: number): void => {
    if (exports.memory.buffer.byteLength > RELEASE_BYTES && need < RELEASE_BYTES / 4) {
      instantiate();
      needle = undefined;
    }
  };

  const starts = new Int32Array(fields.length);
  const ends = new Int32Array(fields.length);
  const escaped = new Uint8Array(fields.length);
  const hashes = new Int32Array(fields.length);
  /** hay offset minus kernel offset of the loaded range. */
  let shift = 0;
  /** The needle in the kernel's memory, and its two rare offsets. */
  let needle: Uint8Array | undefined;
  let rare: [number, number] = [0, 0];
  const rareOf = new WeakMap<Uint8Array, [number, number]>();

  const block: BlockRecords | undefined = program
    ? {
        line: new Int32Array(L.REC_MAX),
        start: new Int32Array(L.REC_MAX),
        end: new Int32Array(L.REC_MAX),
        code: new Int32Array(L.REC_MAX),
        total: new Int32Array(L.REC_MAX),
        read: new Int32Array(L.REC_MAX),
        lines: 0,
        totalLines: 0,
        readLines: 0,
        next: 0,
        seen: new Uint8Array(fields.length),
      }
    : undefined;
  /** Reads the block records out of the kernel's memory (a few per block: only lines the JS side must see). */
  const scanBlock = (from: number, to: number, fresh: boolean, seen: boolean, chosen: readonly number[] = []): number => {
    const b = block!;
    if (fresh) {
      exports.lines.value = 0;
      exports.total.value = 0;
      exports.read.value = 0;
      u8.fill(0, seenAt, seenAt + fields.length);
    }
    exports.setProgram(progAt, seen ? seenAt : 0);
    if (chosen.length > 0) select(chosen);
    const n = exports.scanBlock(from - shift, to - shift, recAt, L.REC_MAX, clauseAt, chosen.length);
    for (let i = 0; i < n; i++) {
      const r = (recAt + i * L.REC_BYTES) >> 2;
      b.line[i] = i32[r + (L.REC_LINE >> 2)]!;
      b.start[i] = i32[r + (L.REC_START >> 2)]! + shift;
      b.end[i] = i32[r + (L.REC_END >> 2)]! + shift;
      b.code[i] = i32[r + (L.REC_CODE >> 2)]!;
      b.total[i] = i32[r + (L.REC_TOTAL >> 2)]!;
      b.read[i] = i32[r + (L.REC_READ >> 2)]!;
    }
    b.lines = exports.lines.value;
    b.totalLines = exports.total.value;
    b.readLines = exports.read.value;
    b.next = exports.next.value + shift;
    for (let k = 0; k < fields.length; k++) b.seen[k] = u8[seenAt + k]!;
    return n;
  };

  return {
    starts,
    ends,
    escaped,
    hashes,
    block,
    scanBlock: program ? scanBlock : undefined,
    memoryBytes: () => exports.memory.buffer.byteLength,
    overwrites: (length) => roomFor(0, length) - length,
    region(length, keep = false) {
      const need = roomFor(dataAt, length);
      if (!keep) release(need);
      ensure(need);
      return u8.subarray(dataAt, dataAt + length);
    },
    load(hay, from, to) {
      const length = to - from;
      // A region of this memory (the caller read the block there): no copy. Its room was made by `region`.
      const inMemory = hay.buffer === exports.memory.buffer;
      const at = inMemory ? hay.byteOffset + from : dataAt;
      if (!inMemory) {
        const need = roomFor(dataAt, length);
        release(need);
        ensure(need);
        u8.set(hay.subarray(from, to), dataAt);
      }
      u8[at + length] = 0;
      exports.setStack(stackAt(at, length));
      shift = from - at;
    },
    find(n, from, to) {
      if (n.length === 0 || n.length > MAX_NEEDLE) return undefined;
      if (n !== needle) {
        // Conditions of one line may take turns (`contains "bot"`, `!contains "curl"`): offsets are kept per needle.
        u8.set(n, needleAt);
        needle = n;
        let known = rareOf.get(n);
        if (known === undefined) {
          known = rareOffsets(n);
          rareOf.set(n, known);
        }
        rare = known;
      }
      const at = exports.find(from - shift, to - shift, needleAt, n.length, rare[0], rare[1]);
      return at < 0 ? -1 : at + shift;
    },
    scan(start, end) {
      const verdict = exports.scan(start - shift, end - shift);
      if (verdict === VALID) {
        for (let k = 0; k < starts.length; k++) {
          const o = (outAt + k * L.OUT_BYTES) >> 2;
          const s = i32[o + OUT_START]!;
          if (s < 0) {
            starts[k] = -1;
            continue;
          }
          starts[k] = s + shift;
          ends[k] = i32[o + OUT_END]! + shift;
          escaped[k] = i32[o + OUT_FLAGS]!;
          hashes[k] = i32[o + OUT_HASH]!;
        }
      }
      return verdict;
    },
  };
}
