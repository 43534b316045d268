// "Logfilter: Evaluate Against Log File...": runs the active filter on an NDJSON file and shows the counts
// and the explain tree; on a `.rule` file, evaluates its expression against sample requests (a JSON object
// of fields, an array of them, or one a line) and shows match or no match per request with the value of
// every sub-expression. Arguments (menus, tests): (filter or rule URI?, log or requests file URI?).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FilterDocument } from '@logfilter/core';
import { RULES_LANGUAGE_ID, type FilterService } from './client.js';
import { evaluateNdjson, type EvaluationResult } from './evaluate-ndjson.js';
import { evaluateRuleRequests, type RuleEvaluation } from './evaluate-rule.js';
import { showExplainPanel, showRuleEvaluationPanel } from './explain-panel.js';
import { filterDocument } from './filter-document.js';
import { describeDiagnostic, errorsOf } from './messages.js';

const TITLE = 'Evaluate Against Log File';

/** What the command reads: logs for a filter, sample requests for a rule (each with its setting and file types). */
interface InputKind {
  setting: 'sampleLogFile' | 'sampleRequestFile';
  what: string;
  filters: Record<string, string[]>;
}
const LOGS: InputKind = { setting: 'sampleLogFile', what: 'NDJSON log file (one JSON object per line)', filters: { 'NDJSON logs': ['ndjson', 'jsonl', 'json', 'log'], 'All files': ['*'] } };
const REQUESTS: InputKind = {
  setting: 'sampleRequestFile',
  what: 'sample requests (a JSON object of fields, an array of them, or one a line)',
  filters: { 'Requests (JSON, NDJSON)': ['json', 'ndjson', 'jsonl'], 'All files': ['*'] },
};

/** The kind's setting as a URI: absolute, or relative to the document's workspace folder. */
function sampleFile(filter: vscode.Uri, kind: InputKind): vscode.Uri | undefined {
  const setting = vscode.workspace.getConfiguration('logfilter', filter).get<string>(kind.setting, '').trim();
  if (!setting) return undefined;
  if (path.isAbsolute(setting)) return vscode.Uri.file(setting);
  const folder = vscode.workspace.getWorkspaceFolder(filter) ?? vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, setting) : undefined;
}

async function chooseFile(filter: vscode.Uri, kind: InputKind = LOGS): Promise<vscode.Uri | undefined> {
  const sample = sampleFile(filter, kind);
  if (sample) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: `$(file) ${path.basename(sample.fsPath)}`, description: `logfilter.${kind.setting}`, uri: sample as vscode.Uri | undefined },
        { label: '$(folder-opened) Choose a file…', uri: undefined },
      ],
      { title: TITLE, placeHolder: kind.what },
    );
    if (!pick) return undefined;
    if (pick.uri) return pick.uri;
  }
  const files = await vscode.window.showOpenDialog({
    title: `${TITLE}: ${kind.what} (tip: set logfilter.${kind.setting} to skip this)`,
    canSelectMany: false,
    filters: kind.filters,
  });
  return files?.[0];
}

export async function evaluateAgainstLogFile(service: FilterService, filterArg?: unknown, logArg?: unknown): Promise<EvaluationResult | RuleEvaluation | undefined> {
  const doc = await filterDocument(filterArg, TITLE, true);
  if (!doc) return undefined;
  if (doc.languageId === RULES_LANGUAGE_ID || /\.rule$/i.test(doc.uri.path)) return evaluateRuleFile(doc, logArg);
  const compiled = await service.compile(doc.uri);
  if (compiled.json === null) {
    const errors = errorsOf(compiled.diagnostics);
    const first = errors[0] ? ` First: ${describeDiagnostic(errors[0])}` : '';
    const choice = await vscode.window.showErrorMessage(`Not evaluated: the filter has ${errors.length} error(s).${first}`, 'Show Problems');
    if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
    return undefined;
  }
  const log = logArg instanceof vscode.Uri ? logArg : await chooseFile(doc.uri);
  if (!log) return undefined;
  if (log.scheme !== 'file') {
    void vscode.window.showErrorMessage(`${TITLE}: ${log.toString(true)} is not on the local disk; pick a local NDJSON file.`);
    return undefined;
  }
  const filter = JSON.parse(compiled.json) as FilterDocument;
  let result: EvaluationResult | undefined;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Evaluating on ${path.basename(log.fsPath)}…`, cancellable: true },
      (_progress, token) => evaluateNdjson(filter, log.fsPath, () => token.isCancellationRequested),
    );
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    void vscode.window.showErrorMessage(`${TITLE}: could not read ${log.fsPath}: ${reason}. Check the path (setting logfilter.sampleLogFile) and try again.`);
    return undefined;
  }
  if (!result) return undefined;
  showExplainPanel(path.basename(doc.uri.path), path.basename(log.fsPath), result);
  return result;
}

/**
 * A `.rule` file against sample requests, in its `# phase:` header's phase or else the `logfilter.defaultPhase`
 * setting's. A problem is shown where it is: the expression's place in the editor, the requests file's line.
 */
async function evaluateRuleFile(doc: vscode.TextDocument, requestsArg?: unknown): Promise<RuleEvaluation | undefined> {
  const requests = requestsArg instanceof vscode.Uri ? requestsArg : await chooseFile(doc.uri, REQUESTS);
  if (!requests) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: false }).decode(await vscode.workspace.fs.readFile(requests));
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    void vscode.window.showErrorMessage(`${TITLE}: could not read ${requests.toString(true)}: ${reason}. Check the path (setting logfilter.sampleRequestFile) and try again.`);
    return undefined;
  }
  const phase = vscode.workspace.getConfiguration('logfilter', doc.uri).get<string>('defaultPhase', '').trim();
  const r = evaluateRuleRequests(doc.getText(), text, phase || undefined);
  if (!r.ok) {
    const p = r.problem;
    if (p.in === 'expression') {
      const at = doc.positionAt(p.start);
      void vscode.window.showErrorMessage(`Not evaluated: line ${at.line + 1}, column ${at.character + 1}: ${p.message}`, 'Show Problems').then((c) => c && vscode.commands.executeCommand('workbench.actions.view.problems'));
    } else void vscode.window.showErrorMessage(`Not evaluated: ${path.basename(requests.path)}${p.line ? `:${p.line}` : ''}: ${p.message}`);
    return r;
  }
  showRuleEvaluationPanel(path.basename(doc.uri.path), path.basename(requests.path), r);
  return r;
}
