/** Public API of the evaluator (docs/language.md#evaluation). */
export { createMatcher, isLogObject, filterFields, type Matcher } from './matcher.js';
export { createLineMatcher, type LineMatcher, type LineVerdict } from './line-matcher.js';
export {
  createBlockScanner,
  defaultDecode,
  defaultSearch,
  type BlockScanner,
  type ByteDecode,
  type ByteSearch,
  type ScanCallbacks,
  type ScanCounts,
  type ScanHooks,
  type ScanOptions,
} from './scanner.js';
export { lineKernelModule, adoptLineKernelModule } from './line-kernel.js';
export { evalPlan, type EvalPlan } from './plan.js';
export { needlePlan, type NeedleClause, type NeedlePlan } from './needles.js';
export { createExplainer, type ExplainNode, type ExplainReport, type Explainer } from './explain.js';
export { isNumericString, toNumber } from './values.js';
export { exactFilter, parseExact } from './exact.js';
