/** The JSON side of the core: located JSON, the filter document schema, and the filter input reader. */
export {
  parseJson,
  jsonErrorPlace,
  getProperty,
  stringOffsetMapper,
  DEFAULT_MAX_DEPTH,
  type JsonValue,
  type JsonObject,
  type JsonArray,
  type JsonString,
  type JsonNumber,
  type JsonBoolean,
  type JsonNull,
  type JsonProperty,
  type JsonSpan,
  type ParseJsonOptions,
  type ParseJsonResult,
} from '../../lang/located-json.js';
export { toPlain, fromPlain, type FromPlainResult } from './plain.js';
export { FILTER_DOCUMENT_SCHEMA, validateFilterDocument, type SchemaError, type SchemaValidation } from './schema.js';
export { readFilterInput, type ReadFilterResult, type FilterInputForm } from './read-filter.js';
export { suggestOperators, type OperatorSuggestion } from './operator-suggestions.js';
