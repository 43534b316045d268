/**
 * A 10^4 slice of the fuzzer (harness.ts) in every test run: no exception from any entry point of the core, and
 * no broken round trip or evaluator disagreement. `npm run fuzz` runs 10^6 (and also fails on a call over 1 s;
 * here the time is printed, not asserted). FUZZ_COUNT and FUZZ_SEED override the size and seed.
 */
import { describe, expect, it } from 'vitest';
import { runFuzz } from './harness.js';

const count = Number(process.env.FUZZ_COUNT ?? 10_000);
const seed = Number(process.env.FUZZ_SEED ?? 12);

describe('fuzzing the core', () => {
  it(`${count} inputs (seed ${seed}): no throw, round trips hold, the evaluators agree`, { timeout: 600_000 }, () => {
    const report = runFuzz({ count, seed, limitMs: Number.POSITIVE_INFINITY });
    const steps = Object.entries(report.byStep)
      .sort((a, b) => b[1].ms - a[1].ms)
      .map(([k, v]) => `${k} ${v.calls}×${(v.ms / v.calls).toFixed(2)}ms`)
      .join(', ');
    console.log(`fuzz: ${report.inputs} inputs, ${report.calls} calls in ${(report.ms / 1000).toFixed(1)} s; slowest ${report.slowest.step} ${report.slowest.ms.toFixed(0)} ms; ${steps}`);
    expect(report.failures).toEqual([]);
  });
});
