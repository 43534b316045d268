/** `too-many-operators` and `too-large` (docs/language.md#limits), judged on the serialized filter. */
import type { Serialized } from '../compile/serialize.js';
import { diag, type Diagnostic } from '../diagnostics.js';

export function checkLimits(serialized: Serialized, maxOperators: number, maxBytes: number, diagnostics: Diagnostic[]): void {
  const operators = serialized.conditionEnds.length;
  if (operators > maxOperators) {
    const c = serialized.conditionEnds[maxOperators].condition.src;
    diagnostics.push(
      diag('too-many-operators', `the filter uses ${operators} operators; the limit is ${maxOperators}`, c.start, c.end, { path: c.path }),
    );
  }
  if (serialized.bytes > maxBytes) {
    const past = serialized.conditionEnds.find((e) => e.byteEnd > maxBytes) ?? serialized.conditionEnds[serialized.conditionEnds.length - 1];
    const c = past.condition.src;
    diagnostics.push(diag('too-large', `the compiled filter is ${serialized.bytes} bytes; the limit is ${maxBytes}`, c.start, c.end, { path: c.path }));
  }
}
