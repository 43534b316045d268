// The evaluate panel's page for a `.rule` file: per request, match or no match, and the value of every
// sub-expression (as `logfilter rules eval --explain`). Static HTML, no scripts; no vscode dependency.
import type { RuleEvaluation } from './evaluate-rule.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function ruleEvaluationHtml(ruleName: string, requestsName: string, r: RuleEvaluation & { ok: true }, cspSource: string): string {
  const matched = r.results.filter((x) => x.matched).length;
  const rows = r.results
    .map(
      (x) =>
        `<li class="request" data-request="${x.request}" data-matched="${x.matched}"><strong>request ${x.request}: ${x.matched ? 'match' : 'no match'}</strong>` +
        `<ul>${x.explain.map((s) => `<li><code>${esc(s.text.replace(/\s*\n\s*/g, ' '))}</code> ⇒ <code>${esc(s.value)}</code></li>`).join('')}</ul></li>`,
    )
    .join('');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<title>Rule evaluation</title>
<style>
 body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em; }
 table { border-collapse: collapse; margin-bottom: 1em; } th { text-align: left; padding-right: 1.5em; font-weight: normal; opacity: .8; }
 td.big { font-size: 1.4em; font-weight: bold; }
 ul { list-style: none; padding-left: 1.2em; border-left: 1px solid var(--vscode-tree-indentGuidesStroke, #555); }
 li { margin: .3em 0; } code { font-family: var(--vscode-editor-font-family); }
</style></head><body>
<h2><code>${esc(ruleName)}</code> on <code>${esc(requestsName)}</code></h2>
<table id="counts">
<tr><th>Matched</th><td class="big" id="matched">${matched}</td></tr>
<tr><th>Requests</th><td id="total">${r.results.length}</td></tr>
<tr><th>Phase</th><td id="phase">${r.phase ? `<code>${esc(r.phase)}</code>` : 'none (every field allowed)'}</td></tr>
</table>
<h3>Explain: the value of each sub-expression</h3>
<ul id="explain">${rows}</ul>
</body></html>`;
}
