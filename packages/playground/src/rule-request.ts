/**
 * Testing a rules expression against a request in the page: the request form (URL, method, client IP, header
 * lines, any other field as JSON, named lists) becomes the JSON object `logfilter rules eval --request` reads,
 * and the core's evaluateRule — the CLI's — answers match or no match with the value of every sub-expression.
 * The page shows that JSON too, so the same request can be replayed with the CLI. Pure: vitest runs it.
 */
import { evaluateRule, readSampleRequest, type ExplainStep } from '@logfilter/core';

/** The form as the page (and a share link) holds it: the text of each input. */
export interface RequestForm {
  /** `http.request.full_uri`: gives host, path, query, args, ssl (the evaluator derives them). */
  url: string;
  method: string;
  /** `ip.src`. */
  ip: string;
  /** `Name: value` lines, `http.request.headers`. */
  headers: string;
  /** A JSON object of any other fields (`{"ssl": true, "cf.bot_management.score": 12}`). */
  more: string;
  /** Named lists for `in $name`: `{"office": ["192.0.2.0/24"]}`, as `rules eval --lists` reads them. */
  lists: string;
}

export type RequestInput = keyof RequestForm;

export const EMPTY_REQUEST: RequestForm = { url: '', method: '', ip: '', headers: '', more: '', lists: '' };

export interface RequestProblem {
  input: RequestInput;
  /** 1-based line in a multi-line input (headers). */
  line?: number;
  message: string;
}

/** Which form input gives each field, so that the evaluator's complaint about a field lands on its input. */
const INPUT_OF_FIELD: Record<string, RequestInput> = {
  'http.request.full_uri': 'url',
  'http.request.method': 'method',
  'ip.src': 'ip',
  'http.request.headers': 'headers',
};
const ORDER: RequestInput[] = ['url', 'method', 'ip', 'headers', 'more', 'lists'];

function parseObject(text: string, input: RequestInput, problems: RequestProblem[]): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    problems.push({ input, message: `not valid JSON: ${(e as Error).message}` });
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ input, message: 'expected a JSON object: {"name": value, …}' });
    return undefined;
  }
  return value as Record<string, unknown>;
}

/** The request object `rules eval --request` takes, and the problems of the form (none: it can be evaluated). */
export function requestOf(form: RequestForm): { request: Record<string, unknown>; lists: Record<string, (string | number)[]>; problems: RequestProblem[] } {
  const problems: RequestProblem[] = [];
  const request: Record<string, unknown> = {};
  const url = form.url.trim();
  if (url) {
    // the evaluator derives nothing from what is not a URL: said here rather than silently ignored
    if (!URL.canParse(url)) problems.push({ input: 'url', message: 'not a URL: write it whole, with its scheme (https://shop.example/path?query)' });
    request['http.request.full_uri'] = url;
  }
  if (form.method.trim()) request['http.request.method'] = form.method.trim();
  if (form.ip.trim()) request['ip.src'] = form.ip.trim();
  const headers: Record<string, string[]> = {};
  form.headers.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const colon = line.indexOf(':');
    if (colon <= 0) return problems.push({ input: 'headers', line: i + 1, message: 'expected `Name: value`' });
    // header names in lower case, as the provider gives them to rules; a repeated header keeps each value
    (headers[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
  });
  if (Object.keys(headers).length) request['http.request.headers'] = headers;
  const more = parseObject(form.more, 'more', problems) ?? {};
  for (const [name, value] of Object.entries(more)) {
    if (name in request) problems.push({ input: 'more', message: `${name} is given twice (here and in the form above)` });
    else request[name] = value;
  }
  const lists = (parseObject(form.lists, 'lists', problems) ?? {}) as Record<string, (string | number)[]>;
  for (const [name, items] of Object.entries(lists)) {
    if (!Array.isArray(items) || !items.every((x) => typeof x === 'string' || typeof x === 'number')) problems.push({ input: 'lists', message: `list ${name}: expected an array of strings and numbers` });
  }
  for (const p of readSampleRequest(request).problems) {
    // the evaluator's problems read `field NAME: …` or `unknown field "NAME"…`
    const name = /^field (\S+):/.exec(p)?.[1] ?? '';
    problems.push({ input: INPUT_OF_FIELD[name] ?? 'more', message: p });
  }
  problems.sort((a, b) => ORDER.indexOf(a.input) - ORDER.indexOf(b.input) || (a.line ?? 0) - (b.line ?? 0));
  return { request, lists, problems };
}

export type RequestEvaluation =
  | { state: 'match' | 'no-match'; explain: ExplainStep[] }
  /** The expression does not check: its diagnostics are already under the editor. */
  | { state: 'invalid' }
  /** The expression checks but cannot be evaluated here (a named list not given, a regex RE2 refuses). */
  | { state: 'problem'; code: 'rule-eval'; message: string; start: number; end: number }
  | { state: 'bad-request'; problems: RequestProblem[] };

/** The expression (a filter, as rules eval's default `--kind filter`) evaluated against the form's request. */
export function evaluateRequest(rule: string, phase: string, form: RequestForm): RequestEvaluation {
  const { request, lists, problems } = requestOf(form);
  if (problems.length) return { state: 'bad-request', problems };
  const result = evaluateRule(rule, readSampleRequest(request).fields, { lists, ...(phase ? { phase } : {}) });
  if (result.ok) return { state: result.matched ? 'match' : 'no-match', explain: result.explain };
  if (!result.problem) return { state: 'invalid' };
  // as the CLI reports it: a diagnostic at least one character wide
  const { message, start, end } = result.problem;
  return { state: 'problem', code: 'rule-eval', message, start, end: Math.max(end, start + 1) };
}
