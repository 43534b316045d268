/** Completion: a pure situation from text and offset, and plain items from the situation. */
export { completionSituation } from './situation.js';
export type {
  CompletionSituation,
  NoCompletion,
  ExpressionSituation,
  DatasetNameSituation,
  OperatorSituation,
  ValueSituation,
  ConnectiveSituation,
} from './situation.js';
export { completionItems } from './items.js';
export type { CompletionEntry, CompletionItemKind } from './items.js';
export { fieldOperators } from './field-operators.js';
export { editorTokens } from './tokens.js';
export type { EditorToken, TokenKind } from './tokens.js';
