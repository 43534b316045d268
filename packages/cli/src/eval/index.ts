/** Library entry of the evaluator for tools (e.g. the VS Code extension). */
export { evaluateFile, evaluateInputs, evaluateLines, evaluateStream, type EvalInput } from './evaluate.js';
export type { EvalOptions, EvalResult, MalformedLine } from './types.js';
export { renderExplain, renderSummary, toJsonReport } from './render.js';
