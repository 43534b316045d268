// Entry point: wires the language client and the commands. Everything here adapts the server and the core.
import path from 'node:path';
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

/** The output channel and the language client, started before activation (startEarly) or by activate(). */
export interface Started {
  output: vscode.OutputChannel;
  filters: FilterService;
}

/**
 * Starts the output channel and the language client as soon as the bundle has loaded (entry.ts calls it),
 * before VS Code has built the extension's context, which the client does not need: the server's handshake,
 * the didOpen of the file being opened and its first check overlap that wait instead of following it.
 * `extensionDir`: where package.json is (dist/ holds the server); `firstServer`: the thread entry.ts started.
 */
export function startEarly(extensionDir: string, firstServer?: ServerThread): Started {
  const output = vscode.window.createOutputChannel('Logfilter');
  // Production: run from source (Development), activate() replaces this client with a debuggable process
  const context = { asAbsolutePath: (p: string) => path.join(extensionDir, p), extensionMode: vscode.ExtensionMode.Production };
  return { output, filters: new FilterService(context, output, firstServer) };
}

/** `early`: what startEarly() started, if entry.ts called it; else the client starts here. */
export function activate(context: vscode.ExtensionContext, early?: Started): void {
  traceProcessStart('extension-host-start');
  traceStartup('extension-evaluated', evaluatedAt);
  traceStartup('extension-activate');
  const output = early?.output ?? vscode.window.createOutputChannel('Logfilter');
  let filters = early?.filters;
  if (!filters || context.extensionMode === vscode.ExtensionMode.Development) {
    void filters?.stop();
    filters = new FilterService(context, output);
  }
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
