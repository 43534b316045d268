// Starts the bundled language server (dist/server.js) in a thread of the extension host (server-thread.ts) and
// keeps one client for all features. Run from source (F5), the server is a node process over IPC instead, so
// that a debugger can attach to it on port 6010.
import * as vscode from 'vscode';
import {
  LanguageClient,
  PortMessageReader,
  PortMessageWriter,
  TransportKind,
  type LanguageClientOptions,
  type MessageTransports,
  type ServerOptions,
} from 'vscode-languageclient/node.js';
import { traceStartup } from '@logfilter/language-server/startup-trace';
import { startServerThread, type ServerThread } from './server-thread.js';
import { CompileRequest, DecompileRequest, type CompileResponse, type DecompileResponse } from './protocol.js';

export const LANGUAGE_ID = 'logfilter';
/** The rules language (`.rule` files): the same server answers it. */
export const RULES_LANGUAGE_ID = 'logfilter-rules';

export class FilterService implements vscode.Disposable {
  private readonly client: LanguageClient;
  private readonly started: Promise<void>;
  /** The server's current thread (a restart after a crash starts a new one). */
  private thread: ServerThread | undefined;

  /**
   * `context`: the extension's, or (started before VS Code has built it, see extension.ts) the two things of
   * it used here. `firstServer`: a server thread already started (entry.ts starts one while the extension loads).
   */
  constructor(
    context: Pick<vscode.ExtensionContext, 'asAbsolutePath' | 'extensionMode'>,
    readonly output: vscode.OutputChannel,
    private firstServer?: ServerThread,
  ) {
    const module = context.asAbsolutePath('dist/server.js');
    let serverOptions: ServerOptions;
    if (context.extensionMode === vscode.ExtensionMode.Development) {
      void this.firstServer?.worker.terminate();
      this.firstServer = undefined;
      serverOptions = {
        run: { module, transport: TransportKind.ipc },
        debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6010'] } },
      };
    } else {
      // the thread loads the server through V8's code cache (server-loader.ts)
      serverOptions = () => Promise.resolve(this.connectThread(context.asAbsolutePath('dist/server-loader.js')));
    }
    const clientOptions: LanguageClientOptions = {
      // Every scheme: untitled buffers (e.g. an imported filter) get checked too.
      // `*.ruleset.json`: the expressions of a ruleset or policy file are checked in place (diagnostics, quick fixes)
      documentSelector: [{ language: LANGUAGE_ID }, { language: RULES_LANGUAGE_ID }, { pattern: '**/*.ruleset.json' }],
      // Pushes didChangeConfiguration when a `logfilter.*` setting changes; the server pulls the values.
      synchronize: { configurationSection: 'logfilter' },
      outputChannel: output,
      // A server crash while typing is logged, not thrown at the user as a notification.
      revealOutputChannelOn: 4 /* RevealOutputChannelOn.Never */,
      middleware: firstDiagnosticsTraced(),
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

  /** Awaited by deactivate() so the server exits cleanly with the window. */
  async stop(): Promise<void> {
    if (this.client.isRunning()) await this.client.stop();
    // the server ends its thread on `exit`; a thread that did not (a stuck server) is stopped here
    await this.thread?.worker.terminate();
  }

  /** The LSP channel to a server thread: the one started when the bundle loaded, then a new one per restart. */
  private connectThread(module: string): MessageTransports {
    const previous = this.thread;
    if (previous) void previous.worker.terminate();
    const thread = this.firstServer ?? startServerThread(module);
    this.firstServer = undefined;
    this.thread = thread;
    const logFailure = () => thread.failure && this.output.appendLine(`language server thread stopped: ${thread.failure.stack ?? thread.failure.message}`);
    if (thread.failure) logFailure();
    else thread.worker.once('exit', logFailure);
    return { reader: new PortMessageReader(thread.port), writer: new PortMessageWriter(thread.port) };
  }

  dispose(): void {
    void this.stop();
  }
}

/**
 * Passes didOpen and diagnostics on, tracing (start-up timeline) each didOpen sent and the first diagnostics
 * of the document after it (each open: a document closed and opened again, a warm open, is traced again).
 */
function firstDiagnosticsTraced(): Pick<NonNullable<LanguageClientOptions['middleware']>, 'didOpen' | 'handleDiagnostics'> {
  /** Documents opened whose first diagnostics since have not arrived. */
  const opened = new Set<string>();
  return {
    didOpen: (document, next) => {
      opened.add(document.uri.toString());
      traceStartup('client-did-open');
      return next(document);
    },
    handleDiagnostics: (uri, diagnostics, next) => {
      if (opened.delete(uri.toString())) traceStartup('client-first-diagnostics');
      next(uri, diagnostics);
    },
  };
}
