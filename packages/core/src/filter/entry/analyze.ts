/**
 * The whole of docs/language.md#diagnostics on a tree, whether it came from source text (compile, format, the language
 * server) or from JSON (check, the emulator), and its compilation: the checks of check/ (dataset, fields and
 * types, nesting, logic, limits) run around the steps of compile/ (normalize, optimize, serialize), since the
 * logic checks judge the normalised tree and the limits judge the serialized bytes.
 */
import type { Condition, DatasetDecl, Expr } from '../ast.js';
import { resolveDataset } from '../check/dataset.js';
import { checkDepth } from '../check/depth.js';
import { checkCondition } from '../check/fields.js';
import { checkLimits } from '../check/limits.js';
import { checkLogic } from '../check/logic.js';
import { conditionsOf, normalize, type NNode } from '../compile/normalize.js';
import { optimize as optimizeTree } from '../compile/optimize.js';
import { serialize, type Serialized } from '../compile/serialize.js';
import type { DatasetSchema } from '../datasets/index.js';
import { diag, type Diagnostic, hasErrors, sortDiagnostics } from '../diagnostics.js';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS } from '../limits.js';
import { expectLimit, expectOptionalString } from '../../lang/guards.js';
import type { Recovered } from '../syntax/parser.js';
import { conditionsIn } from '../walk.js';

export interface CheckOptions {
  /** Used when the source has no `dataset` line. `any` skips field checks. Default `http_requests`. */
  dataset?: string;
  /** Operator limit (default 30). */
  maxOperators?: number;
  /** Byte limit of the compact filter JSON (default 1000). */
  maxBytes?: number;
}

export interface CompileOptions extends CheckOptions {
  /** Merge `x == a or x == b` into `x in [a, b]`, drop exact duplicates (never changes the result). */
  optimize?: boolean;
}

export interface Stats {
  /** Conditions in the compiled filter (and/or do not count). */
  operators: number;
  /** UTF-8 length of the compact filter JSON. */
  bytes: number;
  maxOperators: number;
  maxBytes: number;
  /** With `optimize`: the operator count before optimisation. */
  operatorsBeforeOptimize?: number;
}

export interface Analysis {
  diagnostics: Diagnostic[];
  dataset: string;
  schema?: DatasetSchema;
  tree?: NNode;
  serialized?: Serialized;
  stats: Stats;
}

export interface AnalyzeInput {
  dataset?: DatasetDecl;
  expr?: Expr;
  /** Diagnostics found before (syntax, JSON structure); the tree is complete only without errors among them. */
  diagnostics: Diagnostic[];
  /** Where to point `empty-filter` (end of the text). */
  endOffset: number;
  /** All parsed conditions, when syntax errors left parts of them out of `expr` (they are still checked). */
  conditions?: Condition[];
}

/** `fn`: the public function whose options these are, named when one is refused (lang/guards.ts). */
export function analyze(input: AnalyzeInput, options: CompileOptions = {}, fn = 'analyze'): Analysis {
  const diagnostics = [...input.diagnostics];
  expectOptionalString(options.dataset, fn, 'dataset');
  expectLimit(options.maxOperators, fn, 'maxOperators');
  expectLimit(options.maxBytes, fn, 'maxBytes');
  const maxOperators = options.maxOperators ?? DEFAULT_MAX_OPERATORS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const stats: Stats = { operators: 0, bytes: 0, maxOperators, maxBytes };

  const { dataset, schema } = resolveDataset(input.dataset, options.dataset, diagnostics);

  const complete = !hasErrors(input.diagnostics);
  const checkFields = (c: Condition) => {
    if (!(c as Recovered<Condition>).recovered) checkCondition(c, schema, diagnostics);
  };
  if (!complete && input.conditions) input.conditions.forEach(checkFields);
  else if (input.expr) conditionsIn(input.expr).forEach(checkFields);
  if (!input.expr) {
    if (complete) diagnostics.push(diag('empty-filter', 'the filter has no condition', input.endOffset, input.endOffset));
    return { diagnostics: sortDiagnostics(diagnostics), dataset, schema, stats };
  }

  const deep = checkDepth(input.expr, diagnostics);
  if (!complete || deep) return { diagnostics: sortDiagnostics(diagnostics), dataset, schema, stats };

  let tree = normalize(input.expr);
  checkLogic(tree, schema, diagnostics);
  if (options.optimize) {
    stats.operatorsBeforeOptimize = conditionsOf(tree).length;
    tree = optimizeTree(tree, schema);
  }
  const serialized = serialize(tree);
  stats.operators = serialized.conditionEnds.length;
  stats.bytes = serialized.bytes;
  checkLimits(serialized, maxOperators, maxBytes, diagnostics);
  return { diagnostics: sortDiagnostics(diagnostics), dataset, schema, tree, serialized, stats };
}
