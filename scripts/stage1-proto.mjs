// The go/no-go measurement for a simdjson-style two-stage line scan, side by side with the committed kernel's
// $scan over the same lines (a separate module: nothing here is wired into the kernel). Why it was built, its
// figures and the verdict (not taken): packages/core/README.md, the paragraph on the two-stage scan.
//
// Stage 1 classifies 64 bytes at a time (four v128 loads; i8x16.eq, or a shufti i8x16.swizzle lookup, and
// i8x16.bitmask into i64 masks), finds the escaped bytes with simdjson's odd-backslash-run trick and the
// in-string bytes by prefix-xor, both on i64 and carried between words, refuses a control byte inside a string
// and a bad escape, and writes the offsets of the line's structural bytes as i32: { } [ ] : , outside strings
// and every unescaped quote ('all'), the opening quotes only ('open', as simdjson) or no quote ('none'). UTF-8
// is not checked (a line with a byte >= 0x80 sets a flag; the kernel would check such lines on their own).
// Passes timed, each over every line:
//   scan           the committed kernel's $scan (no wanted key, as scripts/kernel-ab.mjs runs it)
//   allQuotes, openQuotes, noQuotes, openShufti, openNoEscapeCheck   stage 1 variants
//   classifyOnly   stage 1 without writing offsets (the classification alone)
//   walkFloor      openShufti, then each offset read and its byte loaded: the floor of any stage 2
//   twoStage       openShufti, then a stage 2 sketch: the grammar of compact lines over the offsets, the key
//                  filter test of each top-level key as $scan does it, scalars validated between structurals;
//                  without the slow paths (whitespace between tokens answers -2), the wanted keys' spans and
//                  UTF-8, so its time is a lower bound of a complete stage 2's
//   fused          the same sketch pulling each structural from the current word's mask (no offsets in memory)
// Before timing, every variant's offsets are checked against a byte-at-a-time reference on every line and the
// sketches' verdicts against $scan's (a difference exits 1); the lines they leave to the slow path are counted.
// Timing goes block by block (256 KB of lines), every pass in turn, the order rotated between blocks and rounds.
//
//   node scripts/stage1-proto.mjs [--rounds N] [--kernel KERNEL] FILE...
//
// KERNEL as in scripts/kernel-ab.mjs (a kernel.wat path or git:REV, default git:HEAD); --rounds defaults to 10.
// Prints each pass's median and fastest CPU ms and per line, and its ratio to $scan (the median of the rounds'
// ratios). Exit codes: 0 done, 1 a variant or sketch disagrees with the reference or $scan, 2 bad arguments.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assemble, instantiate, layoutValues } from './gen-line-kernel.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const BLOCK = 256 * 1024;
const DATA_AT = 65536;
const PAD = 64;

// ---- the prototype's text (macros below keep the four-vector patterns in one place)

const V = ['$v0', '$v1', '$v2', '$v3'];
const splat = (c) => `(i8x16.splat (i32.const ${c}))`;
/** The 64-bit mask of f over the four vectors (two 32-bit halves, then one i64). */
const bm64 = (f) =>
  `(i64.or
     (i64.extend_i32_u (i32.or (i8x16.bitmask ${f(V[0])}) (i32.shl (i8x16.bitmask ${f(V[1])}) (i32.const 16))))
     (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask ${f(V[2])}) (i32.shl (i8x16.bitmask ${f(V[3])}) (i32.const 16)))) (i64.const 32)))`;
/** The four vectors' f ored together (to test a whole word at once). */
const any4 = (f) => `(v128.or (v128.or ${f(V[0])} ${f(V[1])}) (v128.or ${f(V[2])} ${f(V[3])}))`;
const eq = (c) => (v) => `(i8x16.eq (local.get ${v}) ${splat(c)})`;
const ctl = (v) => `(i8x16.lt_u (local.get ${v}) ${splat(32)})`;
// { } [ ] : , (or-ing 0x20 folds [ ] onto { }; nothing else lands on them)
const structural = (v) =>
  `(v128.or
     (v128.or (i8x16.eq (v128.or (local.get ${v}) ${splat(32)}) ${splat(123)}) (i8x16.eq (v128.or (local.get ${v}) ${splat(32)}) ${splat(125)}))
     (v128.or (i8x16.eq (local.get ${v}) ${splat(58)}) (i8x16.eq (local.get ${v}) ${splat(44)})))`;
// the same by one table lookup on the low nibble (simdjson's shufti): the table holds , : { } at the nibbles of
// , : [ { and ] }, compared with the byte or 0x20; of the other bytes only 0x0C and 0x1A match (control bytes,
// refused anyway: in a string by the control check, outside by stage 2, which expects no structural there)
const SHUFTI = '(v128.const i8x16 1 1 1 1 1 1 1 1 1 1 0x3A 0x7B 0x2C 0x7D 1 1)';
const shufti = (v) =>
  `(i8x16.eq (i8x16.swizzle ${SHUFTI} (v128.and (local.get ${v}) ${splat(15)})) (v128.or (local.get ${v}) ${splat(32)}))`;
const ISHEX = `
  (func $isHex (param $c i32) (result i32)
    (i32.or
      (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10))
      (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 32)) (i32.const 97)) (i32.const 6))))`;
const prefixXor = (x) =>
  [1, 2, 4, 8, 16, 32].map((s) => `(local.set ${x} (i64.xor (local.get ${x}) (i64.shl (local.get ${x}) (i64.const ${s}))))`).join('\n');
/** Eight offsets of the mask's lowest bits written at $o (unconditionally: the caller advances $o by the count). */
const emit8 = (from) =>
  Array.from({ length: 8 }, (_, i) =>
    `(i32.store offset=${(from + i) * 4} (local.get $o) (i32.add (local.get $p) (i32.wrap_i64 (i64.ctz (local.get $m)))))
     (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))`).join('\n');

/**
 * The prototype's text; opt.emit 'none' only counts the offsets (to measure the classification alone);
 * opt.consts keeps the splatted byte constants in locals set before the loop.
 */
export const stage1Wat = (opt = {}) => {
  const all = stage1Text(opt);
  // the constants of stage 1 only (stage 2's functions keep their own)
  const cut = all.indexOf('(func $digits');
  let text = all.slice(0, cut);
  if (opt.consts) {
    const cs = [...new Set([...text.matchAll(/\(i8x16\.splat \(i32\.const (\d+)\)\)/g)].map((m) => m[1]))];
    text = text.replace(/\(i8x16\.splat \(i32\.const (\d+)\)\)/g, (_, c) => `(local.get $k${c})`);
    text = text.replace('(local.set $o (local.get $out))', `${cs.map((c) => `(local.set $k${c} ${splat(c)})`).join(' ')} (local.set $o (local.get $out))`);
    text = text.replace('(local $o i32)', `${cs.map((c) => `(local $k${c} v128)`).join(' ')} (local $o i32)`);
  }
  return text + all.slice(cut);
};

const stage1Text = (opt) => `
(module
  (memory (export "memory") 1)
  ;; after stage1: 1 = a backslash was seen, 2 = a byte >= 0x80 (UTF-8 left to a check of its own)
  (global $flags (export "flags") (mut i32) (i32.const 0))
${ISHEX}
  ;; The structural offsets of [p, end) written at out: returns their count, or -1 for a control byte inside a
  ;; string or a string left open at the end. Reads up to 63 bytes past end.
  (func (export "stage1") (param $p i32) (param $end i32) (param $out i32) (result i32)
    (local $o i32) (local $n i32) (local $cnt i32) (local $flags i32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128) (local $hi v128)
    (local $valid i64) (local $quote i64) (local $bs i64) (local $m i64) (local $inStr i64) (local $prevIn i64)
    (local $esc i64) (local $nextEsc i64) (local $follows i64) (local $odd i64) (local $seq i64)
    (local.set $o (local.get $out))
    (local.set $hi (v128.const i64x2 0 0))
    (loop $chunk
      (local.set $v0 (v128.load align=1 (local.get $p)))
      (local.set $v1 (v128.load offset=16 align=1 (local.get $p)))
      (local.set $v2 (v128.load offset=32 align=1 (local.get $p)))
      (local.set $v3 (v128.load offset=48 align=1 (local.get $p)))
      (local.set $n (i32.sub (local.get $end) (local.get $p)))
      (local.set $valid
        (select (i64.const -1) (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $n))) (i64.const 1))
          (i32.ge_u (local.get $n) (i32.const 64))))
      (local.set $hi (v128.or (local.get $hi) ${any4((v) => `(local.get ${v})`)}))
      ;; escaped bytes: those after an odd run of backslashes (simdjson's find_escaped)
      (local.set $esc (local.get $nextEsc))
      (local.set $nextEsc (i64.const 0))
      (local.set $bs (i64.const 0))
      (if (v128.any_true ${any4(eq(92))})
        (then
          (local.set $flags (i32.or (local.get $flags) (i32.const 1)))
          (local.set $bs (i64.and (i64.and ${bm64(eq(92))} (local.get $valid)) (i64.xor (local.get $esc) (i64.const -1))))
          (local.set $follows (i64.or (i64.shl (local.get $bs) (i64.const 1)) (local.get $esc)))
          (local.set $odd (i64.and (local.get $bs) (i64.and (i64.const 0xAAAAAAAAAAAAAAAA) (i64.xor (local.get $follows) (i64.const -1)))))
          (local.set $seq (i64.add (local.get $odd) (local.get $bs)))
          (local.set $nextEsc (i64.extend_i32_u (i64.lt_u (local.get $seq) (local.get $odd))))
          (local.set $esc
            (i64.and (i64.xor (i64.const 0x5555555555555555) (i64.shl (local.get $seq) (i64.const 1))) (local.get $follows)))))
      ${opt.escapes ? `(if (i64.ne (i64.const 0) (i64.and (local.get $esc) (local.get $valid)))
        (then
          ;; each escaped byte (one after a run ending in the previous word included) must be one of " \\ / b f n r t, or u and four hex digits (a byte past the word
          ;; is read in place: the memory is contiguous)
          (local.set $m (i64.and (local.get $esc) (local.get $valid)))
          (block $checked
            (loop $escape
              (br_if $checked (i64.eqz (local.get $m)))
              (local.set $n (i32.add (local.get $p) (i32.wrap_i64 (i64.ctz (local.get $m)))))
              (local.set $cnt (i32.load8_u (local.get $n)))
              (if (i32.eq (local.get $cnt) (i32.const 117))
                (then
                  (if (i32.eqz
                        (i32.and
                          (i32.and (call $isHex (i32.load8_u offset=1 (local.get $n))) (call $isHex (i32.load8_u offset=2 (local.get $n))))
                          (i32.and (call $isHex (i32.load8_u offset=3 (local.get $n))) (call $isHex (i32.load8_u offset=4 (local.get $n))))))
                    (then (return (i32.const -1)))))
                (else
                  (if (i32.eqz
                        (i32.or
                          (i32.or
                            (i32.or (i32.eq (local.get $cnt) (i32.const 34)) (i32.eq (local.get $cnt) (i32.const 92)))
                            (i32.or (i32.eq (local.get $cnt) (i32.const 47)) (i32.eq (local.get $cnt) (i32.const 98))))
                          (i32.or
                            (i32.or (i32.eq (local.get $cnt) (i32.const 102)) (i32.eq (local.get $cnt) (i32.const 110)))
                            (i32.or (i32.eq (local.get $cnt) (i32.const 114)) (i32.eq (local.get $cnt) (i32.const 116))))))
                    (then (return (i32.const -1))))))
              (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
              (br $escape)))))` : ''}
      (local.set $quote (i64.and (i64.and ${bm64(eq(34))} (local.get $valid)) (i64.xor (local.get $esc) (i64.const -1))))
      ;; in-string bytes: from an opening quote up to its closing one (exclusive)
      (local.set $inStr (local.get $quote))
      ${prefixXor('$inStr')}
      (local.set $inStr (i64.xor (local.get $inStr) (local.get $prevIn)))
      (local.set $prevIn (i64.shr_s (local.get $inStr) (i64.const 63)))
      ;; a backslash outside strings is never JSON (and the byte it escapes must not pass for a closing quote)
      (if (i64.ne (i64.const 0) (i64.and (local.get $bs) (i64.xor (local.get $inStr) (i64.const -1))))
        (then (return (i32.const -1))))
      (if ${opt.minCtl ? `(v128.any_true (i8x16.lt_u (i8x16.min_u (i8x16.min_u (local.get $v0) (local.get $v1)) (i8x16.min_u (local.get $v2) (local.get $v3))) ${splat(32)}))` : `(v128.any_true ${any4(ctl)})`}
        (then
          (if (i64.ne (i64.const 0) (i64.and (i64.and ${bm64(ctl)} (local.get $valid)) (local.get $inStr)))
            (then (return (i32.const -1))))))
      (local.set $m
        (i64.and (local.get $valid)
          (i64.or
            ${opt.quotes === 'open' ? '(i64.and (local.get $quote) (local.get $inStr))' : opt.quotes === 'none' ? '(i64.const 0)' : '(local.get $quote)'}
            (i64.and ${bm64(opt.shufti ? shufti : structural)} (i64.xor (local.get $inStr) (i64.const -1))))))
      (local.set $cnt (i32.wrap_i64 (i64.popcnt (local.get $m))))
      ${opt.emit === 'none' ? '(i32.store (local.get $o) (i32.wrap_i64 (local.get $m)))' : `${emit8(0)}
      (if (i32.gt_u (local.get $cnt) (i32.const 8))
        (then
          ${emit8(8)}
          (if (i32.gt_u (local.get $cnt) (i32.const 16))
            (then
              (local.set $n (i32.add (local.get $o) (i32.const 64)))
              (block $done
                (loop $rest
                  (br_if $done (i64.eqz (local.get $m)))
                  (i32.store (local.get $n) (i32.add (local.get $p) (i32.wrap_i64 (i64.ctz (local.get $m)))))
                  (local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))
                  (local.set $n (i32.add (local.get $n) (i32.const 4)))
                  (br $rest)))))))`}
      (local.set $o (i32.add (local.get $o) (i32.shl (local.get $cnt) (i32.const 2))))
      (local.set $p (i32.add (local.get $p) (i32.const 64)))
      (br_if $chunk (i32.lt_u (local.get $p) (local.get $end))))
    (global.set $flags (i32.or (local.get $flags) (i32.shl (i32.ne (i8x16.bitmask (local.get $hi)) (i32.const 0)) (i32.const 1))))
    (if (i64.ne (local.get $prevIn) (i64.const 0)) (then (return (i32.const -1))))
    ;; a sentinel after the offsets: the line's end (a byte below 0x20, no structural), where stage 2 stops
    (i32.store (local.get $o) (local.get $end))
    (i32.shr_u (i32.sub (local.get $o) (local.get $out)) (i32.const 2)))
${STAGE2}
)
`;


// A stage 2 sketch over stage 1's 'open' offsets ({ } [ ] : , outside strings and opening quotes): the grammar of
// compact lines only (no whitespace between tokens: a line that has some answers -2, "slow path"), the key filter
// test of each top-level key as $scan does it, scalars validated between structurals. What it leaves out (the
// slow paths, wanted keys' spans, UTF-8) makes its time a lower bound of a full stage 2's.
const STAGE2 = `
  (func $digits (param $p i32) (result i32)
    (local $bits i32)
    (loop $chunk
      (local.set $bits
        (i8x16.bitmask
          (i8x16.gt_u (i8x16.sub (v128.load align=1 (local.get $p)) (i8x16.splat (i32.const 48))) (i8x16.splat (i32.const 9)))))
      (if (i32.eqz (local.get $bits))
        (then
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br $chunk))))
    (i32.add (local.get $p) (i32.ctz (local.get $bits))))
  (func $num (param $p i32) (result i32)
    (local $c i32)
    (local $q i32)
    (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 45)) (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))
    (local.set $c (i32.load8_u (local.get $p)))
    (if (i32.eq (local.get $c) (i32.const 48))
      (then (local.set $p (i32.add (local.get $p) (i32.const 1))))
      (else
        (if (i32.ge_u (i32.sub (local.get $c) (i32.const 49)) (i32.const 9)) (then (return (i32.const -1))))
        (local.set $p (call $digits (i32.add (local.get $p) (i32.const 1))))))
    (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 46))
      (then
        (local.set $q (call $digits (i32.add (local.get $p) (i32.const 1))))
        (if (i32.eq (local.get $q) (i32.add (local.get $p) (i32.const 1))) (then (return (i32.const -1))))
        (local.set $p (local.get $q))))
    (if (i32.eq (i32.or (i32.load8_u (local.get $p)) (i32.const 32)) (i32.const 101))
      (then
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $p)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
          (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))
        (local.set $q (call $digits (local.get $p)))
        (if (i32.eq (local.get $q) (local.get $p)) (then (return (i32.const -1))))
        (local.set $p (local.get $q))))
    (local.get $p))
  (func $scalar (param $p i32) (result i32)
    (local $c i32)
    (local.set $c (i32.load8_u (local.get $p)))
    (if (i32.eq (local.get $c) (i32.const 116))
      (then (return (select (i32.add (local.get $p) (i32.const 4)) (i32.const -1) (i32.eq (i32.load align=1 (local.get $p)) (i32.const 0x65757274))))))
    (if (i32.eq (local.get $c) (i32.const 110))
      (then (return (select (i32.add (local.get $p) (i32.const 4)) (i32.const -1) (i32.eq (i32.load align=1 (local.get $p)) (i32.const 0x6c6c756e))))))
    (if (i32.eq (local.get $c) (i32.const 102))
      (then (return (select (i32.add (local.get $p) (i32.const 5)) (i32.const -1) (i32.eq (i32.load offset=1 align=1 (local.get $p)) (i32.const 0x65736c61))))))
    (call $num (local.get $p)))

  ;; The floor of any stage 2: each of the n offsets at i read and the byte there loaded, nothing decided.
  (func (export "walk") (param $i i32) (param $n i32) (result i32)
    (local $x i32) (local $stop i32)
    (local.set $stop (i32.add (local.get $i) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $stop)))
        (local.set $x (i32.add (local.get $x) (i32.load8_u (i32.load (local.get $i)))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $next)))
    (local.get $x))

  ;; The line [p, end) whose offsets stage 1 wrote at i (sentinel-ended): 1 valid, 0 not, -2 slow path. The
  ;; nesting stack: a bit per level at $stackAt (1 object, 0 array). The key filter: 64 i64 at $filterAt.
  (func (export "stage2") (param $p i32) (param $end i32) (param $i i32) (param $stackAt i32) (param $filterAt i32) (result i32)
    (local $a i32) (local $b i32) (local $c i32) (local $v i32) (local $x i32) (local $depth i32) (local $len i32)
    (local $at i32) (local $bit i32) (local $state i32)
    (if (i32.ne (i32.load (local.get $i)) (local.get $p)) (then (return (i32.const -2))))
    (if (i32.ne (i32.load8_u (local.get $p)) (i32.const 123)) (then (return (i32.const 0))))
    (local.set $depth (i32.const 1))
    (i32.store8 (local.get $stackAt) (i32.const 2))
    (local.set $a (local.get $p))
    (local.set $i (i32.add (local.get $i) (i32.const 4)))
    ;; states: 0 after '{' at a, 1 a value in an array after a, 2 after '[' at a, 3 a structural at a after a value
    (loop $machine
      (block $held
        (block $arrayValue
          (block $arrayOpen
            (block $objectOpen
              (br_table $objectOpen $arrayValue $arrayOpen $held (local.get $state)))
            ;; after '{': '}' or the first key
            (local.set $b (i32.load (local.get $i)))
            (if (i32.and (i32.eq (local.get $b) (i32.add (local.get $a) (i32.const 1))) (i32.eq (i32.load8_u (local.get $b)) (i32.const 125)))
              (then
                (local.set $i (i32.add (local.get $i) (i32.const 4)))
                (local.set $a (local.get $b))
                ;; the close is handled as one after a value
                (local.set $state (i32.const 3))
                (br $machine)))
            (loop $member
              ;; the key's opening quote right after a ('{' or ','), its closing quote right before ':'
              (local.set $b (i32.load (local.get $i)))
              (local.set $c (i32.load offset=4 (local.get $i)))
              (if (i32.ne (local.get $b) (i32.add (local.get $a) (i32.const 1))) (then (return (i32.const -2))))
              (if (i32.ne (i32.load8_u (local.get $b)) (i32.const 34)) (then (return (i32.const 0))))
              (if (i32.ne (i32.load8_u (local.get $c)) (i32.const 58)) (then (return (i32.const 0))))
              (if (i32.ne (i32.load8_u (i32.sub (local.get $c) (i32.const 1))) (i32.const 34)) (then (return (i32.const -2))))
              (if (i32.eq (local.get $depth) (i32.const 1))
                (then
                  (local.set $len (i32.sub (i32.sub (local.get $c) (local.get $b)) (i32.const 2)))
                  (if (i64.ne (i64.const 0)
                        (i64.and
                          (i64.load (i32.add (local.get $filterAt)
                            (i32.shl (select (local.get $len) (i32.const 63) (i32.lt_u (local.get $len) (i32.const 63))) (i32.const 3))))
                          (i64.shl (i64.const 1) (i64.extend_i32_u (i32.load8_u (i32.sub (local.get $c) (i32.const 2)))))))
                    (then (return (i32.const -2))))))
              (local.set $i (i32.add (local.get $i) (i32.const 8)))
              ;; the value right after ':'
              (local.set $v (i32.add (local.get $c) (i32.const 1)))
              (local.set $x (i32.load8_u (local.get $v)))
              (local.set $b (i32.load (local.get $i)))
              (if (i32.eq (local.get $x) (i32.const 34))
                (then
                  ;; a string: its opening quote is the next offset, its closing quote is right before the one after
                  (local.set $c (i32.load offset=4 (local.get $i)))
                  (if (i32.ne (local.get $b) (local.get $v)) (then (return (i32.const 0))))
                  (if (i32.ne (i32.load8_u (i32.sub (local.get $c) (i32.const 1))) (i32.const 34)) (then (return (i32.const -2))))
                  (local.set $i (i32.add (local.get $i) (i32.const 8)))
                  (local.set $a (local.get $c)))
                (else
                  (if (i32.or (i32.eq (local.get $x) (i32.const 123)) (i32.eq (local.get $x) (i32.const 91)))
                    (then
                      (if (i32.ne (local.get $b) (local.get $v)) (then (return (i32.const 0))))
                      (local.set $i (i32.add (local.get $i) (i32.const 4)))
                      (local.set $a (local.get $v))
                      (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
                      (local.set $at (i32.add (local.get $stackAt) (i32.shr_u (local.get $depth) (i32.const 3))))
                      (local.set $bit (i32.shl (i32.const 1) (i32.and (local.get $depth) (i32.const 7))))
                      (if (i32.eq (local.get $x) (i32.const 123))
                        (then
                          (i32.store8 (local.get $at) (i32.or (i32.load8_u (local.get $at)) (local.get $bit)))
                          (local.set $state (i32.const 0)))
                        (else
                          (i32.store8 (local.get $at) (i32.and (i32.load8_u (local.get $at)) (i32.xor (local.get $bit) (i32.const -1))))
                          (local.set $state (i32.const 2))))
                      (br $machine)))
                  ;; a scalar: it must end exactly at the next structural
                  (if (i32.ne (call $scalar (local.get $v)) (local.get $b)) (then (return (i32.const -2))))
                  (local.set $i (i32.add (local.get $i) (i32.const 4)))
                  (local.set $a (local.get $b))))
              ;; after a member: ',' goes on with the next key, anything else to the machine
              (if (i32.eq (i32.load8_u (local.get $a)) (i32.const 44)) (then (br $member)))
              (local.set $state (i32.const 3))
              (br $machine)))
          ;; after '[': ']' or the first value
          (local.set $b (i32.load (local.get $i)))
          (if (i32.and (i32.eq (local.get $b) (i32.add (local.get $a) (i32.const 1))) (i32.eq (i32.load8_u (local.get $b)) (i32.const 93)))
            (then
              (local.set $i (i32.add (local.get $i) (i32.const 4)))
              (local.set $a (local.get $b))
              (local.set $state (i32.const 3))
              (br $machine))))
        ;; a value in an array, right after a
        (local.set $v (i32.add (local.get $a) (i32.const 1)))
        (local.set $x (i32.load8_u (local.get $v)))
        (local.set $b (i32.load (local.get $i)))
        (if (i32.eq (local.get $x) (i32.const 34))
          (then
            (local.set $c (i32.load offset=4 (local.get $i)))
            (if (i32.ne (local.get $b) (local.get $v)) (then (return (i32.const 0))))
            (if (i32.ne (i32.load8_u (i32.sub (local.get $c) (i32.const 1))) (i32.const 34)) (then (return (i32.const -2))))
            (local.set $i (i32.add (local.get $i) (i32.const 8)))
            (local.set $a (local.get $c))
            (local.set $state (i32.const 3))
            (br $machine)))
        (if (i32.or (i32.eq (local.get $x) (i32.const 123)) (i32.eq (local.get $x) (i32.const 91)))
          (then
            (if (i32.ne (local.get $b) (local.get $v)) (then (return (i32.const 0))))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (local.set $a (local.get $v))
            (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
            (local.set $at (i32.add (local.get $stackAt) (i32.shr_u (local.get $depth) (i32.const 3))))
            (local.set $bit (i32.shl (i32.const 1) (i32.and (local.get $depth) (i32.const 7))))
            (if (i32.eq (local.get $x) (i32.const 123))
              (then
                (i32.store8 (local.get $at) (i32.or (i32.load8_u (local.get $at)) (local.get $bit)))
                (local.set $state (i32.const 0)))
              (else
                (i32.store8 (local.get $at) (i32.and (i32.load8_u (local.get $at)) (i32.xor (local.get $bit) (i32.const -1))))
                (local.set $state (i32.const 2))))
            (br $machine)))
        (if (i32.ne (call $scalar (local.get $v)) (local.get $b)) (then (return (i32.const -2))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (local.set $a (local.get $b))
        (local.set $state (i32.const 3))
        (br $machine))
      ;; a structural at a after a value: ',' or the innermost container's close
      (local.set $x (i32.load8_u (local.get $a)))
      (local.set $bit
        (i32.and
          (i32.shr_u (i32.load8_u (i32.add (local.get $stackAt) (i32.shr_u (local.get $depth) (i32.const 3)))) (i32.and (local.get $depth) (i32.const 7)))
          (i32.const 1)))
      (if (i32.eq (local.get $x) (i32.const 44))
        (then
          (if (local.get $bit)
            (then
              ;; the next key: as after '{' but without the '}' case (a trailing comma is refused there)
              (local.set $b (i32.load (local.get $i)))
              (if (i32.ne (i32.load8_u (local.get $b)) (i32.const 34)) (then (return (i32.const 0))))
              (local.set $state (i32.const 0))
              (br $machine)))
          (local.set $state (i32.const 1))
          (br $machine)))
      (if (i32.ne (local.get $x) (select (i32.const 125) (i32.const 93) (local.get $bit))) (then (return (i32.const 0))))
      (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
      (if (i32.eqz (local.get $depth))
        ;; (whitespace after the line's object: the slow path)
        (then (return (select (i32.const 1) (i32.const -2) (i32.and (i32.eq (i32.add (local.get $a) (i32.const 1)) (local.get $end)) (i32.eq (i32.load (local.get $i)) (local.get $end)))))))
      ;; the value that closed ends here: the next structural must follow at once
      (local.set $b (i32.load (local.get $i)))
      (if (i32.ne (local.get $b) (i32.add (local.get $a) (i32.const 1))) (then (return (i32.const -2))))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (local.set $a (local.get $b))
      (br $machine))
    (unreachable))
`;

// ---- a fused sketch: no offsets written; the stage 2 sketch pulls each structural from the current word's
// mask, and a word is classified (stage 1's body, as a function keeping its carries in globals) when the mask
// runs out. Saves writing and reading the offsets; the grammar and the classification share no loop.

/** The module: stage 1's word body as $word, the stage 2 sketch rewritten to pull from the mask. */
export function fusedWat() {
  const text = stage1Text({ minCtl: true, escapes: true, quotes: 'open', shufti: true });
  const body = text.slice(text.indexOf('(loop $chunk') + '(loop $chunk'.length, text.indexOf('(local.set $cnt (i32.wrap_i64'));
  const word = `
  (global $prevIn (mut i64) (i64.const 0))
  (global $nextEsc (mut i64) (i64.const 0))
  (global $bad (mut i32) (i32.const 0))
  ;; the mask of the word at p: opening quotes and { } [ ] : , outside strings, and the line's end (a sentinel)
  (func $word (param $p i32) (param $end i32) (result i64)
    (local $n i32) (local $cnt i32) (local $flags i32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128) (local $hi v128)
    (local $valid i64) (local $quote i64) (local $bs i64) (local $m i64) (local $inStr i64) (local $prevIn i64)
    (local $esc i64) (local $nextEsc i64) (local $follows i64) (local $odd i64) (local $seq i64)
    (if (i32.gt_u (local.get $p) (local.get $end)) (then (return (i64.const 1))))
    (local.set $prevIn (global.get $prevIn))
    (local.set $nextEsc (global.get $nextEsc))
    ${body.replaceAll('(return (i32.const -1))', '(global.set $bad (i32.const 1))')}
    (global.set $prevIn (local.get $prevIn))
    (global.set $nextEsc (local.get $nextEsc))
    (local.set $n (i32.sub (local.get $end) (local.get $p)))
    (if (i32.lt_u (local.get $n) (i32.const 64))
      (then (local.set $m (i64.or (local.get $m) (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $n)))))))
    (local.get $m))
`;
  const ENSURE = `(block $h (loop $r (br_if $h (i64.ne (local.get $m) (i64.const 0))) (local.set $wb (local.get $w))
      (local.set $m (call $word (local.get $w) (local.get $end))) (local.set $w (i32.add (local.get $w) (i32.const 64))) (br $r)))`;
  const PEEK = '(i32.add (local.get $wb) (i32.wrap_i64 (i64.ctz (local.get $m))))';
  const CONSUME = '(local.set $m (i64.and (local.get $m) (i64.sub (local.get $m) (i64.const 1))))';
  let s2 = STAGE2.slice(STAGE2.indexOf(';; The line [p, end) whose offsets'));
  const swap = (from, to) => {
    if (!s2.includes(from)) throw new Error(`fusedWat: ${from} not found`);
    s2 = s2.replaceAll(from, to);
  };
  swap('(func (export "stage2") (param $p i32) (param $end i32) (param $i i32) (param $stackAt i32) (param $filterAt i32) (result i32)',
    `(func (export "fused") (param $p i32) (param $end i32) (param $stackAt i32) (param $filterAt i32) (result i32)
    (local $m i64) (local $w i32) (local $wb i32)`);
  swap('(if (i32.ne (i32.load (local.get $i)) (local.get $p)) (then (return (i32.const -2))))',
    `(global.set $prevIn (i64.const 0)) (global.set $nextEsc (i64.const 0)) (global.set $bad (i32.const 0))
    (local.set $w (local.get $p))
    ${ENSURE} (if (i32.ne ${PEEK} (local.get $p)) (then (return (i32.const -2))))`);
  swap('(local.set $i (i32.add (local.get $i) (i32.const 4)))', CONSUME);
  swap('(local.set $i (i32.add (local.get $i) (i32.const 8)))', CONSUME);
  swap('(local.set $b (i32.load (local.get $i)))', `${ENSURE} (local.set $b ${PEEK})`);
  swap('(local.set $c (i32.load offset=4 (local.get $i)))', `${CONSUME} ${ENSURE} (local.set $c ${PEEK})`);
  swap('(then (return (select (i32.const 1) (i32.const -2) (i32.and (i32.eq (i32.add (local.get $a) (i32.const 1)) (local.get $end)) (i32.eq (i32.load (local.get $i)) (local.get $end)))))))',
    `(then
          ${ENSURE}
          (if (i32.or (global.get $bad) (i64.ne (global.get $prevIn) (i64.const 0))) (then (return (i32.const 0))))
          (return (select (i32.const 1) (i32.const -2) (i32.and (i32.eq (i32.add (local.get $a) (i32.const 1)) (local.get $end)) (i32.eq ${PEEK} (local.get $end)))))))`);
  if (/\$i\b/.test(s2.replace(/\$isHex/g, ''))) throw new Error('fusedWat: an offset read is left');
  return `(module\n  (memory (export "memory") 1)\n  (global $flags (mut i32) (i32.const 0))\n${ISHEX}\n${word}\n${STAGE2.slice(0, STAGE2.indexOf(';; The line [p, end) whose offsets'))}\n  ${s2}\n)`;
}

// ---- the JavaScript reference: the same offsets, a byte at a time

/** The structural offsets of bytes [s, e) (relative to s), or -1 as stage1 answers. */
export function referenceStage1(bytes, s, e, quotes = 'all') {
  const out = [];
  let inStr = false;
  for (let i = s; i < e; i++) {
    const c = bytes[i];
    if (c === 92) {
      // a backslash outside strings is never JSON
      if (!inStr) return -1;
      // (one ending the line leaves its string open)
      if (i + 1 >= e) continue;
      const x = bytes[++i];
      if (x === 117) {
        if (![1, 2, 3, 4].every((k) => /[0-9a-fA-F]/.test(String.fromCharCode(bytes[i + k] ?? 0)))) return -1;
      } else if (!'"\\/bfnrt'.includes(String.fromCharCode(x))) return -1;
    } else if (inStr) {
      if (c === 34) {
        if (quotes === 'all') out.push(i - s);
        inStr = false;
      }
      else if (c < 32) return -1;
    } else if (c === 34) {
      if (quotes !== 'none') out.push(i - s);
      inStr = true;
    }
    else if (c === 123 || c === 125 || c === 91 || c === 93 || c === 58 || c === 44) out.push(i - s);
  }
  return inStr ? -1 : out;
}

// ---- the measurement

function fail(message) {
  console.error(`stage1-proto: ${message}`);
  process.exit(2);
}

function kernelText(spec) {
  try {
    if (spec.startsWith('git:'))
      return execFileSync('git', ['show', `${spec.slice(4)}:packages/core/src/eval/kernel.wat`], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] });
    return readFileSync(spec, 'utf8');
  } catch (e) {
    fail(`${spec}: ${String(e.stderr || e.message).trim().split('\n')[0]}`);
  }
}

function blocks(files) {
  const out = [];
  for (const file of files) {
    let data;
    try {
      data = readFileSync(file);
    } catch (e) {
      fail(`${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
    }
    for (let s = 0; s < data.length; ) {
      let e = data.indexOf(10, Math.min(s + BLOCK, data.length - 1));
      e = e < 0 ? data.length : e + 1;
      const bytes = data.subarray(s, e);
      const spans = [];
      for (let p = 0; p < bytes.length; ) {
        let q = bytes.indexOf(10, p);
        if (q < 0) q = bytes.length;
        if (bytes.subarray(p, q).some((c) => c !== 32 && c !== 9 && c !== 13)) spans.push(p, q);
        p = q + 1;
      }
      out.push({ bytes, spans: Int32Array.from(spans), first: out.reduce((n, x) => n + x.spans.length / 2, 0) });
      s = e;
    }
  }
  return out;
}

function grow(ex, need) {
  if (need > ex.memory.buffer.byteLength) ex.memory.grow(Math.ceil((need - ex.memory.buffer.byteLength) / 65536));
}

const cpu = (t) => {
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const opt = { rounds: 10, kernel: 'git:HEAD', files: [] };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') {
      opt.rounds = Number(argv[++i]);
      if (!Number.isInteger(opt.rounds) || opt.rounds < 1 || opt.rounds > 1000) fail(`--rounds must be an integer from 1 to 1000, got ${argv[i]}`);
    } else if (argv[i] === '--kernel') {
      if (i + 1 >= argv.length) fail('--kernel needs a kernel (a kernel.wat path or git:REV)');
      opt.kernel = argv[++i];
    } else if (argv[i].startsWith('--')) fail(`unknown option ${argv[i]}`);
    else opt.files.push(argv[i]);
  }
  if (!opt.files.length) fail('give at least one NDJSON file');
  const list = blocks(opt.files);
  const lines = list.reduce((n, b) => n + b.spans.length / 2, 0);
  const maxBlock = Math.max(...list.map((b) => b.bytes.length));

  const kx = new WebAssembly.Instance(new WebAssembly.Module(await assemble(instantiate(kernelText(opt.kernel), layoutValues()))), {}).exports;
  grow(kx, DATA_AT + maxBlock + PAD);
  kx.init(1024, 63, 2048, 4096, 0, 0, 8192);
  kx.setStack(16384);
  const OUT_AT = DATA_AT + maxBlock + PAD;
  const build = async (o) => {
    const ex = new WebAssembly.Instance(new WebAssembly.Module(await assemble(stage1Wat(o))), {}).exports;
    // the offsets go after the data: at most one per byte, plus a word's unconditional writes
    grow(ex, OUT_AT + 4 * (maxBlock + 128));
    return ex;
  };
  // the stage 1 variants: which quotes they write (all, opening ones only, none), each checked against the reference
  const variants = {
    allQuotes: { ex: await build({ consts: true, minCtl: true, escapes: true }), quotes: 'all' },
    openQuotes: { ex: await build({ consts: true, minCtl: true, escapes: true, quotes: 'open' }), quotes: 'open' },
    noQuotes: { ex: await build({ consts: true, minCtl: true, escapes: true, quotes: 'none' }), quotes: 'none' },
    openShufti: { ex: await build({ consts: true, minCtl: true, escapes: true, quotes: 'open', shufti: true }), quotes: 'open' },
    // the cost of checking the escapes: stage 1 without it (not a complete stage 1)
    openNoEscapeCheck: { ex: await build({ consts: true, minCtl: true, quotes: 'open' }), quotes: 'open' },
    classifyOnly: { ex: await build({ consts: true, minCtl: true, escapes: true, shufti: true, emit: 'none' }) },
  };
  const fx = new WebAssembly.Instance(new WebAssembly.Module(await assemble(fusedWat())), {}).exports;
  grow(fx, DATA_AT + maxBlock + PAD);
  const STACK_AT = 16384;
  const FILTER_AT = 0;

  const load = (ex, b) => {
    const u8 = new Uint8Array(ex.memory.buffer);
    u8.set(b.bytes, DATA_AT);
    u8.fill(0, DATA_AT + b.bytes.length, DATA_AT + b.bytes.length + PAD);
  };
  const verdicts = new Int32Array(lines);
  let slow = { twoStage: 0, fused: 0 };
  // each pass scans one block's lines and returns its CPU ms (the block is copied in untimed); with `check`, a
  // sketch's verdict must be $scan's (or -2, the slow path, counted)
  const agree = (name, v, k, check) => {
    if (!check) return;
    if (v === -2) slow[name]++;
    else if (v !== verdicts[k]) {
      console.error(`stage1-proto: the ${name} sketch answers ${v}, $scan ${verdicts[k]} on line ${k + 1}`);
      process.exit(1);
    }
  };
  const passes = {
    scan(b) {
      load(kx, b);
      const s = b.spans;
      let k = b.first;
      const t0 = process.cpuUsage();
      for (let j = 0; j < s.length; j += 2) verdicts[k++] = kx.scan(DATA_AT + s[j], DATA_AT + s[j + 1]);
      return cpu(t0);
    },
    ...Object.fromEntries(Object.entries(variants).map(([name, { ex }]) => [name, (b) => {
      load(ex, b);
      const s = b.spans;
      const t0 = process.cpuUsage();
      for (let j = 0; j < s.length; j += 2) ex.stage1(DATA_AT + s[j], DATA_AT + s[j + 1], OUT_AT);
      return cpu(t0);
    }])),
    // stage 1 (opening quotes, shufti) then the floor of any stage 2
    walkFloor(b) {
      const ex = variants.openShufti.ex;
      load(ex, b);
      const s = b.spans;
      const t0 = process.cpuUsage();
      for (let j = 0; j < s.length; j += 2) {
        const n = ex.stage1(DATA_AT + s[j], DATA_AT + s[j + 1], OUT_AT);
        if (n > 0) ex.walk(OUT_AT, n);
      }
      return cpu(t0);
    },
    // the fused sketch: one call per line, no offsets in memory
    fused(b, check) {
      load(fx, b);
      const s = b.spans;
      const t0 = process.cpuUsage();
      for (let j = 0, k = b.first; j < s.length; j += 2, k++)
        agree('fused', fx.fused(DATA_AT + s[j], DATA_AT + s[j + 1], STACK_AT, FILTER_AT), k, check);
      return cpu(t0);
    },
    // stage 1 (opening quotes, shufti) then the stage 2 sketch, line by line
    twoStage(b, check) {
      const ex = variants.openShufti.ex;
      load(ex, b);
      const s = b.spans;
      const t0 = process.cpuUsage();
      for (let j = 0, k = b.first; j < s.length; j += 2, k++) {
        const n = ex.stage1(DATA_AT + s[j], DATA_AT + s[j + 1], OUT_AT);
        agree('twoStage', n < 0 ? 0 : ex.stage2(DATA_AT + s[j], DATA_AT + s[j + 1], OUT_AT, STACK_AT, FILTER_AT), k, check);
      }
      return cpu(t0);
    },
  };
  // first, unmeasured: every variant's offsets against the reference, the sketches' verdicts against $scan's
  for (const b of list) passes.scan(b);
  for (const [name, { ex, quotes }] of Object.entries(variants)) {
    if (!quotes) continue;
    const i32 = new Int32Array(ex.memory.buffer);
    for (const b of list) {
      load(ex, b);
      const s = b.spans;
      for (let j = 0; j < s.length; j += 2) {
        const n = ex.stage1(DATA_AT + s[j], DATA_AT + s[j + 1], OUT_AT);
        const ref = referenceStage1(b.bytes, s[j], s[j + 1], quotes);
        const got = n < 0 ? -1 : Array.from(i32.subarray(OUT_AT / 4, OUT_AT / 4 + n), (x) => x - DATA_AT - s[j]);
        if (JSON.stringify(got) !== JSON.stringify(ref)) {
          console.error(`stage1-proto: ${name} differs from the reference on ${new TextDecoder().decode(b.bytes.subarray(s[j], Math.min(s[j + 1], s[j] + 200)))}...`);
          process.exit(1);
        }
      }
    }
  }
  for (const b of list) passes.twoStage(b, true), passes.fused(b, true);
  console.log(`slow path (lines the sketches leave to a slower path): two-stage ${slow.twoStage}, fused ${slow.fused} of ${lines}`);
  // the rounds: block by block, every pass in turn, the order rotated from block to block and round to round,
  // so that other work on the machine weighs on all passes alike
  const names = Object.keys(passes);
  const times = Object.fromEntries(names.map((n) => [n, new Array(opt.rounds).fill(0)]));
  for (let r = 0; r < opt.rounds; r++)
    list.forEach((b, bi) => {
      for (let x = 0; x < names.length; x++) {
        const n = names[(x + r + bi) % names.length];
        times[n][r] += passes[n](b);
      }
    });
  const bytes = list.reduce((n, b) => n + b.bytes.length, 0);
  console.log(`${lines} lines, ${(bytes / 1e6).toFixed(1)} MB, ${opt.rounds} rounds, load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}; CPU ms per pass:`);
  for (const n of names)
    console.log(`  ${n.padEnd(12)} median ${median(times[n]).toFixed(1)}, fastest ${Math.min(...times[n]).toFixed(1)} (${((median(times[n]) * 1e6) / lines).toFixed(0)} ns per line)`);
  for (const n of names.slice(1))
    console.log(`  ${n} / scan (median of the rounds' ratios): ${median(times[n].map((t, i) => t / times.scan[i])).toFixed(3)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
