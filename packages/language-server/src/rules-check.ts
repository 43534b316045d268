/**
 * The rules language's diagnostics, pure (it runs in the worker for large documents): one expression of a
 * `.rule` file after its comment header, or every expression of a `*.ruleset.json` document. A ruleset's
 * expressions are checked once per text: after an edit only the expressions that changed are checked again
 * (a 1 MB ruleset holds some 9,000 of them; a keystroke changes one).
 */
import { checkRule, checkRuleDocument, readRuleFileHeader, type Diagnostic, type RuleCheckOptions, type RuleCheckResult } from '@logfilter/core';

/** The two kinds of rules documents: a `.rule` expression, a ruleset (rules, policy) as JSON. */
export type RulesDocumentKind = 'rule' | 'ruleset-json';

/** Per document (uri), its expressions' checks from its last check; the few most recent documents are kept. */
const checked = new Map<string, Map<string, RuleCheckResult>>();
const DOCUMENTS_KEPT = 8;

/**
 * `phase` is the default (settings) when the document names none: a `# phase:` header line in a `.rule`
 * file, a ruleset's `phase` in JSON win. A blank `.rule` (a new file) is not an error while it is being
 * written, as a blank filter is not. `uri` names the document whose earlier checks may be reused.
 */
export function rulesDiagnostics(text: string, kind: RulesDocumentKind, phase?: string, uri?: string): Diagnostic[] {
  if (kind === 'ruleset-json') {
    const before = (uri !== undefined && checked.get(uri)) || new Map<string, RuleCheckResult>();
    const now = new Map<string, RuleCheckResult>();
    const memo = (expr: string, o: RuleCheckOptions) => {
      const key = `${o.kind}\u0000${o.phase ?? ''}\u0000${expr}`;
      const r = now.get(key) ?? before.get(key) ?? checkRule(expr, o);
      now.set(key, r);
      return r;
    };
    const diagnostics = checkRuleDocument(text, { ...(phase ? { phase } : {}), checkRule: memo }).diagnostics;
    if (uri !== undefined) {
      checked.delete(uri);
      checked.set(uri, now);
      if (checked.size > DOCUMENTS_KEPT) checked.delete(checked.keys().next().value!);
    }
    return diagnostics;
  }
  const header = readRuleFileHeader(text);
  const inPhase = header.phase ?? phase;
  const all = [...header.diagnostics, ...checkRule(header.text, inPhase ? { phase: inPhase } : {}).diagnostics];
  return header.text.trim() === '' ? all.filter((d) => d.code !== 'rule-empty') : all;
}
