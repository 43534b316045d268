/**
 * A sample request for `rules eval`: the fields as JSON (`{"http.host": "a.example", "ip.src": "192.0.2.1",
 * "http.request.headers": {"accept": ["*\/*"]}}`), read by each field's type. Strings are UTF-8; integers are
 * JSON numbers or decimal strings; IP addresses strings; arrays and maps JSON arrays and objects of their
 * element type. A map given without its `.names`/`.values` companions gives them too (in the map's order).
 * A name that is no field, or a value of the wrong type, is a problem naming the field.
 */
import { closest } from '../../util/closest.js';
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
    if (typeof raw === 'number' && Number.isInteger(raw)) return BigInt(raw);
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
