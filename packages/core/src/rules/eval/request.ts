/**
 * A sample request for `rules eval`: the fields as JSON (`{"http.host": "a.example", "ip.src": "192.0.2.1",
 * "http.request.headers": {"accept": ["*\/*"]}}`), read by each field's type. Strings are UTF-8; integers are
 * JSON numbers or decimal strings; IP addresses strings; arrays and maps JSON arrays and objects of their
 * element type. A map given without its `.names`/`.values` companions gives them too (in the map's order).
 * A field that holds others gives them when they are not given, as the edge fills them from one request: the full
 * URI (`http.request.full_uri`) http.host, ssl, http.request.uri, .uri.path, .uri.path.extension, .uri.query and
 * .uri.args; the URI (`http.request.uri`) its path and query; the path its extension; the query its arguments; the
 * Cookie header (`http.cookie`) `http.request.cookies` (the raw.* ones too). A given field wins over a derived one,
 * and the most specific given field is the one read (a given path, not the full URI's, gives the extension).
 * A name that is no field, or a value of the wrong type, is a problem naming the field.
 */
import { closest } from '../../lang/closest.js';
import { RULE_FIELD_BY_NAME, RULE_FIELDS } from '../fields.js';
import { readInt, readIp } from '../literals.js';
import { docTypeName, type RuleType } from '../types.js';
import { type RuleValue, utf8 } from './values.js';

export interface SampleRequest {
  fields: Map<string, RuleValue>;
  problems: string[];
}

const NAMES = RULE_FIELDS.map((f) => f.name);

export function readSampleRequest(input: unknown): SampleRequest {
  const fields = new Map<string, RuleValue>();
  const problems: string[] = [];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { fields, problems: ['a request is a JSON object of fields: {"http.host": "…", "ip.src": "…"}'] };
  }
  for (const [name, raw] of Object.entries(input)) {
    const field = RULE_FIELD_BY_NAME.get(name);
    if (!field) {
      const near = closest(name, NAMES);
      problems.push(`unknown field ${JSON.stringify(name)}${near.length ? `; did you mean ${near.join(', ')}?` : ''}`);
      continue;
    }
    const problem: string[] = [];
    const v = convert(raw, field.type, problem);
    if (problem.length) problems.push(`field ${name}: ${problem[0]}`);
    else fields.set(name, v);
  }
  // fields that hold others give them when they are not given, most specific first (first one given wins)
  const derived: Record<string, unknown> = {};
  const text = (name: string): string | undefined => {
    const v = fields.has(name) ? (input as Record<string, unknown>)[name] : derived[name];
    return typeof v === 'string' ? v : undefined;
  };
  const give = (more: Record<string, unknown>) => {
    for (const [name, v] of Object.entries(more)) if (!fields.has(name) && !(name in derived) && RULE_FIELD_BY_NAME.has(name)) derived[name] = v;
  };
  const parts = (raw: string) => {
    const uri = `${raw}http.request.uri`;
    const query = text(`${uri}.query`);
    if (query !== undefined) give(prefixed(raw, argsFields(query)));
    const path = text(`${uri}.path`);
    if (path !== undefined) give({ [`${uri}.path.extension`]: extensionOf(path) });
  };
  for (const raw of ['', 'raw.']) {
    parts(raw);
    const uri = text(`${raw}http.request.uri`);
    if (uri !== undefined) give(prefixed(raw, splitUri(uri)));
    parts(raw);
  }
  // the raw full URI gives the raw.* parts, before the full URI does (which may have been rewritten)
  const rawFull = text('raw.http.request.full_uri');
  if (rawFull !== undefined) give(Object.fromEntries(Object.entries(uriFields(rawFull)).filter(([k]) => k.startsWith('raw.'))));
  const full = text('http.request.full_uri');
  if (full !== undefined) give(uriFields(full));
  const cookie = text('http.cookie');
  if (cookie !== undefined) give({ 'http.request.cookies': cookiesOf(cookie) });
  for (const [name, raw] of Object.entries(derived)) fields.set(name, convert(raw, RULE_FIELD_BY_NAME.get(name)!.type, []));
  // a map gives its .names and .values when they are not given
  for (const [name, v] of [...fields]) {
    if (!(v instanceof Map)) continue;
    const names = `${name}.names`;
    const values = `${name}.values`;
    if (RULE_FIELD_BY_NAME.has(names) && !fields.has(names)) fields.set(names, [...v.keys()].flatMap((k) => (Array.isArray(v.get(k)) ? (v.get(k) as RuleValue[]).map(() => ({ b: k })) : [{ b: k }])));
    if (RULE_FIELD_BY_NAME.get(values)?.type && !fields.has(values)) fields.set(values, [...v.values()].flatMap((x) => (Array.isArray(x) ? x : [x])));
  }
  return { fields, problems };
}

function convert(raw: unknown, t: RuleType, problem: string[]): RuleValue {
  const want = () => problem.push(`expected ${docTypeName(t)}, got ${JSON.stringify(raw)?.slice(0, 60)}`);
  if (t === 'Bytes') {
    if (typeof raw === 'string') return utf8(raw);
    return void want();
  }
  if (t === 'Int') {
    if (typeof raw === 'number' && Number.isSafeInteger(raw)) return BigInt(raw);
    // a JSON number past 2^53 has already lost its last digits: it must come as a decimal string
    if (typeof raw === 'number' && Number.isInteger(raw)) return void problem.push(`${raw} is past the exact range of JSON numbers (±2^53): write it as a decimal string ("…")`);
    if (typeof raw === 'string' && /^-?[0-9]+$/.test(raw)) {
      const r = readInt(raw.replace(/^(-?)0+(?=[0-9])/, '$1'));
      if (r.ok) return r.value;
    }
    return void want();
  }
  if (t === 'Bool') {
    if (typeof raw === 'boolean') return raw;
    return void want();
  }
  if (t === 'Ip') {
    const r = typeof raw === 'string' ? readIp(raw) : undefined;
    if (r?.ok) return r.value;
    return void want();
  }
  if ('array' in t) {
    if (!Array.isArray(raw)) return void want();
    return raw.map((x) => convert(x, t.array, problem));
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return void want();
  const m = new Map<string, RuleValue>();
  for (const [k, x] of Object.entries(raw)) m.set(utf8(k).b, convert(x, t.map, problem));
  return m;
}

/** The request fields a URL holds (none for what is no URL). */
export function uriFields(url: string): Record<string, unknown> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return {};
  }
  // the path and query as written (URL would normalise them), from after the authority
  const afterScheme = url.slice(url.indexOf('//') + 2);
  const slash = afterScheme.search(/[/?#]/);
  const rest = slash < 0 ? '' : afterScheme.slice(slash).replace(/#.*$/, '');
  const q = rest.indexOf('?');
  const path = (q < 0 ? rest : rest.slice(0, q)) || '/';
  const query = q < 0 ? '' : rest.slice(q + 1);
  const fields: Record<string, unknown> = {
    'http.host': u.hostname,
    ssl: u.protocol === 'https:',
    'http.request.uri': path + (q < 0 ? '' : `?${query}`),
    'http.request.uri.path': path,
    'http.request.uri.path.extension': extensionOf(path),
    'http.request.uri.query': query,
    ...argsFields(query),
  };
  for (const [k, v] of Object.entries({ ...fields })) if (k.startsWith('http.request.')) fields[`raw.${k}`] = v;
  fields['raw.http.request.full_uri'] = url;
  return fields;
}

/** `http.request.uri` (a path and an optional query) split into `.path` and `.query`. */
function splitUri(uri: string): Record<string, string> {
  const q = uri.indexOf('?');
  return { 'http.request.uri.path': q < 0 ? uri : uri.slice(0, q), 'http.request.uri.query': q < 0 ? '' : uri.slice(q + 1) };
}

/** The file extension of a path's last segment, lower-cased and without the dot (`""` when none). */
function extensionOf(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
}

/** A query's arguments: the map of name to values, and the names and values in the order written (not decoded). */
function argsFields(query: string): Record<string, unknown> {
  const args: Record<string, string[]> = Object.create(null); // names are user data (`__proto__` is a name)
  const names: string[] = [];
  const values: string[] = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const [name, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    (Object.hasOwn(args, name) ? args[name] : (args[name] = [])).push(value);
    names.push(name);
    values.push(value);
  }
  return { 'http.request.uri.args': args, 'http.request.uri.args.names': names, 'http.request.uri.args.values': values };
}

/** The cookies of a Cookie header: name to values (`a=1; b=2`; names URL-decoded where they decode, values as sent). */
function cookiesOf(header: string): Record<string, string[]> {
  const cookies: Record<string, string[]> = Object.create(null); // names are user data
  for (const part of header.split(';')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    let name = (eq < 0 ? item : item.slice(0, eq)).trim();
    try {
      name = decodeURIComponent(name);
    } catch {
      // kept as sent
    }
    (Object.hasOwn(cookies, name) ? cookies[name] : (cookies[name] = [])).push(eq < 0 ? '' : item.slice(eq + 1).trim());
  }
  return cookies;
}

/** `http.request.…` names moved under `raw.` when `raw` is `"raw."`. */
function prefixed(raw: string, fields: Record<string, unknown>): Record<string, unknown> {
  return raw === '' ? fields : Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${raw}${k}`, v]));
}
