/**
 * The whole of docs/language.md#diagnostics on a tree, whether it came from source text (compile, format, the language
 * server) or from JSON (check, the emulator): dataset, fields and types, nesting, logic, limits.
 */
import type { Condition, DatasetDecl, Expr } from '../ast.js';
import { conditionsOf, normalize, type NNode } from '../compile/normalize.js';
import { optimize as optimizeTree } from '../compile/optimize.js';
import { serialize, type Serialized } from '../compile/serialize.js';
import { ANY_DATASET, DATASETS, DEFAULT_DATASET, type DatasetSchema, getDataset } from '../datasets/index.js';
import { diag, type Diagnostic, hasErrors, sortDiagnostics } from '../diagnostics.js';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS, MAX_DEPTH } from '../limits.js';
import type { Recovered } from '../syntax/parser.js';
import { closest } from '../util/closest.js';
import { conditionsIn } from '../walk.js';
import { checkCondition } from './fields.js';
import { checkLogic } from './logic.js';


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

export function analyze(input: AnalyzeInput, options: CompileOptions = {}): Analysis {
  const diagnostics = [...input.diagnostics];
  const maxOperators = options.maxOperators ?? DEFAULT_MAX_OPERATORS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const stats: Stats = { operators: 0, bytes: 0, maxOperators, maxBytes };

  const dataset = input.dataset?.name ?? options.dataset ?? DEFAULT_DATASET;
  let schema: DatasetSchema | undefined;
  if (dataset !== ANY_DATASET) {
    schema = getDataset(dataset);
    if (!schema) {
      const at = input.dataset ? [input.dataset.nameStart, input.dataset.nameEnd] : [0, 0];
      const near = closest(dataset, [...DATASETS.keys(), ANY_DATASET], 3);
      diagnostics.push(
        diag('unknown-dataset', `unknown dataset ${dataset}; known: ${[...DATASETS.keys(), ANY_DATASET].join(', ')}`, at[0], at[1], {
          suggestions: near,
          fixes: input.dataset ? near.map((n, i) => ({ title: `Change to ${n}`, edits: [{ start: at[0], end: at[1], newText: n }], preferred: i === 0 })) : undefined,
        }),
      );
    }
  }

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
  if (stats.operators > maxOperators) {
    const c = serialized.conditionEnds[maxOperators].condition.src;
    diagnostics.push(
      diag('too-many-operators', `the filter uses ${stats.operators} operators; the limit is ${maxOperators}`, c.start, c.end, { path: c.path }),
    );
  }
  if (stats.bytes > maxBytes) {
    const past = serialized.conditionEnds.find((e) => e.byteEnd > maxBytes) ?? serialized.conditionEnds[serialized.conditionEnds.length - 1];
    const c = past.condition.src;
    diagnostics.push(diag('too-large', `the compiled filter is ${stats.bytes} bytes; the limit is ${maxBytes}`, c.start, c.end, { path: c.path }));
  }
  return { diagnostics: sortDiagnostics(diagnostics), dataset, schema, tree, serialized, stats };
}

/**
 * Nesting deeper than 64 groups: parenthesised groups in source, and/or nodes in JSON (where the tree came
 * from a document, its nodes carry a `path`).
 */
function checkDepth(e: Expr, out: Diagnostic[]): boolean {
  const stack: { n: Expr; depth: number }[] = [{ n: e, depth: 0 }];
  while (stack.length) {
    const { n, depth } = stack.pop()!;
    if (!n) continue;
    let d = depth;
    if (n.kind === 'group' || ((n.kind === 'and' || n.kind === 'or') && n.path)) {
      d++;
      if (d > MAX_DEPTH) {
        const end = n.kind === 'group' ? n.start + 1 : n.end;
        out.push(diag('too-deep', `nesting deeper than ${MAX_DEPTH} groups`, n.start, end, { path: n.kind !== 'group' ? n.path : undefined }));
        return true;
      }
    }
    if (n.kind === 'group' || n.kind === 'not') stack.push({ n: n.expr, depth: d });
    else if (n.kind === 'and' || n.kind === 'or') for (const i of n.items) stack.push({ n: i, depth: d });
  }
  return false;
}
