/** The rules language: the expressions of ruleset rules and policies, beside the filter language. */
export { parseRule, type RuleKind, type RuleParseResult, type RuleDiagnostic, type ApiPosition, MAX_RULE_DEPTH } from './parse.js';
export { checkRule, type RuleCheckOptions, type RuleCheckResult, MAX_RULE_LENGTH } from './check.js';
export { RULE_FIELDS, RULE_FIELD_BY_NAME, MANAGED_LISTS, type RuleField } from './fields.js';
export { RULE_FUNCTIONS, RULE_FUNCTION_BY_NAME, QUANTIFIERS, type RuleFunction, type RuleParam, type ParamType } from './functions.js';
export { COMPARISON_OPERATORS, LOGICAL_OPERATORS, COMPARISON_BY_SPELLING, LOGICAL_BY_SPELLING, comparisonsFor, type ComparisonOperator, type LogicalOperator } from './operators.js';
export { PHASES, REQUEST_PHASES, RESPONSE_PHASES, HTTP_PHASES, NETWORK_PHASES, PHASE_LAYER, type PhaseLayer } from './phases.js';
export { type RuleType, type ScalarType, typeName as ruleTypeName, docTypeName as ruleDocTypeName } from './types.js';
export { RULE_DIAGNOSTIC_CODES } from './codes.js';
export type * from './ast.js';
export { apiLineColumn, offsetOfApiLineColumn, firstApiError, formatApiError, ruleApiError, type ApiLineColumn } from './api-error.js';
export { formatRule, flatRule, canonicalSpelling, RULE_LINE_WIDTH, type RuleFormatResult, type RuleFormatOptions } from './format.js';
export { checkRuleDocument, type RuleDocumentResult, type RuleDocumentExpression, type RuleDocumentOptions } from './document.js';
export { ruleCompletion, ruleCompletionSituation, ruleCompletionItems, functionSignature, type RuleCompletionSituation, type RuleCompletionKind, type RuleCompletionOptions } from './completion.js';
export { ruleHoverAt } from './hover.js';
export { ruleHighlightTokens, type RuleHighlightToken, type RuleHighlightType } from './highlight.js';
export { typeOfValueExpression } from './check.js';
