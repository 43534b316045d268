/**
 * Completion is a pure function of text and offset (DESIGN principle 6). This file answers "what can go
 * here?" from the tokens before the cursor, so it works on broken and incomplete input that does not parse;
 * `items.ts` turns the answer into items.
 */
import type { Span } from '../ast.js';
import { NOT_FORMS, type OperatorInfo } from '../operators.js';
import { DEFAULT_DATASET, getDataset, type FieldInfo } from '../datasets/index.js';
import { editorTokens, isWordToken, type EditorToken } from './tokens.js';
import { datasetOf } from './dataset-line.js';
import { readField } from '../syntax/field-names.js';

interface SituationBase {
  /** The text the chosen item replaces: the word or string under the cursor, else the empty span at it. */
  replace: Span;
  /** What is typed of that word before the cursor (clients filter items by it). */
  prefix: string;
  /** The dataset in effect: the file's `dataset` line when it names a known one, else the caller's. */
  dataset: string;
}

export interface NoCompletion extends SituationBase {
  kind: 'none';
}
/** Start of a condition: field names, `not`, `(`; at the very start of the file also `dataset`. */
export interface ExpressionSituation extends SituationBase {
  kind: 'expression';
  /** Nothing but comments before the cursor: the `dataset` line may still come. */
  fileStart: boolean;
}
export interface DatasetNameSituation extends SituationBase {
  kind: 'dataset-name';
}
/** After a field: the operators its type allows; after `field not`, the operators `not` may precede. */
export interface OperatorSituation extends SituationBase {
  kind: 'operator';
  fieldName: string;
  /** Undefined when the field is not in the dataset's schema (or the dataset is `any`). */
  field?: FieldInfo;
  afterNot: boolean;
}
/** After an operator, or inside a list: values. */
export interface ValueSituation extends SituationBase {
  kind: 'value';
  fieldName?: string;
  field?: FieldInfo;
  /** The operator as it reads after any `not` in the condition (`not in` is `!in`). */
  operator?: OperatorInfo;
  inList: boolean;
  /** Values already written in the list (source text), so they are not offered twice. */
  listValues: string[];
  /**
   * The cursor ends a complete number or boolean after an operator (`>= 500|`, `== true|`): the condition
   * may be complete, so `and`/`or` are offered too (written after the value).
   */
  complete?: boolean;
}
/** After a complete condition or group: `and`, `or`. */
export interface ConnectiveSituation extends SituationBase {
  kind: 'connective';
  /** Open parentheses before the cursor. */
  depth: number;
  /**
   * The word would be glued to what precedes it (`"a"|`, `500|`, `)|`): the items insert their own leading
   * space, so `"a"and` is never written.
   */
  space: boolean;
}

export type CompletionSituation =
  | NoCompletion
  | ExpressionSituation
  | DatasetNameSituation
  | OperatorSituation
  | ValueSituation
  | ConnectiveSituation;

type State =
  | { s: 'start' }
  | { s: 'dataset-name' }
  | { s: 'expression' }
  | { s: 'after-field'; name: string }
  | { s: 'after-field-not'; name: string }
  | { s: 'value'; name?: string; op?: OperatorInfo }
  | { s: 'list'; name?: string; op?: OperatorInfo; values: string[]; afterItem: boolean }
  | { s: 'after-condition' };

/**
 * What may be written at `offset` in `text`. `dataset` is the caller's default (editor setting); a
 * `dataset` line in the text wins when it names a known dataset. Never throws.
 */
export function completionSituation(text: string, offset: number, dataset: string = DEFAULT_DATASET): CompletionSituation {
  offset = Math.max(0, Math.min(offset, text.length));
  // Only the text before the cursor decides the situation, plus the rest of the word under the cursor. In
  // a large text only a window before the cursor is read, from a line start (tokens never span lines): a
  // condition longer than the window is the only case where the situation could differ.
  const from = offset > WINDOW ? lineStartAfter(text, offset - WINDOW, offset) : 0;
  const tokens = editorTokens(text.slice(from, offset) + wordTail(text, offset)).map((t) => (from ? { ...t, start: t.start + from, end: t.end + from } : t));
  let replace: Span = { start: offset, end: offset };
  let prefix = '';
  let context = tokens;
  let inString = false;
  let complete = false;

  const at = tokens.findIndex((t) => t.start < offset && offset <= t.end);
  if (at >= 0) {
    const t = tokens[at];
    if (t.kind === 'comment') return { kind: 'none', replace, prefix, dataset: effectiveDataset(tokens, dataset) };
    const unterminated = t.kind === 'string' && (t.image.length < 2 || !t.image.endsWith('"'));
    if (t.kind === 'string' && (offset < t.end || unterminated)) {
      inString = true;
      // The lexed text stops at the cursor; the string's real end is in the full text.
      replace = { start: t.start, end: stringEnd(text, t.start) };
      prefix = text.slice(t.start, offset);
      context = tokens.slice(0, at);
    } else if (isWordToken(t) || t.kind === 'quoted-identifier' || t.kind === 'int' || t.kind === 'float') {
      complete = offset === t.end && COMPLETE_VALUES.has(t.kind);
      replace = { start: t.start, end: t.end };
      prefix = text.slice(t.start, offset);
      context = tokens.slice(0, at);
    } else {
      context = tokens.slice(0, at + 1);
    }
  } else {
    context = tokens.filter((t) => t.end <= offset);
  }

  const ds = from > 0 ? datasetOf(text, dataset) : effectiveDataset(context, dataset);
  const base = { replace, prefix, dataset: ds };
  const schema = getDataset(ds);
  const fieldInfo = (name: string | undefined) => (name === undefined ? undefined : schema?.byName.get(name));

  let state: State = from > 0 ? { s: 'expression' } : { s: 'start' };
  let depth = 0;
  for (const t of context) {
    if (t.kind === 'comment') continue;
    state = step(state, t);
    if (t.kind === 'lparen') depth++;
    else if (t.kind === 'rparen') depth = Math.max(0, depth - 1);
  }

  switch (state.s) {
    case 'start':
      if (inString) return { kind: 'none', ...base };
      return { kind: 'expression', fileStart: true, ...base };
    case 'dataset-name':
      return { kind: 'dataset-name', ...base };
    case 'expression':
      if (inString) return { kind: 'none', ...base };
      return { kind: 'expression', fileStart: false, ...base };
    case 'after-field':
    case 'after-field-not':
      if (inString) return { kind: 'none', ...base };
      return { kind: 'operator', fieldName: state.name, field: fieldInfo(state.name), afterNot: state.s === 'after-field-not', ...base };
    case 'value':
      return { kind: 'value', fieldName: state.name, field: fieldInfo(state.name), operator: state.op, inList: false, listValues: [], ...(complete ? { complete } : {}), ...base };
    case 'list':
      if (state.afterItem && prefix === '') return { kind: 'none', ...base };
      return { kind: 'value', fieldName: state.name, field: fieldInfo(state.name), operator: state.op, inList: true, listValues: state.values, ...base };
    case 'after-condition':
      if (inString) return { kind: 'none', ...base };
      return { kind: 'connective', depth, space: replace.start > 0 && !/\s/.test(text[replace.start - 1]), ...base };
  }
}

const WINDOW = 4096;

/** Tokens that are a whole value as typed (a string is whole only once closed, a word may be a prefix). */
const COMPLETE_VALUES = new Set<EditorToken['kind']>(['int', 'float', 'true', 'false']);

function lineStartAfter(text: string, at: number, limit: number): number {
  for (let i = at; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i + 1;
  }
  return at;
}

/** The rest of an identifier-like word after the cursor, so the word under the cursor is replaced whole. */
function wordTail(text: string, offset: number): string {
  const m = /^[A-Za-z0-9_]*/.exec(text.slice(offset, offset + 256));
  return m ? m[0] : '';
}

/** End of the string literal opening at `start` in the full text: after its closing quote, else at the line end. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') return i + 1;
    else if (c === '\n' || c === '\r') return i;
  }
  return text.length;
}

function effectiveDataset(tokens: readonly EditorToken[], fallback: string): string {
  const significant = tokens.filter((t) => t.kind !== 'comment');
  if (significant[0]?.kind === 'dataset' && significant[1]?.kind === 'identifier') {
    const name = significant[1].image;
    if (getDataset(name) || name === 'any') return name;
  }
  return fallback;
}

function fieldName(t: EditorToken): string {
  return readField(t.image);
}

/** One token of recovery-minded reading: broken input moves to the most plausible state, never fails. */
function step(state: State, t: EditorToken): State {
  switch (t.kind) {
    case 'lparen':
      return { s: 'expression' };
    case 'rparen':
      return { s: 'after-condition' };
    case 'and':
    case 'or':
      return { s: 'expression' };
    case 'dataset':
      return state.s === 'start' ? { s: 'dataset-name' } : state;
    case 'not':
      return state.s === 'after-field' ? { s: 'after-field-not', name: state.name } : { s: 'expression' };
    case 'identifier':
    case 'quoted-identifier':
      if (state.s === 'dataset-name') return { s: 'expression' };
      if (state.s === 'value') return { s: 'after-condition' };
      if (state.s === 'list') return { ...state, afterItem: true };
      return { s: 'after-field', name: fieldName(t) };
    case 'operator': {
      const name = state.s === 'after-field' || state.s === 'after-field-not' ? state.name : undefined;
      let op = t.operator;
      if (state.s === 'after-field-not' && op) op = NOT_FORMS.get(op.name) ?? op;
      return { s: 'value', name, op };
    }
    case 'string':
    case 'int':
    case 'float':
    case 'true':
    case 'false':
      if (state.s === 'list') return { ...state, values: [...state.values, t.image], afterItem: true };
      return { s: 'after-condition' };
    case 'lbracket':
      return state.s === 'value'
        ? { s: 'list', name: state.name, op: state.op, values: [], afterItem: false }
        : { s: 'list', values: [], afterItem: false };
    case 'comma':
      return state.s === 'list' ? { ...state, afterItem: false } : state;
    case 'rbracket':
      return { s: 'after-condition' };
    case 'comment':
    case 'bad':
      return state;
  }
}
