// Starts the bundled language server (dist/server.js) over node IPC and keeps one client for all features.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node.js';
import { traceStartup } from '@logfilter/language-server/startup-trace';
import { CompileRequest, DecompileRequest, type CompileResponse, type DecompileResponse } from './protocol.js';

export const LANGUAGE_ID = 'logfilter';
/** The rules language (`.rule` files): the same server answers it. */
export const RULES_LANGUAGE_ID = 'logfilter-rules';

export class FilterService implements vscode.Disposable {
  private readonly client: LanguageClient;
  private readonly started: Promise<void>;

  constructor(context: vscode.ExtensionContext, readonly output: vscode.OutputChannel) {
    const module = context.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6010'] } },
    };
    const clientOptions: LanguageClientOptions = {
      // Every scheme: untitled buffers (e.g. an imported filter) get checked too.
      // `*.ruleset.json`: the expressions of a ruleset or policy file are checked in place (diagnostics, quick fixes)
      documentSelector: [{ language: LANGUAGE_ID }, { language: RULES_LANGUAGE_ID }, { pattern: '**/*.ruleset.json' }],
      // Pushes didChangeConfiguration when a `logfilter.*` setting changes; the server pulls the values.
      synchronize: { configurationSection: 'logfilter' },
      outputChannel: output,
      // A server crash while typing is logged, not thrown at the user as a notification.
      revealOutputChannelOn: 4 /* RevealOutputChannelOn.Never */,
      middleware: { handleDiagnostics: firstDiagnosticsTraced() },
    };
    this.client = new LanguageClient('logfilter', 'Logfilter Language Server', serverOptions, clientOptions);
    traceStartup('client-start');
    this.started = this.client.start();
    this.started.then(() => traceStartup('client-ready'), () => undefined);
    this.started.catch((e: unknown) => {
      output.appendLine(`language server failed to start: ${String(e)}`);
      void vscode.window
        .showErrorMessage('Logfilter: the language server did not start, so filters are not checked. The log has the reason.', 'Show Log')
        .then((choice) => choice && output.show());
    });
  }

  async compile(uri: vscode.Uri): Promise<CompileResponse> {
    await this.started;
    return this.client.sendRequest(CompileRequest, { textDocument: { uri: uri.toString() } });
  }

  async decompile(text: string): Promise<DecompileResponse> {
    await this.started;
    return this.client.sendRequest(DecompileRequest, { text });
  }

  /** Awaited by deactivate() so the server process exits cleanly with the window. */
  stop(): Promise<void> {
    return this.client.isRunning() ? this.client.stop() : Promise.resolve();
  }

  dispose(): void {
    void this.stop();
  }
}

/** Passes diagnostics on, tracing when the first ones of each document arrive (start-up timeline). */
function firstDiagnosticsTraced(): NonNullable<LanguageClientOptions['middleware']>['handleDiagnostics'] {
  const seen = new Set<string>();
  return (uri, diagnostics, next) => {
    if (!seen.has(uri.toString())) {
      seen.add(uri.toString());
      traceStartup('client-first-diagnostics');
    }
    next(uri, diagnostics);
  };
}
