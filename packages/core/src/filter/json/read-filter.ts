/**
 * Reads a filter from any of the four input forms of docs/language.md#decompiling-and-formatting:
 *   'filter'   the filter object {"where": ...}
 *   'string'   JSON text whose value is a string holding the filter JSON (as in job bodies)
 *   'job'      a log export job object holding `filter` (a string as usual, or an object)
 *   'envelope' an API response {result: job, success, errors, messages}
 * Offsets always point into the text the caller gave, through string escapes; paths locate every node from
 * the root of the input (a JSON-encoded string adds no path step). The result feeds decompile and check.
 */
import type { Expr, JsonPath } from '../ast.js';
import { diag, sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { getProperty, parseJson, type JsonObject, type JsonString, type JsonValue } from '../../lang/located-json.js';
import { fromPlain, toPlain } from './plain.js';
import { validateFilterDocument } from './schema.js';
import { readFilterTree } from './filter-tree.js';
import { IDENTITY_MAPPING, NO_TEXT_MAPPING, mapDiagnostic, throughString, type TextMapping } from '../../lang/text-mapping.js';

export type FilterInputForm = 'filter' | 'string' | 'job' | 'envelope';

export interface ReadFilterResult {
  /** The filter, only when it has no error (warnings allowed). */
  expr?: Expr;
  /** Which input form was recognised. */
  form?: FilterInputForm;
  diagnostics: Diagnostic[];
  /** The text every offset refers to (the input, when it was text). */
  text?: string;
  /** Where the filter document sits in the input (`[]`, `["filter"]`, `["result","filter"]`). */
  filterPath?: JsonPath;
  /** The job's `dataset`, when the input is a job (or an API answer holding one) that names it. */
  dataset?: string;
  /** Where that name is in the text (inside its quotes) and its JSON path, when there is a text. */
  datasetAt?: DatasetAt;
}

export interface DatasetAt {
  start: number;
  end: number;
  path: JsonPath;
}

interface Read {
  expr?: Expr;
  diagnostics: Diagnostic[];
  filterPath?: JsonPath;
  dataset?: string;
  datasetAt?: DatasetAt;
}

const NODE_KEYS = ['where', 'key', 'operator', 'value', 'and', 'or'];
/** Fields only a log export job has (the provider's job object, as the @logfilter/api README lists its fields). */
const JOB_KEYS = ['filter', 'destination_conf', 'logpull_options', 'output_options', 'ownership_challenge', 'dataset'];
const ENVELOPE_KEYS = ['result', 'success'];
/** A JSON-encoded filter inside a JSON-encoded string: followed this many times, then reported. */
const MAX_ENCODINGS = 3;

/**
 * `input`: JSON text, or an already-parsed value (then there is no text: offsets are 0 and no fix is offered).
 * Never throws.
 */
export function readFilterInput(input: unknown): ReadFilterResult {
  try {
    const result = read(input);
    result.diagnostics = sortDiagnostics(result.diagnostics);
    if (result.diagnostics.some((d) => d.severity === 'error')) delete result.expr;
    return result;
  } catch (e) {
    // A bug here must not become an exception for the editor or the CLI; it becomes a visible diagnostic.
    return { diagnostics: [diag('invalid-node', `internal error while reading the filter: ${String(e)}`, 0, 0)] };
  }
}

function read(input: unknown): ReadFilterResult {
  if (typeof input !== 'string') {
    const converted = fromPlain(input);
    if (!converted.value) return { diagnostics: converted.diagnostics };
    return dispatch(converted.value, '', NO_TEXT_MAPPING);
  }
  const parsed = parseJson(input);
  if (parsed.value) return { ...dispatch(parsed.value, input, IDENTITY_MAPPING), text: input };
  const unquoted = readEscapedWithoutQuotes(input);
  if (unquoted) return { ...unquoted, text: input };
  return { diagnostics: parsed.diagnostics, text: input };
}

/** Recognises the form of a parsed input and reads the filter out of it. */
function dispatch(root: JsonValue, source: string, mapping: TextMapping): ReadFilterResult {
  if (root.type === 'string') return { ...readFilterString(root, source, mapping, []), form: 'string' };
  if (root.type === 'object' && !has(root, NODE_KEYS)) {
    if (has(root, ENVELOPE_KEYS) && !has(root, JOB_KEYS)) return { ...readEnvelope(root, source, mapping), form: 'envelope' };
    if (has(root, JOB_KEYS)) return { ...readJob(root, source, mapping, []), form: 'job' };
  }
  return { ...readDocument(root, mapping, []), form: 'filter' };
}

function has(object: JsonObject, keys: readonly string[]): boolean {
  return object.properties.some((p) => keys.includes(p.key.value));
}

/** The filter document itself: structural reading, with the schema as the authority on validity. */
function readDocument(root: JsonValue, mapping: TextMapping, base: JsonPath): Read {
  const tree = readFilterTree(root, mapping, base);
  const diagnostics = tree.diagnostics;
  const schema = validateFilterDocument(toPlain(root));
  if (!schema.valid) {
    // The structural reader explains the usual mistakes precisely; any schema error it did not explain
    // still counts, so that nothing the schema rejects is ever accepted.
    for (const error of schema.errors) {
      const segments = pointerSegments(error.instancePath);
      const path = [...base, ...segments];
      const explained = diagnostics.some((d) => d.path && (startsWith(d.path, path) || startsWith(path, d.path)));
      if (explained) continue;
      const node = nodeAt(root, segments);
      diagnostics.push(
        mapDiagnostic(diag('invalid-node', `the filter does not match its schema: ${error.message}`, node.start, node.end, { path: segments }), mapping, base),
      );
    }
  }
  const expr = diagnostics.some((d) => d.severity === 'error') ? undefined : tree.expr;
  return { expr, diagnostics, filterPath: base };
}

/** A string holding the filter JSON (form 2, or a job's `filter`). `source`: the text `node` was parsed from. */
function readFilterString(node: JsonString, source: string, mapping: TextMapping, base: JsonPath, encodings = 1): Read {
  if (node.value.trim() === '') {
    const d = diag('empty-filter', 'the filter is an empty string', node.start, node.end, { path: [] });
    return { diagnostics: [mapDiagnostic(d, mapping, base)], filterPath: base };
  }
  const inner = throughString(mapping, source, node);
  const parsed = parseJson(node.value);
  if (!parsed.value) return { diagnostics: parsed.diagnostics.map((d) => mapDiagnostic(d, inner, base)), filterPath: base };
  if (parsed.value.type === 'string') {
    const d = diag('invalid-node', 'the filter is JSON-encoded more than once', node.start, node.end, { path: [] });
    const twice = mapDiagnostic(d, mapping, base);
    if (encodings >= MAX_ENCODINGS) return { diagnostics: [twice], filterPath: base };
    // Read on anyway: the problems inside are worth reporting in the same pass.
    const deeper = readFilterString(parsed.value, node.value, inner, base, encodings + 1);
    return { diagnostics: [twice, ...deeper.diagnostics], filterPath: base };
  }
  return readDocument(parsed.value, inner, base);
}

/** A log export job: its `filter` is a string (as the API sends it) or an object (as people write it). */
function readJob(job: JsonObject, source: string, mapping: TextMapping, base: JsonPath): Read {
  const named = getProperty(job, 'dataset')?.value;
  // the filter's fields belong to this dataset: decompile writes its `dataset` line, check checks against it
  // (only a name a `dataset` line can hold; the API's dataset names all are)
  const dataset = named?.type === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(named.value) ? named.value : undefined;
  if (dataset === undefined) return readJobFilter(job, source, mapping, base);
  // an unknown name is reported there, as on a `dataset` line
  const datasetAt = mapping.editable ? { start: mapping.offset(named!.start + 1), end: mapping.offset(named!.end - 1), path: [...base, 'dataset'] } : undefined;
  return { ...readJobFilter(job, source, mapping, base), dataset, ...(datasetAt ? { datasetAt } : {}) };
}

function readJobFilter(job: JsonObject, source: string, mapping: TextMapping, base: JsonPath): Read {
  const path = [...base, 'filter'];
  const filter = getProperty(job, 'filter');
  if (!filter || filter.value.type === 'null') {
    const where = filter ? filter.value : job;
    const d = diag('empty-filter', 'the job has no filter', where.start, where.end, { path: filter ? ['filter'] : [] });
    return { diagnostics: [mapDiagnostic(d, mapping, base)], filterPath: path };
  }
  if (filter.value.type === 'string') return readFilterString(filter.value, source, mapping, path);
  if (filter.value.type === 'object') return readDocument(filter.value, mapping, path);
  const d = diag('invalid-node', 'the job\u2019s "filter" is a JSON-encoded string or an object', filter.value.start, filter.value.end, {
    path: ['filter'],
  });
  return { diagnostics: [mapDiagnostic(d, mapping, base)], filterPath: path };
}

/** An API response: `{result: job, success, errors, messages}`. */
function readEnvelope(envelope: JsonObject, source: string, mapping: TextMapping): Read {
  const report = (message: string, where: JsonValue | JsonObject, path: JsonPath, related?: Diagnostic['related']) => ({
    diagnostics: [mapDiagnostic(diag('invalid-node', message, where.start, where.end, { path, ...(related ? { related } : {}) }), mapping, [])],
  });
  const success = getProperty(envelope, 'success')?.value;
  if (success?.type === 'boolean' && !success.value) {
    const errors = getProperty(envelope, 'errors')?.value;
    const first = errors?.type === 'array' ? errors.items[0] : undefined;
    const messages = errors?.type === 'array' ? errors.items.map(apiErrorText).filter((m) => m) : [];
    const text = messages.length ? messages.join('; ') : 'no error message';
    if (first) return report(`the API answered with an error: ${text}`, first, ['errors', 0]);
    return report(`the API answered with an error: ${text}`, success, ['success']);
  }
  const result = getProperty(envelope, 'result')?.value;
  if (!result || result.type === 'null') return report('the response holds no job', result ?? envelope, result ? ['result'] : []);
  if (result.type === 'array') {
    if (result.items.length === 0) return report('the response holds an empty list of jobs', result, ['result']);
    // one job listed (a zone with one job): nothing to pick, it is read as that job
    const [only] = result.items;
    if (result.items.length === 1 && only.type === 'object') return has(only, ['where']) ? readDocument(only, mapping, ['result', 0]) : readJob(only, source, mapping, ['result', 0]);
    const jobs = result.items.map((item, i) => `result[${i}]${jobLabel(item)}`);
    const related = result.items.map((item, i) => ({
      message: `job result[${i}]${jobLabel(item)}`,
      start: mapping.offset(item.start),
      end: mapping.offset(item.end),
    }));
    return report(`the response holds ${result.items.length} jobs; pick one of ${jobs.join(', ')}`, result, ['result'], related);
  }
  if (result.type !== 'object') return report('the response\u2019s "result" is not a job', result, ['result']);
  if (has(result, ['where'])) return readDocument(result, mapping, ['result']);
  return readJob(result, source, mapping, ['result']);
}

function apiErrorText(error: JsonValue): string {
  if (error.type === 'string') return error.value;
  if (error.type !== 'object') return '';
  const code = getProperty(error, 'code')?.value;
  const message = getProperty(error, 'message')?.value;
  const text = message?.type === 'string' ? message.value : '';
  return code?.type === 'number' ? `${code.raw}: ${text}` : text;
}

function jobLabel(job: JsonValue): string {
  if (job.type !== 'object') return '';
  const parts: string[] = [];
  for (const name of ['id', 'name']) {
    const v = getProperty(job, name)?.value;
    if (v?.type === 'number') parts.push(`${name} ${v.raw}`);
    else if (v?.type === 'string') parts.push(`${name} ${JSON.stringify(v.value)}`);
  }
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * `{\"where\":...}` pasted without its quotes, as the API docs print it. Not JSON; but it is one step from
 * JSON and unambiguous, so it is read (check and decompile succeed on it) with one escaped-json warning offering
 * two fixes, and the filter inside is read for its own problems.
 */
function readEscapedWithoutQuotes(text: string): ReadFilterResult | undefined {
  const start = text.search(/\S/);
  if (start < 0 || (text[start] !== '{' && text[start] !== '[')) return undefined;
  const quote = text.indexOf('"');
  if (quote < 1 || text[quote - 1] !== '\\') return undefined;
  const end = text.trimEnd().length;
  const virtual = `"${text.slice(start, end)}"`;
  const parsed = parseJson(virtual);
  if (parsed.value?.type !== 'string') return undefined;
  const shift: TextMapping = {
    offset: (o) => Math.max(start, Math.min(end, o - 1 + start)),
    encode: (t) => t,
    editable: true,
  };
  const inner = readFilterString(parsed.value, virtual, shift, []);
  // Accepted (the corpus has filters pasted this way), with a warning and both repairs, by every JSON-input path.
  const escaped = diag(
    'escaped-json',
    'this is escaped JSON (the inside of a JSON string) without its quotes; it is read as the string it spells',
    quote - 1,
    quote + 1,
    {
      path: [],
      fixes: [
        { title: 'Unescape it into plain JSON', edits: [{ start, end, newText: parsed.value.value }], preferred: true },
        {
          title: 'Quote it as a JSON string',
          edits: [
            { start, end: start, newText: '"' },
            { start: end, end, newText: '"' },
          ],
        },
      ],
    },
  );
  return { expr: inner.expr, diagnostics: [escaped, ...inner.diagnostics], form: 'string', filterPath: [] };
}

function pointerSegments(pointer: string): JsonPath {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The node a schema error points at; array indexes arrive as strings. Falls back to the deepest found. */
function nodeAt(root: JsonValue, segments: JsonPath): JsonValue {
  let node = root;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    let next: JsonValue | undefined;
    if (node.type === 'array') {
      next = node.items[Number(s)];
      segments[i] = Number(s);
    } else if (node.type === 'object') next = getProperty(node, String(s))?.value;
    if (!next) break;
    node = next;
  }
  return node;
}

function startsWith(path: JsonPath, prefix: JsonPath): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => String(s) === String(path[i]));
}
