;; The line kernel: validates one NDJSON line as JSON.parse would accept it as a JSON object (RFC 8259, plus
;; UTF-8 validity, so the verdict is exact without any other check) and, in the same pass, records the value
;; span of the LAST top-level occurrence of each wanted key (JSON.parse keeps the last duplicate). $find is the
;; prefilter's needle search over the same loaded block.
;;
;; Compiled by scripts/gen-line-kernel.mjs (wabt) into line-kernel.generated.ts; the JS side is line-kernel.ts,
;; which lays out memory and reads the results. No recursion: nesting is a bit stack in memory (1 = object,
;; 0 = array), so any depth is validated.
;;
;; Memory layout: the sizes and offsets are kernel-layout.mjs's, written here as placeholders (each NAME in
;; double braces) that scripts/gen-line-kernel.mjs replaces before assembling; line-kernel.ts reads the same
;; table, places the regions and passes their offsets to $init and $setStack:
;;   filter[len]          FILTER_BYTES per key length (0 to 63, 63 for longer keys): an i64 whose bit b is set
;;                        when some wanted key of that length ends with a byte equal to b modulo 64 (an empty
;;                        key counts its closing quote); a key of the line whose bit is clear is not hashed
;;   slots[h]             SLOT_BYTES per hash slot (a power of two of them): 1 + index of the first wanted key
;;                        whose hash is h, 0 = none; the hash of a key is (fingerprint ^ length) * HASH_FACTOR >>
;;                        shift, where the fingerprint is its last 8 bytes (its bytes zero-padded when shorter)
;;   keys[k]              KEY_BYTES: offset of the key's bytes (KEY_AT), 1 + index of the next key of the same
;;                        slot (KEY_NEXT), its first and last 8 bytes, zero-padded when shorter (KEY_FIRST,
;;                        KEY_LAST), its length (KEY_LENGTH)
;;   out[k]               OUT_BYTES: start and end (exclusive) of the value (OUT_START, OUT_END; start -1 when
;;                        absent), flags (OUT_FLAGS: 1 = a string value with escapes), hash of a string value of
;;                        at most HASH_MAX_BYTES without escapes (OUT_HASH, 0 = none)
;;   needle               up to NEEDLE_BYTES: the needle $find looks for
;;   scratch              UNESCAPE_BYTES + PAD: where $eval decodes a string value with escapes ($unescape), so that
;;                        its string leaves decide it on the decoded bytes instead of handing the line to JS
;;   clauses              the prefilter $scanBlock may apply: CLAUSE_BYTES per clause (its needle records and
;;                        trigger units: offsets and counts), PIECE_BYTES per needle (offset, length, rare offsets),
;;                        the trigger code units (i32) and the needles' bytes
;;   line bytes           the caller's data; the byte at `end` must be below 0x20 (the line's \n or \r, or a 0
;;                        the caller writes) and PAD (32) readable bytes must follow it, so string scanning needs
;;                        no bounds check and may load 32 bytes ahead
;;   stack                one bit per nesting level, at least (end - start) / 8 + 2 bytes
;;
;; Result of $scan: 0 = not a JSON object line, 1 = valid, 2 = valid but a top-level key is spelled with escapes
;; (its name was not compared: the caller resolves the line another way).
(module
  (memory (export "memory") 1)
  (global $slots (mut i32) (i32.const 0))
  (global $shift (mut i64) (i64.const 0))
  (global $keys (mut i32) (i32.const 0))
  (global $out (mut i32) (i32.const 0))
  (global $nkeys (mut i32) (i32.const 0))
  ;; the scratch region (see the layout above)
  (global $scratch (mut i32) (i32.const 0))
  (global $stack (mut i32) (i32.const 0))
  ;; set by $str: whether the string just scanned holds a backslash
  (global $esc (mut i32) (i32.const 0))
  ;; the key filter (see the layout above): most keys of a line are sent away on their length and last byte
  (global $filter (mut i32) (i32.const 0))
  ;; 1 when the line feed is whitespace (see $ws): not while $scanBlock runs
  (global $lfSpace (mut i32) (i32.const 1))
  ;; where $scan's valid line ended: its end, or the line feed after it
  (global $stop (mut i32) (i32.const 0))
  ;; the filter's program (its node records), 0 for none; the fields-seen flags, 0 when not wanted
  (global $prog (mut i32) (i32.const 0))
  (global $seen (mut i32) (i32.const 0))
  ;; $scanBlock's progress: physical and non-blank lines so far, and where the next call goes on
  (global $lines (export "lines") (mut i32) (i32.const 0))
  (global $total (export "total") (mut i32) (i32.const 0))
  ;; set by $walk: the first backslash of the line it walked (or its end), and 1 when the needle it was given occurs in it
  (global $bs (mut i32) (i32.const 0))
  (global $hit (mut i32) (i32.const 0))
  ;; the lines scanned (all non-blank ones but those a prefilter let $scanBlock skip)
  (global $read (export "read") (mut i32) (i32.const 0))
  (global $next (export "next") (mut i32) (i32.const 0))

  (func (export "init") (param $slots i32) (param $shift i32) (param $keys i32) (param $out i32) (param $nkeys i32) (param $filter i32) (param $scratch i32)
    (global.set $scratch (local.get $scratch))
    (global.set $filter (local.get $filter))
    (global.set $slots (local.get $slots))
    (global.set $shift (i64.extend_i32_u (local.get $shift)))
    (global.set $keys (local.get $keys))
    (global.set $out (local.get $out))
    (global.set $nkeys (local.get $nkeys)))

  (func (export "setStack") (param $at i32)
    (global.set $stack (local.get $at)))

  ;; JSON whitespace at p, within the line. The line feed counts only for $scan called alone ($lfSpace): a line
;; holds none, and in a block read by $scanBlock it ends the line.
  (func $ws (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $p)))
        (br_if $done
          (i32.eqz
            (i32.or
              (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 9)))
              (i32.or (i32.and (i32.eq (local.get $c) (i32.const 10)) (global.get $lfSpace)) (i32.eq (local.get $c) (i32.const 13))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next)))
    (local.get $p))

  (func $isHex (param $c i32) (result i32)
    (i32.or
      (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10))
      (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 32)) (i32.const 97)) (i32.const 6))))

  ;; The string whose content starts at p: returns the index of its closing quote, or -1 when it is not a
  ;; valid JSON string of valid UTF-8. Sets $esc. Sixteen bytes at a time up to the first quote, backslash,
  ;; control character or non-ASCII byte (one signed comparison catches both of the last two).
  (func $str (param $p i32) (result i32)
    (local $c i32)
    (local $bits i32)
    (local $lo i32)
    (local $hi i32)
    (local $n i32)
    (local $v v128)
    (global.set $esc (i32.const 0))
    (loop $chunk
      (local.set $v (v128.load align=1 (local.get $p)))
      (local.set $bits
        (i8x16.bitmask
          (v128.or
            (v128.or
              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))
              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
            (i8x16.lt_s (local.get $v) (i8x16.splat (i32.const 32))))))
      (if (i32.eqz (local.get $bits))
        (then
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br $chunk)))
      (local.set $p (i32.add (local.get $p) (i32.ctz (local.get $bits))))
      (local.set $c (i32.load8_u (local.get $p)))
      (if (i32.eq (local.get $c) (i32.const 34)) (then (return (local.get $p))))
      (if (i32.eq (local.get $c) (i32.const 92))
        (then
          (global.set $esc (i32.const 1))
          (local.set $c (i32.load8_u offset=1 (local.get $p)))
          (if (i32.eq (local.get $c) (i32.const 117))
            (then
              (if (i32.eqz
                    (i32.and
                      (i32.and (call $isHex (i32.load8_u offset=2 (local.get $p))) (call $isHex (i32.load8_u offset=3 (local.get $p))))
                      (i32.and (call $isHex (i32.load8_u offset=4 (local.get $p))) (call $isHex (i32.load8_u offset=5 (local.get $p))))))
                (then (return (i32.const -1))))
              (local.set $p (i32.add (local.get $p) (i32.const 6)))
              (br $chunk)))
          ;; " \ / b f n r t
          (if (i32.eqz
                (i32.or
                  (i32.or
                    (i32.or (i32.eq (local.get $c) (i32.const 34)) (i32.eq (local.get $c) (i32.const 92)))
                    (i32.or (i32.eq (local.get $c) (i32.const 47)) (i32.eq (local.get $c) (i32.const 98))))
                  (i32.or
                    (i32.or (i32.eq (local.get $c) (i32.const 102)) (i32.eq (local.get $c) (i32.const 110)))
                    (i32.or (i32.eq (local.get $c) (i32.const 114)) (i32.eq (local.get $c) (i32.const 116))))))
            (then (return (i32.const -1))))
          (local.set $p (i32.add (local.get $p) (i32.const 2)))
          (br $chunk)))
      ;; a raw control character (the line's own end included)
      (if (i32.lt_u (local.get $c) (i32.const 128)) (then (return (i32.const -1))))
      ;; UTF-8: the lead byte gives the number of continuation bytes and the range of the first one
      ;; (excluding overlong forms, surrogates and code points above U+10FFFF, as a fatal decoder does)
      (local.set $lo (i32.const 128))
      (local.set $hi (i32.const 191))
      (if (i32.lt_u (local.get $c) (i32.const 194)) (then (return (i32.const -1))))
      (if (i32.lt_u (local.get $c) (i32.const 224))
        (then (local.set $n (i32.const 1)))
        (else
          (if (i32.lt_u (local.get $c) (i32.const 240))
            (then
              (local.set $n (i32.const 2))
              (if (i32.eq (local.get $c) (i32.const 224)) (then (local.set $lo (i32.const 160))))
              (if (i32.eq (local.get $c) (i32.const 237)) (then (local.set $hi (i32.const 159)))))
            (else
              (if (i32.gt_u (local.get $c) (i32.const 244)) (then (return (i32.const -1))))
              (local.set $n (i32.const 3))
              (if (i32.eq (local.get $c) (i32.const 240)) (then (local.set $lo (i32.const 144))))
              (if (i32.eq (local.get $c) (i32.const 244)) (then (local.set $hi (i32.const 143))))))))
      (local.set $c (i32.load8_u offset=1 (local.get $p)))
      (if (i32.or (i32.lt_u (local.get $c) (local.get $lo)) (i32.gt_u (local.get $c) (local.get $hi)))
        (then (return (i32.const -1))))
      (local.set $p (i32.add (local.get $p) (i32.const 2)))
      (block $conts
        (loop $cont
          (local.set $n (i32.sub (local.get $n) (i32.const 1)))
          (br_if $conts (i32.eqz (local.get $n)))
          (if (i32.ne (i32.and (i32.load8_u (local.get $p)) (i32.const 192)) (i32.const 128))
            (then (return (i32.const -1))))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br $cont)))
      (br $chunk))
    (unreachable))

  ;; Index after the run of digits at p.
  ;; (Sixteen bytes at a time: timestamps have 19 digits. The line's end is not a digit, so this stops there.)
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

  ;; The number at p: index after it, or -1 when it breaks the grammar -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
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

  ;; The fingerprint of the key [ks, ks + len): its last eight bytes, or its bytes zero-padded below eight.
  (func $fingerprint (param $ks i32) (param $len i32) (result i64)
    (if (result i64) (i32.lt_u (local.get $len) (i32.const 8))
      (then
        (i64.and
          (i64.load align=1 (local.get $ks))
          (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (local.get $len) (i32.const 3)))) (i64.const 1))))
      (else (i64.load align=1 (i32.sub (i32.add (local.get $ks) (local.get $len)) (i32.const 8))))))

  ;; The wanted key spelled by [ks, ke) (no escapes) among those chained from slot entry idx, or -1. Each is
  ;; compared on its length, first and last eight bytes (the whole key up to 16 bytes), the middle only then.
  (func $lookup (param $ks i32) (param $ke i32) (param $idx i32) (param $last i64) (result i32)
    (local $len i32)
    (local $info i32)
    (local $first i64)
    (local $i i32)
    (local $kp i32)
    (local.set $len (i32.sub (local.get $ke) (local.get $ks)))
    (local.set $first (select (local.get $last) (i64.load align=1 (local.get $ks)) (i32.lt_u (local.get $len) (i32.const 8))))
    (block $none
      (loop $candidate
        (br_if $none (i32.eqz (local.get $idx)))
        (local.set $info (i32.add (global.get $keys) (i32.shl (i32.sub (local.get $idx) (i32.const 1)) (i32.const {{KEY_SHIFT}}))))
        (if (i32.and
              (i32.and
                (i32.eq (local.get $len) (i32.load offset={{KEY_LENGTH}} (local.get $info)))
                (i64.eq (local.get $first) (i64.load offset={{KEY_FIRST}} (local.get $info))))
              (i64.eq (local.get $last) (i64.load offset={{KEY_LAST}} (local.get $info))))
          (then
            (if (i32.le_u (local.get $len) (i32.const 16)) (then (return (i32.sub (local.get $idx) (i32.const 1)))))
            (local.set $kp (i32.load offset={{KEY_AT}} (local.get $info)))
            (local.set $i (i32.const 8))
            (block $differs
              (loop $words
                ;; what is left lies within the last eight bytes, already equal
                (if (i32.ge_u (i32.add (local.get $i) (i32.const 8)) (local.get $len))
                  (then (return (i32.sub (local.get $idx) (i32.const 1)))))
                (br_if $differs
                  (i64.ne
                    (i64.load align=1 (i32.add (local.get $ks) (local.get $i)))
                    (i64.load align=1 (i32.add (local.get $kp) (local.get $i)))))
                (local.set $i (i32.add (local.get $i) (i32.const 8)))
                (br $words)))))
        (local.set $idx (i32.load offset={{KEY_NEXT}} (local.get $info)))
        (br $candidate)))
    (i32.const -1))

  ;; A hash of the bytes [p, end), never 0; 0 when longer than 32 bytes (a longer string is rarely repeated).
  (func $hash (param $p i32) (param $end i32) (result i32)
    (local $n i32)
    (local $h i64)
    (local $w i64)
    (local.set $n (i32.sub (local.get $end) (local.get $p)))
    (if (i32.gt_u (local.get $n) (i32.const {{HASH_MAX_BYTES}})) (then (return (i32.const 0))))
    (local.set $h (i64.extend_i32_u (local.get $n)))
    (block $done
      (loop $next
        (br_if $done (i32.le_s (local.get $n) (i32.const 0)))
        (local.set $w (i64.load align=1 (local.get $p)))
        (if (i32.lt_u (local.get $n) (i32.const 8))
          (then
            (local.set $w
              (i64.and (local.get $w) (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.shl (local.get $n) (i32.const 3)))) (i64.const 1))))))
        (local.set $h (i64.mul (i64.xor (local.get $h) (local.get $w)) (i64.const {{HASH_FACTOR}})))
        (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 32))))
        (local.set $p (i32.add (local.get $p) (i32.const 8)))
        (local.set $n (i32.sub (local.get $n) (i32.const 8)))
        (br $next)))
    (i32.or (i32.wrap_i64 (local.get $h)) (i32.const 1)))

  ;; The first index in [p, end - n] where the n bytes at np occur, or -1 (n >= 1). Two of the needle's bytes,
  ;; at offsets a and b (rare ones, chosen by the caller), are compared at sixteen positions at a time; only
  ;; positions where both agree are compared whole. Reads at most 16 bytes past end.
  (func $find (export "find") (param $p i32) (param $end i32) (param $np i32) (param $n i32) (param $a i32) (param $b i32) (result i32)
    (local $va v128)
    (local $vb v128)
    (local $bits i32)
    (local $i i32)
    (local $last i32)
    (local $j i32)
    (local.set $va (i8x16.splat (i32.load8_u (i32.add (local.get $np) (local.get $a)))))
    (local.set $vb (i8x16.splat (i32.load8_u (i32.add (local.get $np) (local.get $b)))))
    (local.set $last (i32.sub (local.get $end) (local.get $n)))
    (block $none
      (loop $chunk
        (br_if $none (i32.gt_s (local.get $p) (local.get $last)))
        (local.set $bits
          (i8x16.bitmask
            (v128.and
              (i8x16.eq (v128.load align=1 (i32.add (local.get $p) (local.get $a))) (local.get $va))
              (i8x16.eq (v128.load align=1 (i32.add (local.get $p) (local.get $b))) (local.get $vb)))))
        (block $next
          (loop $candidate
            (br_if $next (i32.eqz (local.get $bits)))
            (local.set $i (i32.add (local.get $p) (i32.ctz (local.get $bits))))
            (br_if $none (i32.gt_s (local.get $i) (local.get $last)))
            (local.set $j (i32.const 0))
            (block $differs
              (loop $bytes
                (if (i32.ge_u (local.get $j) (local.get $n)) (then (return (local.get $i))))
                (br_if $differs
                  (i32.ne
                    (i32.load8_u (i32.add (local.get $i) (local.get $j)))
                    (i32.load8_u (i32.add (local.get $np) (local.get $j)))))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $bytes)))
            (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
            (br $candidate)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $chunk)))
    (i32.const -1))

  ;; A literal or a number at p: the index after it, or -1.
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

  ;; States of the machine: 0 just after `{`, 1 a value in an array, 2 just after `[`, 3 a value just ended,
  ;; 4 a key after `,`. Members of an object run in the tight $pair loop (key, colon, value, comma) without
  ;; going through the dispatch; whitespace, long strings and escapes leave the fast paths for calls.
  (func $scan (export "scan") (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (local $q i32)
    (local $e i32)
    (local $bits i32)
    (local $len i32)
    (local $depth i32)
    (local $cur i32)
    (local $vs i32)
    (local $vesc i32)
    (local $kesc i32)
    (local $state i32)
    (local $at i32)
    (local $bit i32)
    (local $fp i64)
    (local $v v128)
    ;; no wanted key seen yet
    (local.set $q (global.get $out))
    (local.set $c (i32.add (global.get $out) (i32.shl (global.get $nkeys) (i32.const {{OUT_SHIFT}}))))
    (block $reset
      (loop $clear
        (br_if $reset (i32.ge_u (local.get $q) (local.get $c)))
        (i32.store offset={{OUT_START}} (local.get $q) (i32.const -1))
        (local.set $q (i32.add (local.get $q) (i32.const {{OUT_BYTES}})))
        (br $clear)))
    (local.set $cur (i32.const -1))
    (local.set $p (call $ws (local.get $p) (local.get $end)))
    (if (i32.ne (i32.load8_u (local.get $p)) (i32.const 123)) (then (return (i32.const 0))))
    ;; the line's object is level 1
    (local.set $depth (i32.const 1))
    (i32.store8 (global.get $stack) (i32.const 2))
    (local.set $p (i32.add (local.get $p) (i32.const 1)))
    (local.set $state (i32.const 0))
    (loop $machine
      (block $after
        (block $value
          (block $arrayStart
            (block $objectStart
              (br_table $objectStart $value $arrayStart $after $objectStart (local.get $state)))
            ;; just after `{` (state 0) a `}` closes it; after `,` (state 4) a key must follow
            (if (i32.eqz (local.get $state))
              (then
                (if (i32.le_u (i32.load8_u (local.get $p)) (i32.const 32)) (then (local.set $p (call $ws (local.get $p) (local.get $end)))))
                (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 125))
                  (then
                    (local.set $p (i32.add (local.get $p) (i32.const 1)))
                    (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
                    (br $after)))))
            (loop $pair
              ;; the key
              (if (i32.le_u (i32.load8_u (local.get $p)) (i32.const 32)) (then (local.set $p (call $ws (local.get $p) (local.get $end)))))
              (if (i32.ne (i32.load8_u (local.get $p)) (i32.const 34)) (then (return (i32.const 0))))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (local.set $v (v128.load align=1 (local.get $p)))
              (local.set $bits
                (i8x16.bitmask
                  (v128.or
                    (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
                    (i8x16.lt_s (local.get $v) (i8x16.splat (i32.const 32))))))
              (if (i32.eqz (local.get $bits))
                (then
                  (local.set $v (v128.load offset=16 align=1 (local.get $p)))
                  (local.set $bits
                    (i32.shl
                      (i8x16.bitmask
                        (v128.or
                          (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
                          (i8x16.lt_s (local.get $v) (i8x16.splat (i32.const 32)))))
                      (i32.const 16)))))
              (local.set $q (i32.const -2))
              (if (local.get $bits)
                (then
                  (local.set $q (i32.add (local.get $p) (i32.ctz (local.get $bits))))
                  (if (i32.ne (i32.load8_u (local.get $q)) (i32.const 34)) (then (local.set $q (i32.const -2))))))
              (local.set $e (i32.const 0))
              (if (i32.eq (local.get $q) (i32.const -2))
                (then
                  (local.set $q (call $str (local.get $p)))
                  (local.set $e (global.get $esc))))
              (if (i32.lt_s (local.get $q) (i32.const 0)) (then (return (i32.const 0))))
              (if (i32.eq (local.get $depth) (i32.const 1))
                (then
                  (if (local.get $e)
                    (then (local.set $kesc (i32.const 1)))
                    (else
                      ;; most keys are not wanted: their length and last byte send them away, the others take one hash probe
                      (local.set $len (i32.sub (local.get $q) (local.get $p)))
                      (if (i64.ne (i64.const 0)
                            (i64.and
                              (i64.load
                                (i32.add (global.get $filter)
                                  (i32.shl (select (local.get $len) (i32.const 63) (i32.lt_u (local.get $len) (i32.const 63))) (i32.const {{FILTER_SHIFT}}))))
                              (i64.shl (i64.const 1) (i64.extend_i32_u (i32.load8_u (i32.sub (local.get $q) (i32.const 1)))))))
                      (then
                      (local.set $fp (call $fingerprint (local.get $p) (local.get $len)))
                      (local.set $at
                        (i32.load
                          (i32.add
                            (global.get $slots)
                            (i32.shl
                              (i32.wrap_i64
                                (i64.shr_u
                                  (i64.mul (i64.xor (local.get $fp) (i64.extend_i32_u (local.get $len))) (i64.const {{HASH_FACTOR}}))
                                  (global.get $shift)))
                              (i32.const {{SLOT_SHIFT}})))))
                      (if (local.get $at)
                        (then (local.set $cur (call $lookup (local.get $p) (local.get $q) (local.get $at) (local.get $fp)))))))))))
              (local.set $p (i32.add (local.get $q) (i32.const 1)))
              (if (i32.le_u (i32.load8_u (local.get $p)) (i32.const 32)) (then (local.set $p (call $ws (local.get $p) (local.get $end)))))
              (if (i32.ne (i32.load8_u (local.get $p)) (i32.const 58)) (then (return (i32.const 0))))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              ;; the value
              (if (i32.le_u (i32.load8_u (local.get $p)) (i32.const 32)) (then (local.set $p (call $ws (local.get $p) (local.get $end)))))
              ;; only a top-level value's start is recorded (nested values must not overwrite it)
              (local.set $vs (select (local.get $p) (local.get $vs) (i32.eq (local.get $depth) (i32.const 1))))
              (local.set $c (i32.load8_u (local.get $p)))
              (if (i32.eq (local.get $c) (i32.const 34))
                (then
                  (local.set $p (i32.add (local.get $p) (i32.const 1)))
                  (local.set $v (v128.load align=1 (local.get $p)))
                  (local.set $bits
                    (i8x16.bitmask
                      (v128.or
                        (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
                        (i8x16.lt_s (local.get $v) (i8x16.splat (i32.const 32))))))
                  (if (i32.eqz (local.get $bits))
                    (then
                      (local.set $v (v128.load offset=16 align=1 (local.get $p)))
                      (local.set $bits
                        (i32.shl
                          (i8x16.bitmask
                            (v128.or
                              (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
                              (i8x16.lt_s (local.get $v) (i8x16.splat (i32.const 32)))))
                          (i32.const 16)))))
                  (local.set $q (i32.const -2))
                  (if (local.get $bits)
                    (then
                      (local.set $q (i32.add (local.get $p) (i32.ctz (local.get $bits))))
                      (if (i32.ne (i32.load8_u (local.get $q)) (i32.const 34)) (then (local.set $q (i32.const -2))))))
                  (local.set $e (i32.const 0))
                  (if (i32.eq (local.get $q) (i32.const -2))
                    (then
                      (local.set $q (call $str (local.get $p)))
                      (local.set $e (global.get $esc))))
                  (if (i32.lt_s (local.get $q) (i32.const 0)) (then (return (i32.const 0))))
                  (local.set $vesc (local.get $e))
                  (local.set $p (i32.add (local.get $q) (i32.const 1))))
                (else
                  ;; a container that is not empty (`{` + 2 is `}`, `[` + 2 is `]`) goes to the machine; an empty one
                  ;; (`[]`, `{}`: empty tag lists are common) ends here like a scalar, staying in this loop
                  (if (i32.and
                        (i32.or (i32.eq (local.get $c) (i32.const 123)) (i32.eq (local.get $c) (i32.const 91)))
                        (i32.ne (i32.load8_u offset=1 (local.get $p)) (i32.add (local.get $c) (i32.const 2))))
                    (then
                      (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
                      (local.set $at (i32.add (global.get $stack) (i32.shr_u (local.get $depth) (i32.const 3))))
                      (local.set $bit (i32.shl (i32.const 1) (i32.and (local.get $depth) (i32.const 7))))
                      (if (i32.eq (local.get $c) (i32.const 123))
                        (then
                          (i32.store8 (local.get $at) (i32.or (i32.load8_u (local.get $at)) (local.get $bit)))
                          (local.set $state (i32.const 0)))
                        (else
                          (i32.store8 (local.get $at) (i32.and (i32.load8_u (local.get $at)) (i32.xor (local.get $bit) (i32.const -1))))
                          (local.set $state (i32.const 2))))
                      (local.set $p (i32.add (local.get $p) (i32.const 1)))
                      (br $machine)))
                  (if (i32.or (i32.eq (local.get $c) (i32.const 123)) (i32.eq (local.get $c) (i32.const 91)))
                    (then (local.set $p (i32.add (local.get $p) (i32.const 2))))
                    (else
                  ;; an integer of 1 to 16 digits not starting with 0, the common number, inline; anything else by $scalar
                  (local.set $bits
                    (i8x16.bitmask
                      (i8x16.gt_u (i8x16.sub (v128.load align=1 (local.get $p)) (i8x16.splat (i32.const 48))) (i8x16.splat (i32.const 9)))))
                  (local.set $q (i32.add (local.get $p) (i32.ctz (local.get $bits))))
                  (if (i32.and
                        (i32.and (i32.lt_u (i32.sub (local.get $c) (i32.const 49)) (i32.const 9)) (i32.ne (local.get $bits) (i32.const 0)))
                        (i32.and (i32.ne (i32.load8_u (local.get $q)) (i32.const 46)) (i32.ne (i32.or (i32.load8_u (local.get $q)) (i32.const 32)) (i32.const 101))))
                    (then (local.set $p (local.get $q)))
                    (else
                      (local.set $p (call $scalar (local.get $p)))
                      (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const 0))))))))))
              ;; a string, scalar or empty container member ended: the innermost container is still this object
              (if (i32.and (i32.eq (local.get $depth) (i32.const 1)) (i32.ge_s (local.get $cur) (i32.const 0)))
                (then
                  (local.set $q (i32.add (global.get $out) (i32.shl (local.get $cur) (i32.const {{OUT_SHIFT}}))))
                  (i32.store offset={{OUT_START}} (local.get $q) (local.get $vs))
                  (i32.store offset={{OUT_END}} (local.get $q) (local.get $p))
                  (local.set $c (i32.eq (i32.load8_u (local.get $vs)) (i32.const 34)))
                  (i32.store offset={{OUT_FLAGS}} (local.get $q) (select (local.get $vesc) (i32.const 0) (local.get $c)))
                  ;; a hash of a short string without escapes lets the caller reuse the string it decoded before;
                  ;; only for $scan called alone ($lfSpace): $scanBlock's program never reads it, and a line the
                  ;; program leaves undecided is scanned again by the caller
                  (i32.store offset={{OUT_HASH}} (local.get $q) (i32.const 0))
                  (if (i32.and (global.get $lfSpace) (i32.and (local.get $c) (i32.eqz (local.get $vesc))))
                    (then
                      (i32.store offset={{OUT_HASH}} (local.get $q)
                        (call $hash (i32.add (local.get $vs) (i32.const 1)) (i32.sub (local.get $p) (i32.const 1))))))
                  (local.set $cur (i32.const -1))))
              (if (i32.le_u (i32.load8_u (local.get $p)) (i32.const 32)) (then (local.set $p (call $ws (local.get $p) (local.get $end)))))
              (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 44))
                (then
                  (local.set $p (i32.add (local.get $p) (i32.const 1)))
                  (br $pair)))
              (br $after)))
          ;; just after `[`: `]` closes it, anything else is a value (falling through)
          (if (i32.le_u (i32.load8_u (local.get $p)) (i32.const 32)) (then (local.set $p (call $ws (local.get $p) (local.get $end)))))
          (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 93))
            (then
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
              (br $after))))
        ;; a value in an array
        (if (i32.le_u (i32.load8_u (local.get $p)) (i32.const 32)) (then (local.set $p (call $ws (local.get $p) (local.get $end)))))
        (local.set $c (i32.load8_u (local.get $p)))
        (if (i32.eq (local.get $c) (i32.const 34))
          (then
            (local.set $p (call $str (i32.add (local.get $p) (i32.const 1))))
            (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const 0))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $after)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 123)) (i32.eq (local.get $c) (i32.const 91)))
          (then
            (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
            (local.set $at (i32.add (global.get $stack) (i32.shr_u (local.get $depth) (i32.const 3))))
            (local.set $bit (i32.shl (i32.const 1) (i32.and (local.get $depth) (i32.const 7))))
            (if (i32.eq (local.get $c) (i32.const 123))
              (then
                (i32.store8 (local.get $at) (i32.or (i32.load8_u (local.get $at)) (local.get $bit)))
                (local.set $state (i32.const 0)))
              (else
                (i32.store8 (local.get $at) (i32.and (i32.load8_u (local.get $at)) (i32.xor (local.get $bit) (i32.const -1))))
                (local.set $state (i32.const 2))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $machine)))
        (local.set $p (call $scalar (local.get $p)))
        (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const 0))))
        (br $after))
      ;; a value just ended at p, at the current depth (a container closing onto a top-level member included)
      (if (i32.and (i32.eq (local.get $depth) (i32.const 1)) (i32.ge_s (local.get $cur) (i32.const 0)))
        (then
          (local.set $q (i32.add (global.get $out) (i32.shl (local.get $cur) (i32.const {{OUT_SHIFT}}))))
          (i32.store offset={{OUT_START}} (local.get $q) (local.get $vs))
          (i32.store offset={{OUT_END}} (local.get $q) (local.get $p))
          (i32.store offset={{OUT_FLAGS}} (local.get $q) (select (local.get $vesc) (i32.const 0) (i32.eq (i32.load8_u (local.get $vs)) (i32.const 34))))
          (i32.store offset={{OUT_HASH}} (local.get $q) (i32.const 0))
          (local.set $cur (i32.const -1))))
      ;; the object closed: only whitespace may follow, up to the end or the line feed ending the line ($stop)
      (if (i32.eqz (local.get $depth))
        (then
          (global.set $stop (call $ws (local.get $p) (local.get $end)))
          (return
            (select
              (i32.add (i32.const 1) (local.get $kesc))
              (i32.const 0)
              (i32.or
                (i32.eq (global.get $stop) (local.get $end))
                (i32.eq (i32.load8_u (global.get $stop)) (i32.const 10)))))))
      (if (i32.le_u (i32.load8_u (local.get $p)) (i32.const 32)) (then (local.set $p (call $ws (local.get $p) (local.get $end)))))
      (local.set $c (i32.load8_u (local.get $p)))
      ;; 1 when the innermost open container is an object
      (local.set $bit
        (i32.and
          (i32.shr_u
            (i32.load8_u (i32.add (global.get $stack) (i32.shr_u (local.get $depth) (i32.const 3))))
            (i32.and (local.get $depth) (i32.const 7)))
          (i32.const 1)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (if (i32.eq (local.get $c) (i32.const 44))
        (then
          (local.set $state (select (i32.const 4) (i32.const 1) (local.get $bit)))
          (br $machine)))
      (if (i32.eq (local.get $c) (select (i32.const 125) (i32.const 93) (local.get $bit)))
        (then
          (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
          (local.set $state (i32.const 3))
          (br $machine)))
      (return (i32.const 0)))
    (unreachable))

  ;; The filter's program and the fields-seen flags (see the layout above); 0 for none.
  (func (export "setProgram") (param $prog i32) (param $seen i32)
    (global.set $prog (local.get $prog))
    (global.set $seen (local.get $seen)))

  ;; 1 when the n bytes at a and at b are equal.
  (func $same (param $a i32) (param $b i32) (param $n i32) (result i32)
    (block $bytes
      (loop $words
        (br_if $bytes (i32.lt_u (local.get $n) (i32.const 8)))
        (if (i64.ne (i64.load align=1 (local.get $a)) (i64.load align=1 (local.get $b))) (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 8)))
        (local.set $b (i32.add (local.get $b) (i32.const 8)))
        (local.set $n (i32.sub (local.get $n) (i32.const 8)))
        (br $words)))
    (block $done
      (loop $byte
        (br_if $done (i32.eqz (local.get $n)))
        (if (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b))) (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $byte)))
    (i32.const 1))

  ;; A string leaf's test on the bytes [vs, ve) of a string without escapes (0 or 1, before its negation).
  (func $bytesTest (param $node i32) (param $kind i32) (param $vs i32) (param $ve i32) (result i32)
    (local $n i32)
    (local $at i32)
    (local $m i32)
    (local.set $n (i32.load offset={{NODE_LEN}} (local.get $node)))
    (local.set $at (i32.add (global.get $prog) (i32.load offset={{NODE_AT}} (local.get $node))))
    (if (i32.eq (local.get $kind) (i32.const {{NODE_EQUALS}}))
      (then
        ;; the members: (offset, length) pairs
        (local.set $m (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 3))))
        (block $none
          (loop $member
            (br_if $none (i32.ge_u (local.get $at) (local.get $m)))
            (if (i32.eq (i32.load offset=4 (local.get $at)) (i32.sub (local.get $ve) (local.get $vs)))
              (then
                (if (call $same (local.get $vs) (i32.add (global.get $prog) (i32.load (local.get $at))) (i32.sub (local.get $ve) (local.get $vs)))
                  (then (return (i32.const 1))))))
            (local.set $at (i32.add (local.get $at) (i32.const 8)))
            (br $member)))
        (return (i32.const 0))))
    (if (i32.lt_u (i32.sub (local.get $ve) (local.get $vs)) (local.get $n)) (then (return (i32.const 0))))
    (if (i32.eq (local.get $kind) (i32.const {{NODE_STARTS}}))
      (then (return (call $same (local.get $vs) (local.get $at) (local.get $n)))))
    (if (i32.eq (local.get $kind) (i32.const {{NODE_ENDS}}))
      (then (return (call $same (i32.sub (local.get $ve) (local.get $n)) (local.get $at) (local.get $n)))))
    ;; contains: the empty needle is in every string
    (if (i32.eqz (local.get $n)) (then (return (i32.const 1))))
    (i32.ge_s
      (call $find (local.get $vs) (local.get $ve) (local.get $at) (local.get $n)
        (i32.load offset={{NODE_RARE_A}} (local.get $node)) (i32.load offset={{NODE_RARE_B}} (local.get $node)))
      (i32.const 0)))

  ;; The value of the token [s, e) when it is an integer of 1 to 15 digits (exact as a double, what JSON.parse
  ;; gives), else NaN (span-values.ts smallInteger).
  (func $smallInt (param $s i32) (param $e i32) (result f64)
    (local $minus i32)
    (local $c i32)
    (local $i i64)
    (local.set $minus (i32.eq (i32.load8_u (local.get $s)) (i32.const 45)))
    (local.set $s (i32.add (local.get $s) (local.get $minus)))
    (if (i32.or
          (i32.or (i32.ge_u (local.get $s) (local.get $e)) (i32.gt_u (i32.sub (local.get $e) (local.get $s)) (i32.const 15)))
          (i32.and (i32.eq (i32.load8_u (local.get $s)) (i32.const 48)) (i32.gt_u (i32.sub (local.get $e) (local.get $s)) (i32.const 1))))
      (then (return (f64.const nan))))
    (block $digits
      (loop $digit
        (br_if $digits (i32.ge_u (local.get $s) (local.get $e)))
        (local.set $c (i32.sub (i32.load8_u (local.get $s)) (i32.const 48)))
        (if (i32.gt_u (local.get $c) (i32.const 9)) (then (return (f64.const nan))))
        (local.set $i (i64.add (i64.mul (local.get $i) (i64.const 10)) (i64.extend_i32_u (local.get $c))))
        (local.set $s (i32.add (local.get $s) (i32.const 1)))
        (br $digit)))
    (f64.convert_i64_s (select (i64.sub (i64.const 0) (local.get $i)) (local.get $i) (local.get $minus))))

  ;; The node's verdict on the line just scanned: 0 false, 1 true, 2 undecided (the JS side's tests decide).
  ;; Conditions have no effects, so a group decides as soon as a child does (false for `and`, true for `or`),
  ;; whichever children before it were undecided.
  (func $eval (param $index i32) (result i32)
    (local $node i32)
    (local $kind i32)
    (local $child i32)
    (local $r i32)
    (local $acc i32)
    (local $o i32)
    (local $s i32)
    (local $e i32)
    (local $c i32)
    (local $neg i32)
    (local $a f64)
    (local $b f64)
    (local.set $node (i32.add (global.get $prog) (i32.shl (local.get $index) (i32.const {{NODE_SHIFT}}))))
    (local.set $kind (i32.load offset={{NODE_KIND}} (local.get $node)))
    (if (i32.le_u (local.get $kind) (i32.const {{NODE_OR}}))
      (then
        ;; and: false decides, else true unless undecided; or: true decides
        (local.set $acc (i32.xor (local.get $kind) (i32.const 1)))
        (local.set $child (i32.load offset={{NODE_CHILD}} (local.get $node)))
        (block $end
          (loop $children
            (br_if $end (i32.eqz (local.get $child)))
            (local.set $r (call $eval (i32.sub (local.get $child) (i32.const 1))))
            (if (i32.eq (local.get $r) (local.get $kind)) (then (return (local.get $kind))))
            (if (i32.eq (local.get $r) (i32.const 2)) (then (local.set $acc (i32.const 2))))
            (local.set $child
              (i32.load offset={{NODE_NEXT}}
                (i32.add (global.get $prog) (i32.shl (i32.sub (local.get $child) (i32.const 1)) (i32.const {{NODE_SHIFT}})))))
            (br $children)))
        (return (local.get $acc))))
    (if (i32.eq (local.get $kind) (i32.const {{NODE_FALSE}})) (then (return (i32.const 0))))
    (if (i32.eq (local.get $kind) (i32.const {{NODE_UNKNOWN}})) (then (return (i32.const 2))))
    (local.set $o (i32.add (global.get $out) (i32.shl (i32.load offset={{NODE_FIELD}} (local.get $node)) (i32.const {{OUT_SHIFT}}))))
    (local.set $s (i32.load offset={{OUT_START}} (local.get $o)))
    (local.set $e (i32.load offset={{OUT_END}} (local.get $o)))
    (local.set $neg (i32.load offset={{NODE_NEG}} (local.get $node)))
    (if (i32.ge_u (local.get $kind) (i32.const {{NODE_LT}}))
      (then
        ;; a comparison: false on an absent field; on an integer token of 1 to 15 digits (exact as a double), the
        ;; comparison of its value; anything else (fractions, exponents, strings, null...) undecided
        (if (i32.lt_s (local.get $s) (i32.const 0)) (then (return (i32.const 0))))
        (local.set $a (call $smallInt (local.get $s) (local.get $e)))
        (if (f64.ne (local.get $a) (local.get $a)) (then (return (i32.const 2))))
        (local.set $b (f64.load offset={{NODE_NUM}} (local.get $node)))
        (if (i32.eq (local.get $kind) (i32.const {{NODE_LT}})) (then (return (f64.lt (local.get $a) (local.get $b)))))
        (if (i32.eq (local.get $kind) (i32.const {{NODE_LEQ}})) (then (return (f64.le (local.get $a) (local.get $b)))))
        (if (i32.eq (local.get $kind) (i32.const {{NODE_GT}})) (then (return (f64.gt (local.get $a) (local.get $b)))))
        (return (f64.ge (local.get $a) (local.get $b)))))
    ;; a string leaf: an absent field holds for a negative operator only
    (if (i32.lt_s (local.get $s) (i32.const 0)) (then (return (local.get $neg))))
    (local.set $c (i32.load8_u (local.get $s)))
    (if (i32.ge_u (local.get $kind) (i32.const {{NODE_NUMEQ}}))
      (then
        ;; equality with numbers or booleans: null holds for the negative only; an array's elements are decoded
        ;; for `in`, never equal for `eq`
        (if (i32.eq (local.get $c) (i32.const 110)) (then (return (local.get $neg))))
        (if (i32.eq (local.get $c) (i32.const 91))
          (then (return (select (i32.const 2) (local.get $neg) (i32.load offset={{NODE_ARRAYS}} (local.get $node))))))
        (local.set $r (i32.load offset={{NODE_LEN}} (local.get $node)))
        (if (i32.eq (local.get $kind) (i32.const {{NODE_BOOLEQ}}))
          (then
            ;; a boolean equals only a boolean
            (if (i32.eq (local.get $c) (i32.const 116)) (then (return (i32.xor (i32.and (local.get $r) (i32.const 1)) (local.get $neg)))))
            (if (i32.eq (local.get $c) (i32.const 102)) (then (return (i32.xor (i32.shr_u (i32.and (local.get $r) (i32.const 2)) (i32.const 1)) (local.get $neg)))))
            (return (local.get $neg))))
        ;; a number: a string may be numeric (decoded by the JS side); true, false and objects equal no number
        (if (i32.eq (local.get $c) (i32.const 34)) (then (return (i32.const 2))))
        (if (i32.or (i32.or (i32.eq (local.get $c) (i32.const 116)) (i32.eq (local.get $c) (i32.const 102))) (i32.eq (local.get $c) (i32.const 123)))
          (then (return (local.get $neg))))
        (local.set $a (call $smallInt (local.get $s) (local.get $e)))
        (if (f64.ne (local.get $a) (local.get $a)) (then (return (i32.const 2))))
        (local.set $child (i32.add (global.get $prog) (i32.load offset={{NODE_AT}} (local.get $node))))
        (local.set $r (i32.add (local.get $child) (i32.shl (local.get $r) (i32.const 3))))
        (block $none
          (loop $member
            (br_if $none (i32.ge_u (local.get $child) (local.get $r)))
            (if (f64.eq (local.get $a) (f64.load (local.get $child))) (then (return (i32.xor (i32.const 1) (local.get $neg)))))
            (local.set $child (i32.add (local.get $child) (i32.const 8)))
            (br $member)))
        (return (local.get $neg))))
    (if (i32.eq (local.get $c) (i32.const 34))
      (then
        ;; a string with escapes is decoded into the scratch region and tested there (JSON.parse's text, as UTF-8);
        ;; one too long for it, or holding a lone surrogate (not UTF-8), is decoded by the JS side
        (if (i32.load offset={{OUT_FLAGS}} (local.get $o))
          (then
            (local.set $r (call $unescape (i32.add (local.get $s) (i32.const 1)) (i32.sub (local.get $e) (i32.const 1))))
            (if (i32.lt_s (local.get $r) (i32.const 0)) (then (return (i32.const 2))))
            (return
              (i32.xor
                (call $bytesTest (local.get $node) (local.get $kind) (global.get $scratch) (i32.add (global.get $scratch) (local.get $r)))
                (local.get $neg)))))
        (return
          (i32.xor
            (call $bytesTest (local.get $node) (local.get $kind) (i32.add (local.get $s) (i32.const 1)) (i32.sub (local.get $e) (i32.const 1)))
            (local.get $neg)))))
    ;; null (in a valid line the only value starting with n), and startsWith/endsWith on anything but a string
    (if (i32.or
          (i32.eq (local.get $c) (i32.const 110))
          (i32.or (i32.eq (local.get $kind) (i32.const {{NODE_STARTS}})) (i32.eq (local.get $kind) (i32.const {{NODE_ENDS}}))))
      (then (return (local.get $neg))))
    (i32.const 2))

  ;; The first line feed in [p, end), or end. Sixteen bytes at a time (the bytes after end are readable).
  (func $lineEnd (param $p i32) (param $end i32) (result i32)
    (local $bits i32)
    (loop $chunk
      (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (local.get $end))))
      (local.set $bits (i8x16.bitmask (i8x16.eq (v128.load align=1 (local.get $p)) (i8x16.splat (i32.const 10)))))
      (if (i32.eqz (local.get $bits))
        (then
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br $chunk))))
    (local.set $p (i32.add (local.get $p) (i32.ctz (local.get $bits))))
    (select (local.get $end) (local.get $p) (i32.gt_u (local.get $p) (local.get $end))))

  ;; The first backslash in [p, end), or end. Sixteen bytes at a time (the bytes after end are readable).
  (func $backslash (param $p i32) (param $end i32) (result i32)
    (local $bits i32)
    (loop $chunk
      (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (local.get $end))))
      (local.set $bits (i8x16.bitmask (i8x16.eq (v128.load align=1 (local.get $p)) (i8x16.splat (i32.const 92)))))
      (if (i32.eqz (local.get $bits))
        (then
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br $chunk))))
    (local.set $p (i32.add (local.get $p) (i32.ctz (local.get $bits))))
    (select (local.get $end) (local.get $p) (i32.gt_u (local.get $p) (local.get $end))))

  ;; The value of a hex digit, or -1.
  (func $hexValue (param $c i32) (result i32)
    (if (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10)) (then (return (i32.sub (local.get $c) (i32.const 48)))))
    (local.set $c (i32.or (local.get $c) (i32.const 32)))
    (if (i32.lt_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 6)) (then (return (i32.sub (local.get $c) (i32.const 87)))))
    (i32.const -1))

  ;; The four hex digits at p (valid: the line was scanned) as a code unit.
  (func $hex4 (param $p i32) (result i32)
    (i32.or
      (i32.or
        (i32.shl (call $hexValue (i32.load8_u (local.get $p))) (i32.const 12))
        (i32.shl (call $hexValue (i32.load8_u offset=1 (local.get $p))) (i32.const 8)))
      (i32.or
        (i32.shl (call $hexValue (i32.load8_u offset=2 (local.get $p))) (i32.const 4))
        (call $hexValue (i32.load8_u offset=3 (local.get $p))))))

  ;; Decodes the content [s, e) of a string the kernel scanned (so its escapes are well-formed and the byte at e
  ;; is its closing quote) into the scratch region as the UTF-8 of the text JSON.parse gives: returns its length,
  ;; or -1 when the content is longer than UNESCAPE_BYTES (the text is never longer than the content) or decodes
  ;; to a lone surrogate (which has no UTF-8: the JS side compares such a string).
  (func $unescape (param $s i32) (param $e i32) (result i32)
    (local $o i32)
    (local $q i32)
    (local $c i32)
    (local $u i32)
    (local $v i32)
    (if (i32.gt_u (i32.sub (local.get $e) (local.get $s)) (i32.const {{UNESCAPE_BYTES}})) (then (return (i32.const -1))))
    (local.set $o (global.get $scratch))
    (loop $run
      ;; the bytes up to the next escape, as they are
      (local.set $q (call $backslash (local.get $s) (local.get $e)))
      (memory.copy (local.get $o) (local.get $s) (i32.sub (local.get $q) (local.get $s)))
      (local.set $o (i32.add (local.get $o) (i32.sub (local.get $q) (local.get $s))))
      (if (i32.ge_u (local.get $q) (local.get $e)) (then (return (i32.sub (local.get $o) (global.get $scratch)))))
      (local.set $c (i32.load8_u offset=1 (local.get $q)))
      (local.set $s (i32.add (local.get $q) (i32.const 2)))
      (if (i32.ne (local.get $c) (i32.const 117))
        (then
          ;; " \ / stand for themselves; b f n r t for their control characters
          (if (i32.eq (local.get $c) (i32.const 98)) (then (local.set $c (i32.const 8))))
          (if (i32.eq (local.get $c) (i32.const 102)) (then (local.set $c (i32.const 12))))
          (if (i32.eq (local.get $c) (i32.const 110)) (then (local.set $c (i32.const 10))))
          (if (i32.eq (local.get $c) (i32.const 114)) (then (local.set $c (i32.const 13))))
          (if (i32.eq (local.get $c) (i32.const 116)) (then (local.set $c (i32.const 9))))
          (i32.store8 (local.get $o) (local.get $c))
          (local.set $o (i32.add (local.get $o) (i32.const 1)))
          (br $run)))
      (local.set $u (call $hex4 (local.get $s)))
      (local.set $s (i32.add (local.get $s) (i32.const 4)))
      (if (i32.lt_u (local.get $u) (i32.const 0x80))
        (then
          (i32.store8 (local.get $o) (local.get $u))
          (local.set $o (i32.add (local.get $o) (i32.const 1)))
          (br $run)))
      (if (i32.lt_u (local.get $u) (i32.const 0x800))
        (then
          (i32.store8 (local.get $o) (i32.or (i32.const 0xc0) (i32.shr_u (local.get $u) (i32.const 6))))
          (i32.store8 offset=1 (local.get $o) (i32.or (i32.const 0x80) (i32.and (local.get $u) (i32.const 63))))
          (local.set $o (i32.add (local.get $o) (i32.const 2)))
          (br $run)))
      (if (i32.ne (i32.and (local.get $u) (i32.const 0xf800)) (i32.const 0xd800))
        (then
          (i32.store8 (local.get $o) (i32.or (i32.const 0xe0) (i32.shr_u (local.get $u) (i32.const 12))))
          (i32.store8 offset=1 (local.get $o) (i32.or (i32.const 0x80) (i32.and (i32.shr_u (local.get $u) (i32.const 6)) (i32.const 63))))
          (i32.store8 offset=2 (local.get $o) (i32.or (i32.const 0x80) (i32.and (local.get $u) (i32.const 63))))
          (local.set $o (i32.add (local.get $o) (i32.const 3)))
          (br $run)))
      ;; a surrogate: a high one followed by an escaped low one is one code point; anything else is lone
      (if (i32.ge_u (local.get $u) (i32.const 0xdc00)) (then (return (i32.const -1))))
      (if (i32.or
            (i32.ge_u (local.get $s) (local.get $e))
            (i32.ne (i32.load16_u align=1 (local.get $s)) (i32.const 0x755c)))
        (then (return (i32.const -1))))
      (local.set $v (call $hex4 (i32.add (local.get $s) (i32.const 2))))
      (if (i32.ne (i32.and (local.get $v) (i32.const 0xfc00)) (i32.const 0xdc00)) (then (return (i32.const -1))))
      (local.set $s (i32.add (local.get $s) (i32.const 6)))
      (local.set $u
        (i32.add (i32.const 0x10000)
          (i32.or (i32.shl (i32.sub (local.get $u) (i32.const 0xd800)) (i32.const 10)) (i32.sub (local.get $v) (i32.const 0xdc00)))))
      (i32.store8 (local.get $o) (i32.or (i32.const 0xf0) (i32.shr_u (local.get $u) (i32.const 18))))
      (i32.store8 offset=1 (local.get $o) (i32.or (i32.const 0x80) (i32.and (i32.shr_u (local.get $u) (i32.const 12)) (i32.const 63))))
      (i32.store8 offset=2 (local.get $o) (i32.or (i32.const 0x80) (i32.and (i32.shr_u (local.get $u) (i32.const 6)) (i32.const 63))))
      (i32.store8 offset=3 (local.get $o) (i32.or (i32.const 0x80) (i32.and (local.get $u) (i32.const 63))))
      (local.set $o (i32.add (local.get $o) (i32.const 4)))
      (br $run))
    (unreachable))

  ;; 1 when some escape in [p, end) decodes to one of the n code units (i32) at units: the prefilter's triggers
  ;; (needles.ts findTriggers, which this follows: escapes are read left to right, so `\\u0041` is an escaped
  ;; backslash then text; a `\u` without four hex digits, or an unknown escape, stands for no unit).
  (func $triggered (param $p i32) (param $end i32) (param $units i32) (param $n i32) (result i32)
    (local $c i32)
    (local $unit i32)
    (local $width i32)
    (local $i i32)
    (local $h i32)
    (loop $escape
      (local.set $p (call $backslash (local.get $p) (local.get $end)))
      (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (i32.const 0))))
      (local.set $c (i32.load8_u offset=1 (local.get $p)))
      (local.set $unit (i32.const -1))
      (local.set $width (i32.const 2))
      (if (i32.eq (local.get $c) (i32.const 117))
        (then
          (local.set $h
            (i32.or
              (i32.or (call $hexValue (i32.load8_u offset=2 (local.get $p))) (call $hexValue (i32.load8_u offset=3 (local.get $p))))
              (i32.or (call $hexValue (i32.load8_u offset=4 (local.get $p))) (call $hexValue (i32.load8_u offset=5 (local.get $p))))))
          (if (i32.ge_s (local.get $h) (i32.const 0))
            (then
              (local.set $unit
                (i32.or
                  (i32.or
                    (i32.shl (call $hexValue (i32.load8_u offset=2 (local.get $p))) (i32.const 12))
                    (i32.shl (call $hexValue (i32.load8_u offset=3 (local.get $p))) (i32.const 8)))
                  (i32.or
                    (i32.shl (call $hexValue (i32.load8_u offset=4 (local.get $p))) (i32.const 4))
                    (call $hexValue (i32.load8_u offset=5 (local.get $p))))))
              (local.set $width (i32.const 6)))))
        (else
          ;; " \ / b f n r t
          (if (i32.or (i32.or (i32.eq (local.get $c) (i32.const 34)) (i32.eq (local.get $c) (i32.const 92))) (i32.eq (local.get $c) (i32.const 47)))
            (then (local.set $unit (local.get $c))))
          (if (i32.eq (local.get $c) (i32.const 98)) (then (local.set $unit (i32.const 8))))
          (if (i32.eq (local.get $c) (i32.const 102)) (then (local.set $unit (i32.const 12))))
          (if (i32.eq (local.get $c) (i32.const 110)) (then (local.set $unit (i32.const 10))))
          (if (i32.eq (local.get $c) (i32.const 114)) (then (local.set $unit (i32.const 13))))
          (if (i32.eq (local.get $c) (i32.const 116)) (then (local.set $unit (i32.const 9))))))
      (if (i32.ge_s (local.get $unit) (i32.const 0))
        (then
          (local.set $i (i32.const 0))
          (block $checked
            (loop $member
              (br_if $checked (i32.ge_u (local.get $i) (local.get $n)))
              (if (i32.eq (local.get $unit) (i32.load (i32.add (local.get $units) (i32.shl (local.get $i) (i32.const 2)))))
                (then (return (i32.const 1))))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br $member)))))
      (local.set $p (i32.add (local.get $p) (local.get $width)))
      (br $escape))
    (unreachable))

  ;; The line starting at p, walked once (sixteen bytes at a time): returns its end (its line feed, or end) and sets
  ;; $bs to its first backslash (or that end) and $hit to 1 when the n bytes at np (a needle without line breaks;
  ;; n < 0 for none) occur in it. One pass for what $lineEnd, $find and the search for escapes would
  ;; each read: the needle's two rare bytes (offsets a and b) and the two special bytes are compared per chunk,
  ;; and only a chunk where one of them shows is looked at closer.
  (func $walk (param $p i32) (param $end i32) (param $np i32) (param $n i32) (param $a i32) (param $b i32) (result i32)
    (local $va v128)
    (local $vb v128)
    (local $v v128)
    (local $pair v128)
    (local $limit i32)
    (local $nl i32)
    (local $bits i32)
    (local $i i32)
    (global.set $bs (i32.const -1))
    (global.set $hit (i32.eqz (local.get $n)))
    (if (i32.gt_s (local.get $n) (i32.const 0))
      (then
        (local.set $va (i8x16.splat (i32.load8_u (i32.add (local.get $np) (local.get $a)))))
        (local.set $vb (i8x16.splat (i32.load8_u (i32.add (local.get $np) (local.get $b)))))))
    (loop $chunk
      (if (i32.ge_u (local.get $p) (local.get $end))
        (then
          (if (i32.lt_s (global.get $bs) (i32.const 0)) (then (global.set $bs (local.get $end))))
          (return (local.get $end))))
      (local.set $v (v128.load align=1 (local.get $p)))
      ;; the needle's rare pair, while it is not found (a needle longer than what is left of the block cannot be)
      (local.set $pair (v128.const i64x2 0 0))
      (if (i32.and
            (i32.and (i32.eqz (global.get $hit)) (i32.gt_s (local.get $n) (i32.const 0)))
            (i32.le_s (i32.add (local.get $p) (local.get $n)) (local.get $end)))
        (then
          (local.set $pair
            (v128.and
              (i8x16.eq (v128.load align=1 (i32.add (local.get $p) (local.get $a))) (local.get $va))
              (i8x16.eq (v128.load align=1 (i32.add (local.get $p) (local.get $b))) (local.get $vb))))))
      (if (i32.and
            (i32.eqz (v128.any_true (v128.or (local.get $pair) (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 10))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92)))))))
            (i32.le_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (then
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br $chunk)))
      ;; the bits of this chunk inside the line: before its line feed and before end
      (local.set $limit (i32.const 0xffff))
      (if (i32.lt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 16))
        (then (local.set $limit (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $p))) (i32.const 1)))))
      (local.set $nl (i32.and (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 10)))) (local.get $limit)))
      (if (local.get $nl)
        (then (local.set $limit (i32.sub (i32.and (local.get $nl) (i32.sub (i32.const 0) (local.get $nl))) (i32.const 1)))))
      (if (i32.lt_s (global.get $bs) (i32.const 0))
        (then
          (local.set $bits (i32.and (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92)))) (local.get $limit)))
          (if (local.get $bits) (then (global.set $bs (i32.add (local.get $p) (i32.ctz (local.get $bits))))))))
      (local.set $bits (i32.and (i8x16.bitmask (local.get $pair)) (local.get $limit)))
      (block $checked
        (loop $candidate
          (br_if $checked (i32.eqz (local.get $bits)))
          (local.set $i (i32.add (local.get $p) (i32.ctz (local.get $bits))))
          ;; (the needle holds no line feed: found whole, it ends before the line's)
          (if (i32.le_u (i32.add (local.get $i) (local.get $n)) (local.get $end))
            (then
              (if (call $same (local.get $i) (local.get $np) (local.get $n))
                (then
                  (global.set $hit (i32.const 1))
                  (br $checked)))))
          (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
          (br $candidate)))
      (if (local.get $nl)
        (then
          (local.set $p (i32.add (local.get $p) (i32.ctz (local.get $nl))))
          (if (i32.lt_s (global.get $bs) (i32.const 0)) (then (global.set $bs (local.get $p))))
          (return (local.get $p))))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (br $chunk))
    (unreachable))

  ;; 1 when the line content [s, e) holds every clause of the prefilter: n clause records at clauses (see the
  ;; layout), each holding when one of its needles occurs in the line or one of its trigger escapes does.
  (func $candidate (param $s i32) (param $e i32) (param $clauses i32) (param $n i32) (result i32)
    (local $clause i32)
    (local $piece i32)
    (local $last i32)
    (local $held i32)
    (local $first i32)
    ;; $walk searched the line for the first clause's first needle, and found its first backslash
    (local.set $first
      (select (i32.load offset={{CLAUSE_PIECES}} (local.get $clauses)) (i32.const -1) (i32.load offset={{CLAUSE_COUNT}} (local.get $clauses))))
    (block $all
      (loop $clause
        (br_if $all (i32.eqz (local.get $n)))
        (local.set $clause (local.get $clauses))
        (local.set $piece (i32.load offset={{CLAUSE_PIECES}} (local.get $clause)))
        (local.set $last (i32.add (local.get $piece) (i32.shl (i32.load offset={{CLAUSE_COUNT}} (local.get $clause)) (i32.const {{PIECE_SHIFT}}))))
        (local.set $held (i32.const 0))
        (block $found
          (loop $needle
            (br_if $found (i32.ge_u (local.get $piece) (local.get $last)))
            (if (i32.eq (local.get $piece) (local.get $first))
              (then
                (if (global.get $hit) (then (local.set $held (i32.const 1)) (br $found)))
                (local.set $piece (i32.add (local.get $piece) (i32.const {{PIECE_BYTES}})))
                (br $needle)))
            ;; the empty needle is in every line
            (if (i32.eqz (i32.load offset={{PIECE_LEN}} (local.get $piece))) (then (local.set $held (i32.const 1)) (br $found)))
            (if (i32.ge_s
                  (call $find (local.get $s) (local.get $e)
                    (i32.load offset={{PIECE_AT}} (local.get $piece)) (i32.load offset={{PIECE_LEN}} (local.get $piece))
                    (i32.load offset={{PIECE_RARE_A}} (local.get $piece)) (i32.load offset={{PIECE_RARE_B}} (local.get $piece)))
                  (i32.const 0))
              (then (local.set $held (i32.const 1)) (br $found)))
            (local.set $piece (i32.add (local.get $piece) (i32.const {{PIECE_BYTES}})))
            (br $needle)))
        (if (i32.eqz (local.get $held))
          (then
            (if (i32.eqz (i32.load offset={{CLAUSE_TRIGGER_COUNT}} (local.get $clause))) (then (return (i32.const 0))))
            (if (i32.eqz (call $triggered (global.get $bs) (local.get $e)
                  (i32.load offset={{CLAUSE_TRIGGERS}} (local.get $clause)) (i32.load offset={{CLAUSE_TRIGGER_COUNT}} (local.get $clause))))
              (then (return (i32.const 0))))))
        (local.set $clauses (i32.add (local.get $clauses) (i32.const {{CLAUSE_BYTES}})))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $clause)))
    (i32.const 1))

  ;; Reads the lines of [p, end) one after another (the byte at end below 0x20, as for $scan): a blank line (only
  ;; spaces, tabs and CR) is skipped, every other one is scanned and, when valid, the program decides it. A line
  ;; the program found false is only counted; any other gets a record at rec (see the layout): at most max of
  ;; them, then the call returns, and the next one goes on from $next. $lines, $total, $read count from the
  ;; caller's reset. Returns the number of records.
  ;; With a prefilter (nclauses clause records at clauses, see $candidate), a line that does not hold it is not
  ;; scanned: only its outline is checked as the JS side's `skipped` does (its first and last non-blank bytes
  ;; are `{` and `}`; otherwise it is malformed). $read counts the lines scanned.
  (func (export "scanBlock") (param $p i32) (param $end i32) (param $rec i32) (param $max i32) (param $clauses i32) (param $nclauses i32) (result i32)
    (local $n i32)
    (local $start i32)
    (local $q i32)
    (local $c i32)
    (local $verdict i32)
    (local $code i32)
    (local $k i32)
    (local $first i32)
    (local $last i32)
    (local $np i32)
    (local $nn i32)
    (local $ra i32)
    (local $rb i32)
    ;; the first clause's first needle, which $walk searches (n -1: the clause has none)
    (local.set $nn (i32.const -1))
    (if (local.get $nclauses)
      (then
        (if (i32.load offset={{CLAUSE_COUNT}} (local.get $clauses))
          (then
            (local.set $c (i32.load offset={{CLAUSE_PIECES}} (local.get $clauses)))
            (local.set $np (i32.load offset={{PIECE_AT}} (local.get $c)))
            (local.set $nn (i32.load offset={{PIECE_LEN}} (local.get $c)))
            (local.set $ra (i32.load offset={{PIECE_RARE_A}} (local.get $c)))
            (local.set $rb (i32.load offset={{PIECE_RARE_B}} (local.get $c)))))))
    (global.set $lfSpace (i32.const 0))
    (block $full
      (loop $line
        (br_if $full (i32.ge_u (local.get $p) (local.get $end)))
        (br_if $full (i32.ge_u (local.get $n) (local.get $max)))
        (local.set $start (local.get $p))
        (global.set $lines (i32.add (global.get $lines) (i32.const 1)))
        (if (i32.ne (i32.load8_u (local.get $p)) (i32.const 123))
          (then
            (local.set $q (call $ws (local.get $p) (local.get $end)))
            (if (i32.or (i32.ge_u (local.get $q) (local.get $end)) (i32.eq (i32.load8_u (local.get $q)) (i32.const 10)))
              (then
                (local.set $p (i32.add (local.get $q) (i32.const 1)))
                (br $line)))))
        (global.set $total (i32.add (global.get $total) (i32.const 1)))
        (local.set $verdict (i32.const 0))
        (if (local.get $nclauses)
          (then
            ;; the line's content: up to its line feed, without one CR before it
            (local.set $q (call $walk (local.get $start) (local.get $end) (local.get $np) (local.get $nn) (local.get $ra) (local.get $rb)))
            (local.set $last (local.get $q))
            (if (i32.and (i32.gt_u (local.get $last) (local.get $start)) (i32.eq (i32.load8_u (i32.sub (local.get $last) (i32.const 1))) (i32.const 13)))
              (then (local.set $last (i32.sub (local.get $last) (i32.const 1)))))
            (if (i32.eqz (call $candidate (local.get $start) (local.get $last) (local.get $clauses) (local.get $nclauses)))
              (then
                ;; its outline: the first byte that is not a space, tab or CR, and the last one
                (local.set $first (call $ws (local.get $start) (local.get $last)))
                (block $back
                  (loop $space
                    (local.set $last (i32.sub (local.get $last) (i32.const 1)))
                    (br_if $back (i32.le_u (local.get $last) (local.get $first)))
                    (local.set $c (i32.load8_u (local.get $last)))
                    (br_if $space (i32.or (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 9))) (i32.eq (local.get $c) (i32.const 13))))))
                (if (i32.and
                      (i32.eq (i32.load8_u (local.get $first)) (i32.const 123))
                      (i32.eq (i32.load8_u (local.get $last)) (i32.const 125)))
                  (then
                    (local.set $p (i32.add (local.get $q) (i32.const 1)))
                    (br $line)))
                (local.set $verdict (i32.const -1))))))
        (if (i32.ne (local.get $verdict) (i32.const -1))
          (then
            (global.set $read (i32.add (global.get $read) (i32.const 1)))
            (local.set $verdict (call $scan (local.get $start) (local.get $end)))))
        (if (i32.gt_s (local.get $verdict) (i32.const 0))
          (then
            (local.set $q (global.get $stop))
            (local.set $code (i32.const {{REC_UNDECIDED}}))
            (if (i32.eq (local.get $verdict) (i32.const 1))
              (then
                (if (global.get $seen)
                  (then
                    (local.set $k (i32.const 0))
                    (block $marked
                      (loop $field
                        (br_if $marked (i32.ge_u (local.get $k) (global.get $nkeys)))
                        (if (i32.ge_s (i32.load offset={{OUT_START}} (i32.add (global.get $out) (i32.shl (local.get $k) (i32.const {{OUT_SHIFT}})))) (i32.const 0))
                          (then (i32.store8 (i32.add (global.get $seen) (local.get $k)) (i32.const 1))))
                        (local.set $k (i32.add (local.get $k) (i32.const 1)))
                        (br $field)))))
                (local.set $c (call $eval (i32.const 0)))
                (local.set $code (select (i32.const {{REC_MATCH}}) (i32.const {{REC_UNDECIDED}}) (i32.eq (local.get $c) (i32.const 1))))
                (if (i32.eqz (local.get $c))
                  (then
                    (local.set $p (i32.add (local.get $q) (i32.const 1)))
                    (br $line))))))
          (else
            ;; (a line whose outline failed has its end already)
            (if (i32.eqz (local.get $verdict)) (then (local.set $q (call $lineEnd (local.get $start) (local.get $end)))))
            (local.set $code (i32.const {{REC_MALFORMED}}))))
        (local.set $c (i32.add (local.get $rec) (i32.shl (local.get $n) (i32.const {{REC_SHIFT}}))))
        (i32.store offset={{REC_LINE}} (local.get $c) (i32.sub (global.get $lines) (i32.const 1)))
        (i32.store offset={{REC_START}} (local.get $c) (local.get $start))
        (i32.store offset={{REC_END}} (local.get $c) (local.get $q))
        (i32.store offset={{REC_CODE}} (local.get $c) (local.get $code))
        (i32.store offset={{REC_TOTAL}} (local.get $c) (global.get $total))
        (i32.store offset={{REC_READ}} (local.get $c) (global.get $read))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (local.set $p (i32.add (local.get $q) (i32.const 1)))
        (br $line)))
    (global.set $next (local.get $p))
    (global.set $lfSpace (i32.const 1))
    (local.get $n))
)
