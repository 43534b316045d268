/** The committed kernel module is what wabt assembles from kernel.wat now (else run scripts/gen-line-kernel.mjs). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { REPO } from '../../../../test/support/paths.js';
import { LINE_KERNEL_WASM } from '../../src/eval/line-kernel.generated.js';

describe('generated line kernel', () => {
  it('holds the bytes wabt assembles from kernel.wat', async () => {
    const wabt = await wabtInit();
    const source = fs.readFileSync(path.join(REPO, 'packages/core/src/eval/kernel.wat'), 'utf8');
    // The same options as scripts/gen-line-kernel.mjs: SIMD on, no names section.
    const mod = wabt.parseWat('kernel.wat', source, { simd: true });
    mod.validate();
    const bytes = Buffer.from(mod.toBinary({ log: false, write_debug_names: false }).buffer);
    mod.destroy();
    expect(LINE_KERNEL_WASM).toBe(bytes.toString('base64'));
  });
});
