/**
 * The function catalogue of the rules language (one table for checker, completion, hover and grammar).
 * Parameter kinds: `field` cannot be a literal, `literal` must be one, `any` takes either. `repeat` marks a
 * last parameter that may be given any number of times. `valueOnly` functions only appear in value
 * (rewrite) expressions; `oncePerExpression` ones at most once, and never nested in each other.
 * Sources: the public function reference of the rules language and its changelog.
 */
import { arrayOf, mapOf, type RuleType } from './types.js';
import { phasesOf } from './phases.js';
import { checkWildcard } from './literals.js';
import { regexSyntaxProblem } from './regex-syntax.js';

export type ParamKind = 'field' | 'literal' | 'any';

/** A parameter type: a concrete type, or a shape matched loosely (`Array<_>`, `Map<_>`). */
export type ParamType = RuleType | 'Array<_>' | 'Map<_>';

export interface RuleParam {
  name: string;
  types: readonly ParamType[];
  kind: ParamKind;
  optional?: boolean;
  repeat?: boolean;
}

export interface RuleFunction {
  name: string;
  params: readonly RuleParam[];
  /** The result type, or how it follows from the arguments. */
  returns: RuleType | 'first-argument';
  doc: string;
  phases?: readonly string[];
  plan?: string;
  valueOnly?: boolean;
  oncePerExpression?: boolean;
  /** The parameter whose value must have the element type of the first argument (an array's or a map's values). */
  elementOfFirst?: number;
  /** Validates literal arguments the table's types cannot express; returns a problem or undefined. */
  literalRule?: { param: number; check: (value: string | bigint) => string | undefined }[];
}

const p = (name: string, types: ParamType[], kind: ParamKind = 'any', extra: Partial<RuleParam> = {}): RuleParam => ({ name, types, kind, ...extra });
const S: ParamType = 'Bytes';
const I: ParamType = 'Int';

const flags = (allowed: string) => (v: string | bigint) =>
  typeof v === 'string' && ![...v].every((c) => allowed.includes(c)) ? `flags may only contain ${[...allowed].join(', ')}` : undefined;
const intRange = (lo: number, hi: number) => (v: string | bigint) =>
  typeof v === 'bigint' && (v < BigInt(lo) || v > BigInt(hi)) ? `must be between ${lo} and ${hi}` : undefined;

export const RULE_FUNCTIONS: readonly RuleFunction[] = [
  // one argument is enough, as in the open-source engine's own tests (`concat(http.host) == "example.org"`) and
  // the documentation's signature, which states no minimum (docs/rules-language.md, "As the engine parses")
  { name: 'concat', params: [p('value', [S, 'Array<_>']), p('value', [S, 'Array<_>'], 'any', { repeat: true, optional: true })], returns: 'first-argument', doc: 'Joins strings, or arrays, into one' },
  { name: 'starts_with', params: [p('source', [S], 'field'), p('substring', [S])], returns: 'Bool', doc: 'Whether the source starts with the substring' },
  { name: 'ends_with', params: [p('source', [S], 'field'), p('substring', [S])], returns: 'Bool', doc: 'Whether the source ends with the substring' },
  { name: 'len', params: [p('value', [S, 'Array<_>'])], returns: 'Int', doc: 'Byte length of a string, or number of elements of an array' },
  { name: 'lower', params: [p('value', [S])], returns: 'Bytes', doc: 'ASCII lower case' },
  { name: 'upper', params: [p('value', [S])], returns: 'Bytes', doc: 'ASCII upper case' },
  { name: 'lookup_json_string', params: [p('field', [S]), p('key', [S, I]), p('key', [S, I], 'any', { repeat: true, optional: true })], returns: 'Bytes', doc: 'String value at a path (object keys, array indexes) of a JSON document' },
  { name: 'lookup_json_integer', params: [p('field', [S]), p('key', [S, I]), p('key', [S, I], 'any', { repeat: true, optional: true })], returns: 'Int', doc: 'Integer value at a path of a JSON document' },
  { name: 'substring', params: [p('field', [S]), p('start', [I]), p('end', [I], 'any', { optional: true })], returns: 'Bytes', doc: 'Bytes from start to end (exclusive); negative indexes count from the end' },
  {
    name: 'url_decode',
    params: [p('source', [S], 'field'), p('options', [S], 'literal', { optional: true })],
    returns: 'Bytes',
    doc: 'Decodes a URL-encoded string; options r (recursive), u (%uXXXX)',
    literalRule: [{ param: 1, check: flags('ru') }],
  },
  { name: 'remove_bytes', params: [p('source', [S]), p('bytes', [S])], returns: 'Bytes', doc: 'Removes every occurrence of the given bytes' },
  { name: 'has_key', params: [p('map', ['Map<_>']), p('key', [S])], returns: 'Bool', doc: 'Whether the map has the key' },
  { name: 'has_value', params: [p('collection', ['Map<_>', 'Array<_>']), p('value', ['Bytes', 'Int', 'Ip', 'Bool'])], returns: 'Bool', doc: 'Whether the map or array holds the value', elementOfFirst: 1 },
  {
    name: 'join',
    params: [p('items', [arrayOf('Bytes')]), p('separator', [S])],
    returns: 'Bytes',
    doc: 'Joins the strings of an array with a separator',
    phases: phasesOf(['transform', 'custom-rules', 'custom-errors']),
  },
  {
    name: 'split',
    params: [p('input', [S]), p('separator', [S], 'literal'), p('limit', [I], 'literal')],
    returns: arrayOf('Bytes'),
    doc: 'Splits a string at a separator, into at most limit parts',
    phases: phasesOf(['response-header-transform', 'custom-errors']),
    literalRule: [
      { param: 1, check: (v) => (v === '' ? 'the separator cannot be empty' : undefined) },
      { param: 2, check: intRange(1, 128) },
    ],
  },
  {
    name: 'cidr',
    params: [p('address', ['Ip'], 'field'), p('ipv4_bits', [I]), p('ipv6_bits', [I])],
    returns: 'Ip',
    doc: 'Network address of the IP for the given prefix lengths',
    phases: phasesOf(['custom-rules', 'rate-limiting']),
    literalRule: [
      { param: 1, check: intRange(1, 32) },
      { param: 2, check: intRange(1, 128) },
    ],
  },
  {
    name: 'cidr6',
    params: [p('address', ['Ip'], 'field'), p('ipv6_bits', [I])],
    returns: 'Ip',
    doc: 'Network address of an IPv6 address for the prefix length (IPv4 unchanged)',
    phases: phasesOf(['custom-rules', 'rate-limiting']),
    literalRule: [{ param: 1, check: intRange(1, 128) }],
  },
  {
    name: 'decode_base64',
    params: [p('source', [S], 'field')],
    returns: 'Bytes',
    doc: 'Decodes a Base64 string',
    phases: phasesOf(['transform', 'custom-rules', 'rate-limiting']),
  },
  {
    name: 'encode_base64',
    params: [p('input', [S]), p('flags', [S], 'literal', { optional: true })],
    returns: 'Bytes',
    doc: 'Encodes in Base64; flags u (URL-safe alphabet), p (padding)',
    literalRule: [{ param: 1, check: flags('up') }],
  },
  { name: 'sha256', params: [p('input', [S])], returns: 'Bytes', doc: 'SHA-256 digest (32 bytes)', plan: 'Enterprise (requires enablement)' },
  {
    name: 'regex_replace',
    params: [p('source', [S]), p('regex', [S], 'literal'), p('replacement', [S], 'literal')],
    returns: 'Bytes',
    doc: 'Replaces the first match of a regular expression (${1}… refer to groups)',
    phases: phasesOf(['transform', 'dynamic-redirect']),
    valueOnly: true,
    oncePerExpression: true,
    literalRule: [{ param: 1, check: (v) => (typeof v === 'string' ? regexSyntaxProblem(v) : undefined) }],
  },
  {
    name: 'wildcard_replace',
    params: [p('source', [S], 'field'), p('pattern', [S], 'literal'), p('replacement', [S], 'literal'), p('flags', [S], 'literal', { optional: true })],
    returns: 'Bytes',
    doc: 'Replaces a whole-value wildcard match (${1}… refer to the stars); flag s: case-sensitive',
    phases: phasesOf(['transform', 'dynamic-redirect']),
    valueOnly: true,
    oncePerExpression: true,
    literalRule: [
      { param: 1, check: (v) => (typeof v === 'string' ? checkWildcard(v) : undefined) },
      { param: 3, check: flags('s') },
    ],
  },
  {
    name: 'remove_query_args',
    params: [p('field', [S], 'field'), p('param', [S], 'literal', { repeat: true })],
    returns: 'Bytes',
    doc: 'The query string without the given arguments (field: http.request.uri.query or raw.http.request.uri.query)',
    phases: phasesOf(['transform']),
    valueOnly: true,
  },
  {
    name: 'to_string',
    params: [p('value', ['Int', 'Bool', 'Ip'])],
    returns: 'Bytes',
    doc: 'The value as a string',
    phases: phasesOf(['transform', 'dynamic-redirect']),
    valueOnly: true,
  },
  { name: 'uuidv4', params: [p('source', [S], 'field')], returns: 'Bytes', doc: 'A random UUIDv4 from random bytes (use cf.random_seed)', phases: phasesOf(['transform']), valueOnly: true },
  {
    name: 'is_timed_hmac_valid_v0',
    params: [
      p('key', [S], 'literal'),
      p('message_mac', [S], 'field'),
      p('ttl', [I], 'literal'),
      p('current_timestamp', [I]),
      p('separator_length', [I], 'literal', { optional: true }),
      p('flags', [S], 'literal', { optional: true }),
    ],
    returns: 'Bool',
    doc: 'Validates a timed HMAC token (message, timestamp and MAC)',
    plan: 'Pro, Business and Enterprise',
    literalRule: [{ param: 5, check: flags('s') }],
  },
  {
    name: 'bit_slice',
    params: [p('protocol', [S], 'literal'), p('offset_start', [I], 'literal'), p('offset_end', [I], 'literal')],
    returns: 'Int',
    doc: 'The bits offset_start to offset_end (at most 32, offsets up to 2040) of the raw packet of a protocol (ip, tcp, udp, icmp)',
    phases: phasesOf(['network']),
    literalRule: [
      { param: 1, check: intRange(0, 2040) },
      { param: 2, check: intRange(0, 2040) },
    ],
  },
  { name: 'is_jwt_present', params: [p('token_configuration_id', [S])], returns: 'Bool', doc: 'Whether the request carries a JWT of the token configuration' },
  { name: 'is_jwt_valid', params: [p('token_configuration_id', [S])], returns: 'Bool', doc: 'Whether the JWT of the token configuration is valid' },
];

export const RULE_FUNCTION_BY_NAME: ReadonlyMap<string, RuleFunction> = new Map(RULE_FUNCTIONS.map((f) => [f.name, f]));

/** `any(…)` and `all(…)` are grammar constructs over an Array<Boolean>, not table functions. */
export const QUANTIFIERS = ['any', 'all'] as const;

export { mapOf };
