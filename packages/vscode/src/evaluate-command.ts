// "Logfilter: Evaluate Against Log File...": runs the active filter on an NDJSON file and shows the counts
// and the explain tree. Arguments (menus, tests): (filter URI?, log file URI?).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FilterDocument } from '@logfilter/core';
import type { FilterService } from './client.js';
import { evaluateNdjson, type EvaluationResult } from './evaluate-ndjson.js';
import { showExplainPanel } from './explain-panel.js';
import { filterDocument } from './filter-document.js';
import { describeDiagnostic, errorsOf } from './messages.js';

const TITLE = 'Evaluate Against Log File';

/** The `logfilter.sampleLogFile` setting as a URI: absolute, or relative to the filter's workspace folder. */
function sampleLogFile(filter: vscode.Uri): vscode.Uri | undefined {
  const setting = vscode.workspace.getConfiguration('logfilter', filter).get<string>('sampleLogFile', '').trim();
  if (!setting) return undefined;
  if (path.isAbsolute(setting)) return vscode.Uri.file(setting);
  const folder = vscode.workspace.getWorkspaceFolder(filter) ?? vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, setting) : undefined;
}

async function chooseLogFile(filter: vscode.Uri): Promise<vscode.Uri | undefined> {
  const sample = sampleLogFile(filter);
  if (sample) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: `$(file) ${path.basename(sample.fsPath)}`, description: 'logfilter.sampleLogFile', uri: sample as vscode.Uri | undefined },
        { label: '$(folder-opened) Choose a file…', uri: undefined },
      ],
      { title: TITLE, placeHolder: 'NDJSON log file (one JSON object per line)' },
    );
    if (!pick) return undefined;
    if (pick.uri) return pick.uri;
  }
  const files = await vscode.window.showOpenDialog({
    title: `${TITLE}: NDJSON log file (tip: set logfilter.sampleLogFile to skip this)`,
    canSelectMany: false,
    filters: { 'NDJSON logs': ['ndjson', 'jsonl', 'json', 'log'], 'All files': ['*'] },
  });
  return files?.[0];
}

export async function evaluateAgainstLogFile(service: FilterService, filterArg?: unknown, logArg?: unknown): Promise<EvaluationResult | undefined> {
  const doc = await filterDocument(filterArg, TITLE);
  if (!doc) return undefined;
  const compiled = await service.compile(doc.uri);
  if (compiled.json === null) {
    const errors = errorsOf(compiled.diagnostics);
    const first = errors[0] ? ` First: ${describeDiagnostic(errors[0])}` : '';
    const choice = await vscode.window.showErrorMessage(`Not evaluated: the filter has ${errors.length} error(s).${first}`, 'Show Problems');
    if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
    return undefined;
  }
  const log = logArg instanceof vscode.Uri ? logArg : await chooseLogFile(doc.uri);
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
