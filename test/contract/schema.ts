/**
 * The provider's published OpenAPI document (test/fixtures/openapi, BSD-3, cut by trim.mjs) as the contract the
 * emulator's answers are judged by: one ajv validator per operation and status, with this copy's known defects
 * corrected here and nowhere else (CORRECTIONS; the fixture's README names them).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { FIXTURES } from '../support/paths.js';

export const OPENAPI_FILE = path.join(FIXTURES, 'openapi', 'openapi.trimmed.json');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Json = Record<string, any>;

export interface Operation {
  id: string;
  method: string;
  template: string;
  /** The template as a regular expression over a request path (parameters are one segment). */
  pattern: RegExp;
  /** How many segments of the template are literal: the most literal match wins. */
  literals: number;
}

/**
 * What is wrong in this copy of the schema, each corrected by a function of the document. A correction never
 * loosens a check beyond the defect it names.
 */
export const CORRECTIONS: { what: string; apply(doc: Json): void }[] = [
  {
    what: "a rule's action has the pattern ^[a-z]+$, which refuses managed_challenge and log_custom_field, actions the same document lists",
    apply(doc) {
      const action = doc.components.schemas.rulesets_RuleAction;
      if (action?.pattern !== '^[a-z]+$') throw new Error('correction no longer applies: rulesets_RuleAction.pattern');
      action.pattern = '^[a-z]+(_[a-z]+)*$';
    },
  },
  {
    what: 'firewall_package_response_single is oneOf [the single-answer envelope, {result: object}], whose branches overlap (every answer with an object result satisfies both): read it as anyOf',
    apply(doc) {
      const pkg = doc.components.schemas.firewall_package_response_single;
      if (!pkg?.oneOf) throw new Error('correction no longer applies: firewall_package_response_single.oneOf');
      pkg.anyOf = pkg.oneOf;
      delete pkg.oneOf;
    },
  },
  {
    what: 'the WAF 4XX answers are allOf [a success schema, the common failure], which no answer satisfies (success both true and false): judge them by the failure half',
    apply(doc) {
      for (const item of Object.values<Json>(doc.paths)) {
        for (const method of METHODS) {
          const schema = item[method]?.responses?.['4XX']?.content?.['application/json']?.schema;
          if (!schema?.allOf) continue;
          const failure = schema.allOf.find((s: Json) => typeof s.$ref === 'string' && /common-failure$/.test(s.$ref));
          if (failure) item[method].responses['4XX'].content['application/json'].schema = failure;
        }
      }
    },
  },
];

export function loadContract() {
  const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
  for (const c of CORRECTIONS) c.apply(doc);
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, discriminator: false });
  ajv.addSchema(doc, 'openapi.json');
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<Json>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parts = template.split('/').filter(Boolean);
      const pattern = new RegExp(`^/${parts.map((p) => (p.startsWith('{') ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);
      operations.push({ id: op.operationId, method: method.toUpperCase(), template, pattern, literals: parts.filter((p) => !p.startsWith('{')).length });
    }
  }
  const compiled = new Map<string, ValidateFunction | null>();
  const pointer = (...keys: string[]) => `openapi.json#/${keys.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

  return {
    doc,
    operations,
    /** The operation a request addresses, or undefined when the schema has none. */
    operationOf(method: string, pathname: string): Operation | undefined {
      return operations.filter((o) => o.method === method && o.pattern.test(pathname)).sort((a, b) => b.literals - a.literals)[0];
    },
    /**
     * The validator of an answer's body for an operation and status: the status's own response, else its class
     * (4XX), else default; null when the schema gives that status no body.
     */
    validator(op: Operation, status: number): ValidateFunction | null {
      const responses = doc.paths[op.template][op.method.toLowerCase()].responses as Json;
      const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k] !== undefined);
      if (key === undefined) throw new Error(`${op.id}: the schema documents no answer with status ${status}`);
      const cacheKey = `${op.id} ${key}`;
      if (!compiled.has(cacheKey)) {
        let response = responses[key];
        let where = pointer('paths', op.template, op.method.toLowerCase(), 'responses', key);
        if (response.$ref) {
          where = `openapi.json${response.$ref}`;
          response = response.$ref.slice(2).split('/').reduce((o: Json, k: string) => o[k], doc);
        }
        const hasBody = response.content?.['application/json']?.schema !== undefined;
        compiled.set(cacheKey, hasBody ? ajv.compile({ $ref: `${where}/content/application~1json/schema` }) : null);
      }
      return compiled.get(cacheKey)!;
    },
  };
}

/** One error of the envelope: a code and a message; its causes, when it has any, in `error_chain`, each an error too. */
const ENVELOPE_ERROR = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'integer', minimum: 1000 },
    message: { type: 'string', minLength: 1 },
    error_chain: { type: 'array', minItems: 1, items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer', minimum: 1000 }, message: { type: 'string', minLength: 1 } } } },
  },
};

/** The error envelope every failure answers with (the emulator README's "Error codes"; the provider's envelope). */
export const ERROR_ENVELOPE = {
  type: 'object',
  required: ['success', 'errors', 'messages', 'result'],
  properties: {
    success: { const: false },
    result: { type: 'null' },
    errors: { type: 'array', minItems: 1, items: ENVELOPE_ERROR },
    messages: { type: 'array' },
  },
};
