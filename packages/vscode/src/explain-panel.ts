// Renders an evaluation as a readable webview: counts, then the filter as a tree with how often each
// condition held and how many lines it rejected on its own. Static HTML, no scripts.
import * as vscode from 'vscode';
import type { ExplainNode } from '@logfilter/core';
import { conditionText } from './condition-text.js';
import type { EvaluationResult } from './evaluate-ndjson.js';
import type { RuleEvaluation } from './evaluate-rule.js';
import { ruleEvaluationHtml } from './rule-evaluation-html.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const pct = (n: number, of: number) => (of === 0 ? '–' : `${((100 * n) / of).toFixed(1)}%`);

function nodeHtml(n: ExplainNode, worstId: string | undefined): string {
  const label = n.kind === 'condition' ? `<code>${esc(conditionText(n))}</code>` : `<strong>${n.kind}</strong>`;
  const worst = n.id === worstId ? ' <span class="worst">rejects the most lines</span>' : '';
  const stats =
    `<span class="stats">held on ${n.held} of ${n.evaluated} (${pct(n.held, n.evaluated)})` +
    (n.rejected ? `, rejected ${n.rejected} on its own` : '') +
    '</span>';
  const kids = n.children?.length ? `<ul>${n.children.map((c) => nodeHtml(c, worstId)).join('')}</ul>` : '';
  return `<li>${label} ${stats}${worst}${kids}</li>`;
}

export function explainHtml(filterName: string, logName: string, r: EvaluationResult, cspSource: string): string {
  const malformed = r.malformed
    ? `<tr><th>Malformed lines</th><td>${r.malformed} (first at line ${r.firstMalformedLine}; not JSON objects, never match)</td></tr>`
    : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<title>Evaluation</title>
<style>
 body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em; }
 table { border-collapse: collapse; margin-bottom: 1em; } th { text-align: left; padding-right: 1.5em; font-weight: normal; opacity: .8; }
 td.big { font-size: 1.4em; font-weight: bold; }
 ul { list-style: none; padding-left: 1.2em; border-left: 1px solid var(--vscode-tree-indentGuidesStroke, #555); }
 li { margin: .3em 0; } code { font-family: var(--vscode-editor-font-family); }
 .stats { opacity: .85; } .worst { color: var(--vscode-editorWarning-foreground); }
</style></head><body>
<h2><code>${esc(filterName)}</code> on <code>${esc(logName)}</code></h2>
<table id="counts">
<tr><th>Matched</th><td class="big" id="matched">${r.matched}</td></tr>
<tr><th>Lines</th><td id="total">${r.total}</td></tr>
<tr><th>Share kept</th><td>${pct(r.matched, r.total)}</td></tr>
${malformed}
</table>
<h3>Explain: how often each condition held</h3>
<ul id="explain">${nodeHtml(r.report.root, r.report.mostRejecting?.id)}</ul>
</body></html>`;
}

let panel: vscode.WebviewPanel | undefined;

/** One panel, reused: a new evaluation (of a filter or a rule) replaces the previous one. */
function evaluationPanel(): vscode.WebviewPanel {
  panel ??= (() => {
    const p = vscode.window.createWebviewPanel('logfilter.evaluation', 'Logfilter Evaluation', vscode.ViewColumn.Beside, {
      enableScripts: false,
    });
    p.onDidDispose(() => (panel = undefined));
    return p;
  })();
  return panel;
}

export function showExplainPanel(filterName: string, logName: string, r: EvaluationResult): vscode.WebviewPanel {
  const p = evaluationPanel();
  p.title = `Evaluation: ${r.matched}/${r.total}`;
  p.webview.html = explainHtml(filterName, logName, r, p.webview.cspSource);
  p.reveal(vscode.ViewColumn.Beside, true);
  return p;
}

export function showRuleEvaluationPanel(ruleName: string, requestsName: string, r: RuleEvaluation & { ok: true }): vscode.WebviewPanel {
  const p = evaluationPanel();
  p.title = `Evaluation: ${r.results.filter((x) => x.matched).length}/${r.results.length}`;
  p.webview.html = ruleEvaluationHtml(ruleName, requestsName, r, p.webview.cspSource);
  p.reveal(vscode.ViewColumn.Beside, true);
  return p;
}
