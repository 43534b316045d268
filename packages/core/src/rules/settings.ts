/**
 * The rules language's limits in one value (docs/rules-language.md, "Limits"): the parser's (read by the
 * shared Chevrotain base), and the checker's and evaluator's own.
 */
import type { ParserSettings } from '../lang/settings.js';

export interface RuleSettings extends ParserSettings {
  /** Longest expression, in code points once trimmed (`rule-too-long`). */
  maxLength: number;
  /** Largest compiled regular expression, in RE2 program instructions (as the engine refuses larger ones). */
  maxRegexInstructions: number;
}

export const RULE_SETTINGS: Readonly<RuleSettings> = {
  // nesting of parentheses, calls and `not` the language allows (its reference parser's default)
  maxParseDepth: 128,
  maxParserErrors: 30,
  maxSyntaxDiagnostics: 30,
  maxLength: 4096,
  maxRegexInstructions: 1000,
};
