/** Library entry of the evaluator for tools (e.g. the VS Code extension). */
export { evaluateFile, evaluateInputs, evaluateLines, evaluateStream, prepareEvaluation, type EvalInput, type PreparedEvaluation } from './evaluate.js';
export type { EvalOptions, EvalResult, InputError, MalformedLine } from './types.js';
export { renderExplain, renderSummary, toJsonReport } from './render.js';
