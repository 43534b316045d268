/**
 * The shape of a `--data` file, checked whole at start: a file the code cannot read is refused
 * with the place named (`zones.z1.rulesets`), never run on until the first request answers 500. One JSON Schema
 * per state type of state.ts, waf-state.ts, migration-state.ts and page-guard-state.ts; fields that older files
 * lack and that load() fills in (a zone's account, plan, jobs, waf, migration) are optional here.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { PLANS } from './plans.js';
import { clip } from './errors.js';
import { MIGRATION_STATES } from './migration-state.js';
import { DETECTION_MODES } from './waf-state.js';

const string = { type: 'string' };
const strings = { type: 'array', items: string };
const nullableString = { type: ['string', 'null'] };
const boolean = { type: 'boolean' };
const integer = { type: 'integer' };
const stringMap = { type: 'object', additionalProperties: string };

function object(required: Record<string, unknown>, optional: Record<string, unknown> = {}) {
  return { type: 'object', required: Object.keys(required), properties: { ...required, ...optional } };
}

/** Built on first use: only a start with an existing data file needs it. */
function schema() {
  const rule = object(
    { id: string, version: string, action: string, expression: string, description: string, enabled: boolean, ref: string, last_updated: string },
    { action_parameters: { type: 'object' }, logging: object({ enabled: boolean }), categories: strings },
  );

  const rulesetVersion = object({ version: string, name: string, description: string, kind: string, phase: string, rules: { type: 'array', items: rule }, last_updated: string });

  const storedRuleset = object({ id: string, versions: { type: 'array', minItems: 1, items: rulesetVersion }, nextVersion: integer }, { seq: integer });

  const job = object({
    id: integer,
    name: nullableString,
    dataset: string,
    destination_conf: string,
    logpull_options: nullableString,
    filter: nullableString,
    enabled: boolean,
    frequency: string,
    created_at: string,
    last_complete: nullableString,
    last_error: nullableString,
    error_message: nullableString,
  });

  const waf = object({
    packages: {
      type: 'array',
      items: object({
        id: string,
        name: string,
        description: string,
        detection_mode: { enum: DETECTION_MODES },
        sensitivity: nullableString,
        action_mode: nullableString,
        groups: { type: 'array', items: object({ id: string, name: string, description: string, mode: string }) },
        rules: { type: 'array', items: object({ id: string, description: string, priority: string, group_id: string, mode: string, default_mode: string }) },
      }),
    },
    overrides: {
      type: 'array',
      items: object({ id: string, description: string, urls: strings, rules: stringMap, groups: stringMap, rewrite_action: stringMap, paused: boolean, priority: { type: 'number' } }),
    },
    firewall_rules: { type: 'array', items: object({ id: string, expression: string, action: string, description: string, paused: boolean }) },
  });

  const migration = object({ state: { enum: MIGRATION_STATES }, validation_started_at: nullableString, migrated_at: nullableString });

  const items = { type: 'array', items: object({ id: string }) };
  const pageGuard = object({
    settings: object({ enabled: boolean, updated_at: string }, { use_service_reporting_endpoint: boolean, use_connection_url_path: boolean }),
    scripts: items,
    connections: items,
    cookies: items,
    policies: items,
  });

  const rulesets = { type: 'array', items: storedRuleset };

  const zone = object({ rulesets }, { nextRulesetSeq: integer, account: nullableString, plan: { enum: PLANS }, jobs: { type: 'array', items: job }, waf, migration, page_guard: pageGuard });

  return object(
    { format: { const: 1 }, nextJobId: integer, zones: { type: 'object', additionalProperties: zone } },
    { accounts: { type: 'object', additionalProperties: object({ rulesets }, { nextRulesetSeq: integer, jobs: { type: 'array', items: job } }) } },
  );
}

let validate: ValidateFunction | undefined;

/** Undefined when `data` is a state the emulator can run on, else the first problem with its place. */
export function stateProblem(data: unknown): string | undefined {
  validate ??= new Ajv({ allErrors: false, strict: false }).compile(schema());
  if (validate(data)) return undefined;
  const e = validate.errors![0];
  return `${place(e)}: ${e.message ?? 'invalid'}${e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : ''}`;
}

/** `zones.z1.rulesets[0].versions`: the place in the file, in the fixture errors' spelling. */
function place(e: ErrorObject): string {
  // Keys are cut as in every message: a 100,000-character zone id is not echoed whole.
  const parts = e.instancePath.split('/').slice(1).map((p) => clip(p.replace(/~1/g, '/').replace(/~0/g, '~')));
  if (e.keyword === 'required') parts.push((e.params as { missingProperty: string }).missingProperty);
  let out = '';
  for (const p of parts) out += /^[0-9]+$/.test(p) ? `[${p}]` : out === '' ? p : `.${p}`;
  return out === '' ? '(top level)' : out;
}
