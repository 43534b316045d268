/**
 * The committed kernel module and layout are what scripts/gen-line-kernel.mjs generates now (else run it), and
 * the generator refuses a layout the kernel cannot index or a placeholder the layout does not define.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../../test/support/paths.js';
import { generate, instantiate, layoutValues } from '../../../../scripts/gen-line-kernel.mjs';
import { KERNEL_LAYOUT } from '../../src/eval/line-kernel.generated.js';

describe('generated line kernel', () => {
  it('is what the generator writes from kernel.wat and kernel-layout.mjs now', async () => {
    const committed = fs.readFileSync(path.join(REPO, 'packages/core/src/eval/line-kernel.generated.ts'), 'utf8');
    expect(committed).toBe(await generate());
  });

  it('takes every size and offset of kernel.wat from the layout table', () => {
    const wat = fs.readFileSync(path.join(REPO, 'packages/core/src/eval/kernel.wat'), 'utf8');
    const used = new Set([...wat.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual([
      'CLAUSE_BYTES', 'CLAUSE_COUNT', 'CLAUSE_PIECES', 'CLAUSE_TRIGGERS', 'CLAUSE_TRIGGER_COUNT',
      'FILTER_SHIFT', 'HASH_FACTOR', 'HASH_MAX_BYTES', 'KEY_AT', 'KEY_FIRST', 'KEY_LAST', 'KEY_LENGTH', 'KEY_NEXT', 'KEY_SHIFT',
      'NODE_ARRAYS', 'NODE_AT', 'NODE_BOOLEQ', 'NODE_CHILD', 'NODE_ENDS', 'NODE_EQUALS', 'NODE_FALSE', 'NODE_FIELD', 'NODE_GT', 'NODE_KIND',
      'NODE_LEN', 'NODE_LEQ', 'NODE_LT', 'NODE_NEG', 'NODE_NEXT', 'NODE_NUM', 'NODE_NUMEQ', 'NODE_OR', 'NODE_RARE_A', 'NODE_RARE_B',
      'NODE_SHIFT', 'NODE_STARTS',
      'NODE_UNKNOWN', 'OUT_BYTES', 'OUT_END', 'OUT_FLAGS', 'OUT_HASH', 'OUT_SHIFT', 'OUT_START',
      'PIECE_AT', 'PIECE_BYTES', 'PIECE_LEN', 'PIECE_RARE_A', 'PIECE_RARE_B', 'PIECE_SHIFT', 'REC_CODE', 'REC_END', 'REC_LINE',
      'REC_MALFORMED', 'REC_MATCH', 'REC_READ', 'REC_SHIFT', 'REC_START', 'REC_TOTAL', 'REC_UNDECIDED', 'SLOT_SHIFT', 'UNESCAPE_BYTES',
    ]);
    // $eval relies on the kinds' order: `and` 0 and `or` 1 (the value that decides each), groups first and the
    // comparisons last, `>=` the last of them (NODE_AND, NODE_CONTAINS and NODE_GEQ are not named there)
    expect([KERNEL_LAYOUT.NODE_AND, KERNEL_LAYOUT.NODE_OR]).toEqual([0, 1]);
    const kinds = Object.entries(KERNEL_LAYOUT).filter(([k]) => /^NODE_[A-Z]+$/.test(k) && !['NODE_BYTES', 'NODE_KIND', 'NODE_CHILD', 'NODE_NEXT', 'NODE_FIELD', 'NODE_NEG', 'NODE_AT', 'NODE_LEN', 'NODE_ARRAYS', 'NODE_NUM', 'NODE_SHIFT'].includes(k));
    expect(Math.max(...kinds.map(([, v]) => v as number))).toBe(KERNEL_LAYOUT.NODE_GEQ);
    expect(kinds.filter(([, v]) => (v as number) >= KERNEL_LAYOUT.NODE_LT).map(([k]) => k).sort()).toEqual(['NODE_GEQ', 'NODE_GT', 'NODE_LEQ', 'NODE_LT']);
    expect(new Set(kinds.map(([, v]) => v)).size).toBe(kinds.length);
    // no record field (read through $info, a key record, or $q, a result record) is at a literal offset
    expect(wat).not.toMatch(/\b(?:i32|i64)\.(?:load|store) offset=\d+ \(local\.get \$(?:info|q)\)/);
    expect(wat).toMatch(/i32\.store offset=\{\{OUT_END\}\} \(local\.get \$q\)/);
    expect(KERNEL_LAYOUT.KEY_SHIFT).toBe(Math.log2(KERNEL_LAYOUT.KEY_BYTES));
  });

  it('refuses a record that is not a power of two, fields that do not fit or overlap, and unknown names', () => {
    const base = layoutValues();
    expect(() => layoutValues({ ...base, KEY_BYTES: 24 })).toThrow(/KEY_BYTES/);
    expect(() => layoutValues({ ...base, OUT_HASH: 16 })).toThrow(/OUT_HASH/);
    expect(() => layoutValues({ ...base, KEY_LAST: 12 })).toThrow(/KEY_LAST/);
    expect(() => layoutValues({ ...base, KEY_NEXT: 0 })).toThrow(/overlaps/);
    expect(() => instantiate('(i32.const {{NOPE}})', base)).toThrow(/NOPE/);
    expect(instantiate('offset={{OUT_END}}', base)).toBe(`offset=${KERNEL_LAYOUT.OUT_END}`);
  });
});
