/**
 * V8's wasm inlining for the line kernel (src/eval/wasm-inlining.ts): turned on before the kernel compiles, for
 * inputs large enough to pay for loading node:v8, never for small ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareEvaluation } from '../../src/eval/evaluate.js';
import { INLINING_MIN_BYTES, INLINING_MIN_BYTES_ALONE, inliningPays, wasmInliningEnabled } from '../../src/eval/wasm-inlining.js';
import { tempDir } from './support.js';

const dir = tempDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const MB = 1 << 20;

describe('wasm inlining', () => {
  it.each([
    [INLINING_MIN_BYTES - 1, 1, false],
    [INLINING_MIN_BYTES, 1, true],
    [INLINING_MIN_BYTES, 7, true],
    [INLINING_MIN_BYTES, 0, false],
    [INLINING_MIN_BYTES_ALONE - 1, 0, false],
    [INLINING_MIN_BYTES_ALONE, 0, true],
  ])('%d bytes with %d workers: %s', (weight, workers, pays) => {
    expect(inliningPays(weight, workers)).toBe(pays);
  });

  it('is left off for a small input and turned on for a large one, when the evaluation is prepared', async () => {
    const small = path.join(dir, 'small.ndjson');
    fs.writeFileSync(small, '{"a":1}\n');
    await prepareEvaluation([{ name: small, path: small }], { workers: 0 }).cancel();
    expect(wasmInliningEnabled()).toBe(false);
    // a sparse file: its size decides, its bytes are never read
    const large = path.join(dir, 'large.ndjson');
    fs.closeSync(fs.openSync(large, 'w'));
    fs.truncateSync(large, INLINING_MIN_BYTES_ALONE + MB);
    await prepareEvaluation([{ name: large, path: large }], { workers: 0 }).cancel();
    const major = Number(process.versions.node.split('.')[0]);
    expect(wasmInliningEnabled()).toBe(major === 20 || major === 21);
  });
});
