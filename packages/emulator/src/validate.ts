/** JSON Schemas of the request bodies, compiled once with ajv. The first failure becomes one envelope error. */
import { Ajv, type ValidateFunction } from 'ajv';
import { badRequest, type ErrorCodeName } from './errors.js';
import { checkBodyFields, type BodyName } from './body-fields.js';
import { CHALLENGE_MAX_LENGTH, CHALLENGE_PATTERN } from './job-fields.js';

const ajv = new Ajv({ allErrors: false, strict: false });

const ruleInput = {
  type: 'object',
  required: ['action', 'expression'],
  properties: {
    id: { type: 'string' },
    action: { type: 'string', minLength: 1 },
    expression: { type: 'string' },
    description: { type: 'string' },
    action_parameters: { type: 'object' },
    enabled: { type: 'boolean' },
    ref: { type: 'string' },
    logging: { type: 'object', required: ['enabled'], properties: { enabled: { type: 'boolean' } } },
  },
};

const name = { type: 'string', minLength: 1, maxLength: 256 };

/** Ruleset fields a body may carry: create requires name, kind and phase; update requires rules. */
const rulesetProperties = {
  name,
  kind: { enum: ['zone', 'custom', 'managed', 'root'] },
  // Known phases are checked by the ruleset logic (unknownPhase, with the list); here only the type.
  phase: { type: 'string', minLength: 1 },
  description: { type: 'string' },
  rules: { type: 'array', items: ruleInput },
};

/** Job fields a body may carry: create requires destination_conf, update takes any subset. */
const jobProperties = {
  // The provider's pattern (its OpenAPI document; its API refuses other names, so its Terraform provider checks it too).
  name: { anyOf: [{ type: 'string', maxLength: 512, pattern: '^[a-zA-Z0-9.-]*$' }, { type: 'null' }] },
  // maxLength: the provider's schema (4096 for both).
  destination_conf: { type: 'string', minLength: 1, maxLength: 4096 },
  // dataset and frequency are nullable in the provider's schema: null is "not given" (the default, or unchanged).
  dataset: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] },
  logpull_options: { type: ['string', 'null'], maxLength: 4096 },
  // The provider's schema (logpush_ownership_challenge): the token's alphabet and length.
  ownership_challenge: { type: 'string', maxLength: CHALLENGE_MAX_LENGTH, pattern: CHALLENGE_PATTERN },
  filter: { type: ['string', 'null'] },
  enabled: { type: 'boolean' },
  frequency: { enum: ['high', 'low', null] },
} as const;

const schemas = {
  createRuleset: { type: 'object', required: ['name', 'kind', 'phase'], properties: rulesetProperties },
  updateRuleset: { type: 'object', required: ['rules'], properties: rulesetProperties },
  // `position` is read by rulesets.readPosition, which answers invalidPosition for every malformed one.
  addRule: ruleInput,
  patchRule: { type: 'object', properties: ruleInput.properties },
  createJob: {
    type: 'object',
    required: ['destination_conf'],
    properties: jobProperties,
  },
  updateJob: {
    type: 'object',
    properties: jobProperties,
  },
} as const;

export type SchemaName = keyof typeof schemas;

/** The fields each body may carry (body-fields.ts, the one rule for every write body). */
const FIELDS: Record<SchemaName, BodyName> = {
  createRuleset: 'ruleset',
  updateRuleset: 'ruleset',
  addRule: 'ruleWithPosition',
  patchRule: 'ruleWithPosition',
  createJob: 'job',
  updateJob: 'job',
};

const compiled = new Map<SchemaName, ValidateFunction>();

/** Validates `body` against a schema and returns it typed; throws the envelope error on the first failure. */
export function validateBody<T>(schema: SchemaName, body: unknown, code: ErrorCodeName = 'validation'): T {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schemas[schema]);
    compiled.set(schema, fn);
  }
  if (!fn(body)) {
    const e = fn.errors?.[0];
    const where = e?.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'body';
    const extra = e?.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
    // The field at fault as a JSON pointer (a missing one is named by its would-be place), as every other error
    // about one body field carries it; a body of the wrong type as a whole has no field, so no pointer.
    const missing = e?.keyword === 'required' ? `/${escapePointer((e.params as { missingProperty: string }).missingProperty)}` : '';
    const pointer = `${e?.instancePath ?? ''}${missing}`;
    throw badRequest(code, `${where}: ${e?.message ?? 'invalid'}${extra}`, pointer === '' ? undefined : pointer);
  }
  checkBodyFields(FIELDS[schema], body);
  return body as T;
}

/** A property name as a JSON pointer token (RFC 6901: `~` and `/` escaped). */
function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
