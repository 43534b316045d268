// "Logfilter: Copy as Job Filter String": the JSON-encoded filter, ready for a job body's `filter` field.
import * as vscode from 'vscode';
import type { FilterService } from './client.js';
import { filterDocument } from './filter-document.js';
import { describeDiagnostic, errorsOf } from './messages.js';

/** Returns the copied string (for tests and other extensions), or undefined when nothing was copied. */
export async function copyAsJobFilterString(service: FilterService, arg?: unknown): Promise<string | undefined> {
  const doc = await filterDocument(arg, 'Copy as Job Filter String');
  if (!doc) return undefined;
  const r = await service.compile(doc.uri);
  if (r.string === null) {
    const errors = errorsOf(r.diagnostics);
    const first = errors[0] ? ` First: ${describeDiagnostic(errors[0])}` : '';
    const choice = await vscode.window.showErrorMessage(
      `Nothing copied: the filter has ${errors.length} error(s).${first}`,
      'Show Problems',
    );
    if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
    return undefined;
  }
  await vscode.env.clipboard.writeText(r.string);
  void vscode.window.showInformationMessage(
    `Copied the job filter string (${r.operators}/${r.maxOperators} operators, ${r.bytes}/${r.maxBytes} bytes): paste it as the value of "filter".`,
  );
  return r.string;
}
