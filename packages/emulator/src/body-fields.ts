/**
 * One rule for the fields of every write body (README, "Behaviour": request bodies; jobs, rulesets, rules, page
 * monitoring, instant logs, the previous WAF): a body carries the fields of
 * the provider's schema for it (its OpenAPI document, with the fields its API takes beyond that copy: a job's
 * `filter`, a rule's `ratelimit` and `exposed_credential_check`), and may carry the read-only fields its own answer
 * has (so a GET answer can be sent back whole; they are ignored). Any other field is refused with the endpoint's
 * code and a pointer naming it (`/colour`, `/rules/2/colour`): a misspelt field is an error, never silently
 * dropped. Inside a field that is an object, the members are checked the same way where the provider's OpenAPI
 * document gives them completely (`nested`: a rule's `logging`, a rule's `position`; a job's `output_options` are
 * checked with their types in job-fields.ts), with a pointer into the object (`/rules/0/logging/colour`). Left
 * open, each checked where it is read if at all: `action_parameters` (its members vary by action; the document
 * says only "object"), `ratelimit` and `exposed_credential_check` (not in the document's copy), the previous
 * WAF's `rules` and `groups` (maps keyed by rule or group id) and `rewrite_action` (its keys checked in
 * waf-legacy.ts). Page monitoring policies and settings have no object members.
 * Names are the neutral spellings the handlers see (aliases.ts turns the provider's into them first).
 */
import { fail, clip, type ErrorCodeName } from './errors.js';

interface BodyFields {
  /** Fields the body may set. */
  fields: readonly string[];
  /** Read-only fields of the answer, accepted and ignored. */
  readOnly: readonly string[];
  /** A field holding a list of objects that are themselves checked (a ruleset's `rules`). */
  items?: { field: string; of: 'rule' };
  /** The code a refusal answers with (the endpoint's code for an invalid body). */
  code: ErrorCodeName;
  /** Fields holding an object whose members the document gives completely; `code` when the field has its own. */
  nested?: Readonly<Record<string, { members: readonly string[]; code?: ErrorCodeName }>>;
}

const RULE = ['id', 'action', 'expression', 'description', 'action_parameters', 'enabled', 'ref', 'logging', 'ratelimit', 'exposed_credential_check'];
const RULE_READ_ONLY = ['version', 'last_updated', 'categories'];
/** rulesets_Rule: `logging` is `{enabled}`; rulesets_RulePosition: one of `before`, `after`, `index`. */
const LOGGING = { members: ['enabled'] };
const POSITION = { members: ['before', 'after', 'index'], code: 'invalidPosition' as const };
const RULESET = ['name', 'description', 'kind', 'phase', 'rules'];
const RULESET_READ_ONLY = ['id', 'version', 'last_updated'];
const JOB = [
  'name', 'destination_conf', 'dataset', 'logpull_options', 'ownership_challenge', 'filter', 'enabled', 'frequency', 'kind',
  'output_options', 'max_upload_bytes', 'max_upload_records', 'max_upload_interval_seconds',
];
const JOB_READ_ONLY = ['id', 'created_at', 'last_complete', 'last_error', 'error_message'];

/** The one table: every write body the rule covers. */
export const BODY_FIELDS = {
  rule: { fields: RULE, readOnly: RULE_READ_ONLY, code: 'validation', nested: { logging: LOGGING } },
  // add and patch: a rule and where it goes
  ruleWithPosition: { fields: [...RULE, 'position'], readOnly: RULE_READ_ONLY, code: 'validation', nested: { logging: LOGGING, position: POSITION } },
  ruleset: { fields: RULESET, readOnly: RULESET_READ_ONLY, items: { field: 'rules', of: 'rule' }, code: 'validation' },
  job: { fields: JOB, readOnly: JOB_READ_ONLY, code: 'jobInvalid' },
  policy: { fields: ['action', 'description', 'enabled', 'expression', 'value'], readOnly: ['id'], code: 'policyInvalid' },
  settings: { fields: ['enabled', 'use_service_reporting_endpoint', 'use_connection_url_path'], readOnly: ['updated_at'], code: 'settingsInvalid' },
  // the log export helper calls: a destination, its ownership token, a logpull_options to validate
  destination: { fields: ['destination_conf'], readOnly: [], code: 'jobInvalid' },
  ownershipValidate: { fields: ['destination_conf', 'ownership_challenge'], readOnly: [], code: 'jobInvalid' },
  origin: { fields: ['logpull_options', 'dataset'], readOnly: [], code: 'jobInvalid' },
  // instant logs: what a session is made of; its answer's `destination_conf` and `session_id` are read-only
  edgeJob: { fields: ['fields', 'filter', 'sample'], readOnly: ['destination_conf', 'session_id'], code: 'jobInvalid' },
  // the previous WAF: what a PATCH or an override changes; the rest of each answer is read-only
  wafPackage: { fields: ['sensitivity', 'action_mode'], readOnly: ['id', 'name', 'description', 'zone_id', 'detection_mode'], code: 'wafInvalid' },
  wafGroup: { fields: ['mode'], readOnly: ['id', 'name', 'description', 'rules_count', 'modified_rules_count', 'package_id', 'allowed_modes'], code: 'wafInvalid' },
  wafRule: { fields: ['mode'], readOnly: ['id', 'description', 'priority', 'group', 'package_id', 'default_mode', 'allowed_modes'], code: 'wafInvalid' },
  wafOverride: { fields: ['description', 'urls', 'rules', 'groups', 'rewrite_action', 'paused', 'priority'], readOnly: ['id'], code: 'wafInvalid' },
} as const satisfies Record<string, BodyFields>;

export type BodyName = keyof typeof BODY_FIELDS;

/** Refuses the first field of `body` (and of its listed items) that is neither settable nor read-only. */
export function checkBodyFields(name: BodyName, body: unknown, at = ''): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return; // the body's type is judged by its schema
  const spec: BodyFields = BODY_FIELDS[name];
  for (const key of Object.keys(body)) {
    if (spec.fields.includes(key) || spec.readOnly.includes(key)) continue;
    const pointer = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const where = at === '' ? '' : `${at.slice(1).replace(/\//g, '.')}.`;
    throw fail(400, spec.code, `${where}${clip(key)}: not a field of this body (${spec.fields.join(', ')})`, pointer);
  }
  for (const [field, inner] of Object.entries(spec.nested ?? {})) {
    const value = (body as Record<string, unknown>)[field];
    // an object only: a member of another type is judged by the body's schema
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const key = Object.keys(value).find((k) => !inner.members.includes(k));
    if (key === undefined) continue;
    const pointer = `${at}/${field}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const where = at === '' ? '' : `${at.slice(1).replace(/\//g, '.')}.`;
    throw fail(400, inner.code ?? spec.code, `${where}${field}.${clip(key)}: not a member of ${field} (${inner.members.join(', ')})`, pointer);
  }
  if (spec.items) {
    const list = (body as Record<string, unknown>)[spec.items.field];
    if (Array.isArray(list)) list.forEach((item, i) => checkBodyFields(spec.items!.of, item, `${at}/${spec.items!.field}/${i}`));
  }
}
