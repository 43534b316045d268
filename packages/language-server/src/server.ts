/**
 * Builds the language server on a connection (stdio, node-ipc or socket: the caller chooses), so the VS
 * Code extension and the `logfilter-language-server` bin share it.
 */
import {
  DidChangeConfigurationNotification,
  ErrorCodes,
  MessageType,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Analyses } from './analyses.js';
import { CODE_ACTION_KINDS } from './code-actions.js';
import { TRIGGER_CHARACTERS } from './completion.js';
import type { ServerContext } from './context.js';
import { CompileRequest, compileRequest, DecompileRequest, decompileRequest } from './custom-requests.js';
import { DiagnosticsPublisher } from './diagnostics.js';
import { filterService } from './filter-service.js';
import { guard, guardNotification } from './guard.js';
import { languageOf, type LanguageName, type LanguageService } from './language-service.js';
import { DROPPED_NOTIFICATION_METHOD, INVALID_PARAMS_METHOD, type InvalidParams } from './request-params.js';
import { REFUSED_METHOD, type Refused } from './lifecycle.js';
import { rulesService } from './rules-service.js';
import { TaskRunner } from './runner.js';
import { LEGEND, toNumbers } from './semantic-encoding.js';
import { DEFAULT_SETTINGS, readSettings, sameSettings, settingsProblems, type Settings } from './settings.js';

export const SERVER_NAME = 'logfilter-language-server';
export const SERVER_VERSION = '0.1.0';

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const runner = new TaskRunner((m) => connection.console.error(m));
  let settings: Settings = DEFAULT_SETTINGS;
  const ctx: ServerContext = {
    connection,
    documents,
    runner,
    analyses: new Analyses(runner, () => settings),
    settings: () => settings,
    client: { codeLensRefresh: false, semanticTokensRefresh: false, configuration: false },
  };
  const services: Record<LanguageName, LanguageService> = { filter: filterService(ctx), rules: rulesService(ctx) };
  /** Each open document's language service, chosen once when it is opened. */
  const serviceByUri = new Map<string, LanguageService>();
  const publisher = new DiagnosticsPublisher(ctx, (uri) => serviceByUri.get(uri));
  /** Routes a request to the service of its document; a document that is not open has no answer. */
  const route =
    <P extends { textDocument: { uri: string } }, R>(empty: R, answer: (s: LanguageService, doc: TextDocument, p: P) => R | Promise<R>) =>
    (p: P): R | Promise<R> => {
      const doc = documents.get(p.textDocument.uri);
      const service = serviceByUri.get(p.textDocument.uri);
      return doc && service ? answer(service, doc, p) : empty;
    };

  /** The settings a client sent: problems told once per distinct message (a pull after every change repeats them). */
  let told = '';
  const applyRaw = (raw: unknown) => {
    const problems = settingsProblems(raw).join('\n');
    if (problems && problems !== told) void connection.sendNotification('window/showMessage', { type: MessageType.Warning, message: problems });
    told = problems;
    applySettings(readSettings(raw));
  };
  const applySettings = (next: Settings) => {
    if (sameSettings(next, settings)) return;
    settings = next;
    publisher.scheduleAll();
    if (ctx.client.codeLensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    if (ctx.client.semanticTokensRefresh) void connection.sendRequest('workspace/semanticTokens/refresh').catch(() => undefined);
  };
  const fetchSettings = async () => {
    if (!ctx.client.configuration) return;
    try {
      const [raw] = await connection.workspace.getConfiguration([{ section: 'logfilter' }]);
      applyRaw(raw);
    } catch (e) {
      connection.console.error(`workspace/configuration failed: ${String(e)}`);
    }
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params.capabilities ?? {};
    ctx.client.configuration = caps.workspace?.configuration === true;
    ctx.client.codeLensRefresh = caps.workspace?.codeLens?.refreshSupport === true;
    ctx.client.semanticTokensRefresh = caps.workspace?.semanticTokens?.refreshSupport === true;
    // editors without workspace/configuration (or before it answers) may pass the settings here
    if (params.initializationOptions) {
      settings = readSettings(params.initializationOptions);
      // told once the client is listening (after initialize)
      const problems = settingsProblems(params.initializationOptions);
      if (problems.length) setImmediate(() => applyRaw(params.initializationOptions));
    }
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: TRIGGER_CHARACTERS, resolveProvider: false },
        hoverProvider: true,
        documentFormattingProvider: true,
        documentRangeFormattingProvider: true,
        foldingRangeProvider: true,
        semanticTokensProvider: { legend: LEGEND, full: true, range: false },
        codeActionProvider: { codeActionKinds: CODE_ACTION_KINDS },
        codeLensProvider: { resolveProvider: false },
      },
      serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
    };
  });

  connection.onInitialized(
    guardNotification(connection, 'initialized', async () => {
      if (ctx.client.configuration) {
        await connection.client.register(DidChangeConfigurationNotification.type, { section: 'logfilter' }).catch(() => undefined);
        await fetchSettings();
      }
    }),
  );
  connection.onDidChangeConfiguration(
    guardNotification(connection, 'didChangeConfiguration', async (p: { settings?: unknown }) => {
      // pull clients answer workspace/configuration; push clients send the settings here
      if (ctx.client.configuration) await fetchSettings();
      else applyRaw(p?.settings);
    }),
  );

  documents.onDidOpen((e) => serviceByUri.set(e.document.uri, services[languageOf(e.document)]));
  documents.onDidChangeContent((e) => publisher.schedule(e.document));
  documents.onDidClose((e) => {
    ctx.analyses.forget(e.document.uri);
    runner.forget(e.document.uri);
    serviceByUri.get(e.document.uri)?.forget?.(e.document.uri);
    serviceByUri.delete(e.document.uri);
    publisher.clear(e.document.uri);
  });

  connection.onCompletion(guard(connection, 'completion', route(null, (s, doc, p) => s.completion(doc, p))));
  connection.onHover(guard(connection, 'hover', route(null, (s, doc, p) => s.hover(doc, p))));
  connection.onDocumentFormatting(guard(connection, 'formatting', route(null, (s, doc, p) => s.formatting(doc, p))));
  connection.onDocumentRangeFormatting(guard(connection, 'rangeFormatting', route(null, (s, doc, p) => s.rangeFormatting(doc, p))));
  connection.onFoldingRanges(guard(connection, 'foldingRange', route(null, (s, doc) => s.folding(doc))));
  connection.languages.semanticTokens.on(guard(connection, 'semanticTokens', route({ data: [] }, async (s, doc) => ({ data: toNumbers(await s.semanticTokens(doc)) }))));
  connection.onCodeAction(guard(connection, 'codeAction', route(null, (s, doc, p) => s.codeActions(doc, p))));
  connection.onCodeLens(guard(connection, 'codeLens', route(null, (s, doc) => s.codeLens(doc))));
  connection.onRequest(CompileRequest, guard(connection, 'logfilter/compile', (p) => compileRequest(ctx, p)));
  connection.onRequest(DecompileRequest, guard(connection, 'logfilter/decompile', (p) => decompileRequest(ctx, p)));
  connection.onShutdown(() => runner.dispose());
  // requests whose params failed the check of request-params.ts, handed on under this method with their own id
  connection.onRequest(INVALID_PARAMS_METHOD, (p: InvalidParams) => new ResponseError(ErrorCodes.InvalidParams, `${p.method}: ${p.member}: ${p.problem}`, { member: p.member }));
  connection.onNotification(DROPPED_NOTIFICATION_METHOD, (p: InvalidParams) => connection.console.error(`${p.method} dropped: ${p.member}: ${p.problem}`));
  // requests refused by the lifecycle (before initialize, after shutdown: lifecycle.ts), with their own id
  connection.onRequest(REFUSED_METHOD, (p: Refused) => new ResponseError(p.code, p.message));

  documents.listen(connection);
  connection.listen();
}
