/**
 * The JSON Schema (draft-07: what ajv 8 handles by default and what editors understand best) of the filter
 * document `{"where": node}`. Operator names and their descriptions come from the operator table, so the
 * schema cannot drift from the language. Editors may use it for `*.filter.json` files.
 */
import type { ValidateFunction } from 'ajv';
import { validate as generatedValidate } from './filter-validator.generated.js';
import { OPERATOR_MISSPELLINGS, OPERATORS } from '../operators.js';

/**
 * Built by a call marked pure so that a bundle that does not use the schema leaves it out: the start-up bundles
 * validate with the generated code, and built at their load the schema's ~80 objects were part of every start.
 */
export const FILTER_DOCUMENT_SCHEMA = /* @__PURE__ */ filterDocumentSchema();

function filterDocumentSchema() {
  const operatorNames = OPERATORS.map((o) => o.name);
  const operatorDescriptions = OPERATORS.map(
    (o) => `${o.doc}${o.shape === 'list' ? ' (value: a list)' : ''}; field types: ${o.types.join(', ')}`,
  );
  const scalar = {
    type: ['string', 'number', 'boolean'],
  };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'urn:logfilter:schema:filter-document',
    title: 'Log export job filter',
    description:
      'The filter of a log export job: {"where": node}, where a node is one condition {key, operator, value} ' +
      'or {"and": [node, ...]} or {"or": [node, ...]}. In a job body it travels as a JSON-encoded string.',
    type: 'object',
    required: ['where'],
    additionalProperties: false,
    properties: {
      where: {
        description: 'The whole filter: one condition, or one and/or node.',
        $ref: '#/definitions/node',
      },
    },
    definitions: {
      node: {
        description: 'A condition {key, operator, value}, or {"and": [...]}, or {"or": [...]}.',
        oneOf: [{ $ref: '#/definitions/condition' }, { $ref: '#/definitions/and' }, { $ref: '#/definitions/or' }],
      },
      condition: {
        title: 'Condition',
        type: 'object',
        required: ['key', 'operator', 'value'],
        additionalProperties: false,
        properties: {
          key: {
            type: 'string',
            description: 'A log field name of the job\u2019s dataset (case-sensitive).',
          },
          operator: {
            description: `How the field is compared with the value: ${operatorNames.join(', ')}.`,
            // A known misspelling (`neq`, `lte`, `equals`, ...) is refused with its answer (VS Code shows
            // `errorMessage`); anything else must be one of the names. Both are refused, as before.
            if: { enum: [...OPERATOR_MISSPELLINGS.keys()] },
            then: {
              allOf: [...OPERATOR_MISSPELLINGS].map(([written, name]) => ({
                if: { const: written },
                then: { const: name, errorMessage: `${JSON.stringify(written)} is not an operator: did you mean ${JSON.stringify(name)}?` },
              })),
            },
            else: { enum: operatorNames, enumDescriptions: operatorDescriptions },
          },
          value: {
            description: 'A string, number or boolean; for in and !in, a list of them.',
            oneOf: [scalar, { type: 'array', items: scalar }],
          },
        },
      },
      and: {
        title: 'All of',
        type: 'object',
        required: ['and'],
        additionalProperties: false,
        properties: {
          and: {
            description: 'Holds when every node holds.',
            type: 'array',
            minItems: 1,
            items: { $ref: '#/definitions/node' },
          },
        },
      },
      or: {
        title: 'Any of',
        type: 'object',
        required: ['or'],
        additionalProperties: false,
        properties: {
          or: {
            description: 'Holds when at least one node holds.',
            type: 'array',
            minItems: 1,
            items: { $ref: '#/definitions/node' },
          },
        },
      },
    },
  } as const;
}

export interface SchemaError {
  /** JSON Pointer of the offending value (`/where/and/1/operator`). */
  instancePath: string;
  message: string;
}

export interface SchemaValidation {
  valid: boolean;
  errors: SchemaError[];
}

/**
 * Keywords of the schema that only editors read (VS Code's per-value descriptions, and its own error message:
 * the "did you mean" of misspelt operators); ajv's strict mode must be told they exist. Used by the generator.
 */
export const EDITOR_KEYWORDS: ReadonlyArray<{ keyword: string; schemaType: 'array' | 'string' }> = [
  { keyword: 'enumDescriptions', schemaType: 'array' },
  { keyword: 'errorMessage', schemaType: 'string' },
];

/**
 * ajv's code for this schema, generated at build time (scripts/gen-filter-validator.mjs, with allErrors: the
 * reader maps every schema error to a diagnostic): compiling the schema at run time cost tens of
 * milliseconds at every start of a command reading JSON filters. A test regenerates it and compares.
 */
function validator(): ValidateFunction {
  return generatedValidate as unknown as ValidateFunction;
}

/** Validates a plain (already parsed) value against FILTER_DOCUMENT_SCHEMA. */
export function validateFilterDocument(value: unknown): SchemaValidation {
  const validate = validator();
  const valid = validate(value) as boolean;
  const errors = (validate.errors ?? []).map((e) => ({
    instancePath: e.instancePath,
    message: e.message ?? e.keyword,
  }));
  return { valid, errors };
}
