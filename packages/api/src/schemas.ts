/**
 * JSON Schemas of the answers, compiled once: the client checks the envelope and each result's shape, so a caller
 * never gets a half-formed object from a broken or foreign server. Fields beyond the required ones stay optional,
 * as the API asks of its clients (fields are added over time).
 */
import { Ajv, type ValidateFunction } from 'ajv';

const ajv = new Ajv({ allErrors: false, strict: false });

const envelopeError = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } };

export const envelopeSchema = {
  type: 'object',
  required: ['success', 'errors'],
  properties: {
    success: { type: 'boolean' },
    errors: { type: 'array', items: envelopeError },
    messages: { type: 'array' },
    result_info: {
      type: 'object',
      properties: {
        page: { type: 'integer' },
        per_page: { type: 'integer' },
        count: { type: 'integer' },
        total_count: { type: 'integer' },
        total_pages: { type: 'integer' },
        cursor: { type: 'string' },
        cursors: { type: 'object', properties: { after: { type: 'string' }, before: { type: 'string' } } },
      },
    },
  },
};

const str = { type: 'string' };
const rule = {
  type: 'object',
  required: ['id', 'action', 'expression'],
  properties: {
    id: str,
    version: str,
    action: str,
    expression: str,
    description: str,
    action_parameters: { type: 'object' },
    enabled: { type: 'boolean' },
    ref: str,
    logging: { type: 'object', properties: { enabled: { type: 'boolean' } } },
    categories: { type: 'array', items: str },
    last_updated: str,
  },
};
const rulesetSummary = {
  type: 'object',
  required: ['id'],
  properties: { id: str, name: str, description: str, kind: str, phase: str, version: str, last_updated: str },
};
const ruleset = { ...rulesetSummary, required: ['id', 'rules'], properties: { ...rulesetSummary.properties, rules: { type: 'array', items: rule } } };
const nullableStr = { type: ['string', 'null'] };
const job = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'integer' },
    name: nullableStr,
    dataset: str,
    destination_conf: str,
    logpull_options: nullableStr,
    filter: nullableStr,
    enabled: { type: 'boolean' },
  },
};

const bool = { type: 'boolean' };
const strings = { type: ['array', 'null'], items: str };
const score = { type: ['integer', 'number', 'null'] };
/** Scripts and connections (description 2.3, 2.4): only id is required (rule 1); the types of the others are checked. */
const observedProperties = {
  id: str,
  url: str,
  host: str,
  added_at: str,
  first_seen_at: str,
  last_seen_at: str,
  first_page_url: str,
  page_urls: { type: 'array', items: str },
  status: str,
  url_contains_cdn_cgi_path: bool,
  domain_reported_malicious: bool,
  url_reported_malicious: bool,
  malicious_domain_categories: strings,
  malicious_url_categories: strings,
};
const connection = { type: 'object', required: ['id'], properties: observedProperties };
const script = {
  type: 'object',
  required: ['id'],
  properties: {
    ...observedProperties,
    hash: str,
    js_integrity_score: score,
    malware_score: score,
    magecart_score: score,
    cryptomining_score: score,
    obfuscation_score: score,
    dataflow_score: score,
    fetched_at: str,
    versions: { type: 'array', items: { type: 'object', properties: { hash: str, js_integrity_score: score, fetched_at: str } } },
  },
};
const cookie = {
  type: 'object',
  required: ['id'],
  properties: {
    id: str,
    name: str,
    host: str,
    type: str,
    first_seen_at: str,
    last_seen_at: str,
    domain_attribute: str,
    path_attribute: str,
    expires_attribute: str,
    max_age_attribute: { type: ['integer', 'null'] },
    http_only_attribute: bool,
    secure_attribute: bool,
    same_site_attribute: str,
    page_urls: { type: 'array', items: str },
    first_page_url: str,
  },
};
/** `enabled` comes as a boolean or the text "true"/"false" (api README, "Page monitoring": the SDKs and the documented exchanges disagree). */
const policy = {
  type: 'object',
  required: ['id'],
  properties: { id: str, description: str, action: str, expression: str, value: str, enabled: { anyOf: [bool, { enum: ['true', 'false'] }] } },
};
const pageGuardSettings = {
  type: 'object',
  properties: { enabled: bool, updated_at: str, use_service_reporting_endpoint: bool, use_connection_url_path: bool },
};

export const resultSchemas = {
  any: {},
  empty: {},
  pageGuardSettings,
  script,
  scriptList: { type: 'array', items: script },
  connection,
  connectionList: { type: 'array', items: connection },
  cookie,
  cookieList: { type: 'array', items: cookie },
  policy,
  policyList: { type: 'array', items: policy },
  ruleset,
  rulesetList: { type: 'array', items: rulesetSummary },
  job,
  jobList: { type: 'array', items: job },
  deletedJob: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
  migrationCheck: {
    type: 'object',
    required: ['compatible', 'migration_state'],
    properties: { compatible: { type: 'boolean' }, migration_state: str, reasons: { type: 'array', items: { type: 'object', required: ['message'], properties: { code: str, message: str } } } },
  },
  migrationConfig: { type: 'object', required: ['name', 'rules'], properties: { name: str, rules: { type: 'array', items: { type: 'object', required: ['action', 'expression'] } } } },
  migrationStatus: { type: 'object', required: ['migration_state'], properties: { migration_state: str, old_waf_status: str, new_waf_status: str } },
  wafItem: { type: 'object', required: ['id'], properties: { id: str } },
  wafList: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: str } } },
} as const;

export type ResultSchema = keyof typeof resultSchemas;

const cache = new Map<string, ValidateFunction>();

function compiled(name: string, schema: object): ValidateFunction {
  let fn = cache.get(name);
  if (!fn) {
    fn = ajv.compile(schema);
    cache.set(name, fn);
  }
  return fn;
}

/** Undefined when valid, else a short reason (a JSON pointer and what is wrong). */
export function explain(name: 'envelope' | ResultSchema, value: unknown): string | undefined {
  const fn = compiled(name, name === 'envelope' ? envelopeSchema : resultSchemas[name]);
  if (fn(value)) return undefined;
  const e = fn.errors?.[0];
  return `${name === 'envelope' ? '' : 'result'}${e?.instancePath ?? ''} ${e?.message ?? 'does not match'}`.trim();
}
