/**
 * The rules language's diagnostics, pure (it runs in the worker for large documents): one expression of a
 * `.rule` file after its comment header, or every expression of a `*.ruleset.json` document.
 */
import { checkRule, checkRuleDocument, readRuleFileHeader, type Diagnostic } from '@logfilter/core';

/** The two kinds of rules documents: a `.rule` expression, a ruleset (rules, policy) as JSON. */
export type RulesDocumentKind = 'rule' | 'ruleset-json';

/**
 * `phase` is the default (settings) when the document names none: a `# phase:` header line in a `.rule`
 * file, a ruleset's `phase` in JSON win. A blank `.rule` (a new file) is not an error while it is being
 * written, as a blank filter is not.
 */
export function rulesDiagnostics(text: string, kind: RulesDocumentKind, phase?: string): Diagnostic[] {
  if (kind === 'ruleset-json') return checkRuleDocument(text, phase ? { phase } : {}).diagnostics;
  const header = readRuleFileHeader(text);
  const inPhase = header.phase ?? phase;
  const all = [...header.diagnostics, ...checkRule(header.text, inPhase ? { phase: inPhase } : {}).diagnostics];
  return header.text.trim() === '' ? all.filter((d) => d.code !== 'rule-empty') : all;
}
