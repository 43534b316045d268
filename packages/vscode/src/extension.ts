// Entry point: wires the language client and the commands. Everything here adapts the server and the core.
import * as vscode from 'vscode';
import { traceProcessStart, traceStartup } from '@logfilter/language-server/startup-trace';
import { BudgetStatus } from './budget-status.js';
import { FilterService } from './client.js';
import { CompiledJsonView } from './compiled-json-view.js';
import { copyAsJobFilterString } from './copy-filter-string.js';
import { evaluateAgainstLogFile } from './evaluate-command.js';
import { importFilterFromJson } from './import-filter.js';
import type { ServerThread } from './server-thread.js';

let service: FilterService | undefined;
/** When the bundle had finished evaluating; activate() is called later, once VS Code has built its context. */
const evaluatedAt = performance.timeOrigin + performance.now();

/** `firstServer`: the server thread entry.ts started while this bundle loaded (a new one is started without it). */
export function activate(context: vscode.ExtensionContext, firstServer?: ServerThread): void {
  traceProcessStart('extension-host-start');
  traceStartup('extension-evaluated', evaluatedAt);
  traceStartup('extension-activate');
  const output = vscode.window.createOutputChannel('Logfilter');
  // The client starts in the background: activation returns at once, commands wait for the server.
  const filters = new FilterService(context, output, firstServer);
  service = filters;
  const compiledView = new CompiledJsonView(filters);
  context.subscriptions.push(
    output,
    filters,
    compiledView,
    new BudgetStatus(filters),
    vscode.commands.registerCommand('logfilter.showCompiledJson', (arg?: unknown) => compiledView.show(arg)),
    vscode.commands.registerCommand('logfilter.copyAsJobFilterString', (arg?: unknown) => copyAsJobFilterString(filters, arg)),
    vscode.commands.registerCommand('logfilter.importFromJson', (arg?: unknown) => importFilterFromJson(filters, arg)),
    vscode.commands.registerCommand('logfilter.evaluateAgainstLogFile', (filter?: unknown, log?: unknown) =>
      evaluateAgainstLogFile(filters, filter, log),
    ),
  );
}

export function deactivate(): Promise<void> | undefined {
  return service?.stop();
}
