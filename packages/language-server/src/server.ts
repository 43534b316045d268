/**
 * Builds the language server on a connection (stdio, node-ipc or socket: the caller chooses), so the VS
 * Code extension and the `logfilter-language-server` bin share it.
 */
import {
  DidChangeConfigurationNotification,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Analyses } from './analyses.js';
import { codeLens } from './budget.js';
import { CODE_ACTION_KINDS, codeActions } from './code-actions.js';
import { completion, TRIGGER_CHARACTERS } from './completion.js';
import type { ServerContext } from './context.js';
import { CompileRequest, compileRequest, DecompileRequest, decompileRequest } from './custom-requests.js';
import { DiagnosticsPublisher } from './diagnostics.js';
import { folding } from './folding.js';
import { formatDocument, formatRange } from './formatting.js';
import { guard, guardNotification } from './guard.js';
import { hover } from './hover.js';
import { TaskRunner } from './runner.js';
import { LEGEND, semanticTokens } from './semantic-tokens.js';
import { DEFAULT_SETTINGS, readSettings, sameSettings, type Settings } from './settings.js';
import { isRulesDocument, RulesDiagnostics, rulesCodeActions, rulesCompletion, rulesFormatting, rulesHover, rulesSemanticTokens } from './rules.js';

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
  const publisher = new DiagnosticsPublisher(ctx);
  const rulesDiagnostics = new RulesDiagnostics(ctx);
  /** The rules document a request is about, if it is one (rules.ts answers it). */
  const rulesDoc = (p: { textDocument: { uri: string } }) => {
    const doc = documents.get(p.textDocument.uri);
    return isRulesDocument(doc) ? doc : undefined;
  };

  const applySettings = (next: Settings) => {
    if (sameSettings(next, settings)) return;
    settings = next;
    for (const doc of documents.all()) (isRulesDocument(doc) ? rulesDiagnostics.schedule(doc) : publisher.schedule(doc));
    if (ctx.client.codeLensRefresh) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    if (ctx.client.semanticTokensRefresh) void connection.sendRequest('workspace/semanticTokens/refresh').catch(() => undefined);
  };
  const fetchSettings = async () => {
    if (!ctx.client.configuration) return;
    try {
      const [raw] = await connection.workspace.getConfiguration([{ section: 'logfilter' }]);
      applySettings(readSettings(raw));
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
    if (params.initializationOptions) settings = readSettings(params.initializationOptions);
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
      else applySettings(readSettings(p?.settings));
    }),
  );

  documents.onDidChangeContent((e) => (isRulesDocument(e.document) ? rulesDiagnostics.schedule(e.document) : publisher.schedule(e.document)));
  documents.onDidClose((e) => {
    ctx.analyses.forget(e.document.uri);
    rulesDiagnostics.cancel(e.document.uri);
    publisher.clear(e.document.uri);
  });

  connection.onCompletion(guard(connection, 'completion', (p) => (rulesDoc(p) ? rulesCompletion(rulesDoc(p)!, p) : completion(ctx, p))));
  connection.onHover(guard(connection, 'hover', (p) => (rulesDoc(p) ? rulesHover(rulesDoc(p)!, p) : hover(ctx, p))));
  connection.onDocumentFormatting(guard(connection, 'formatting', (p) => (rulesDoc(p) ? rulesFormatting(rulesDoc(p)!, ctx) : formatDocument(ctx, p))));
  connection.onDocumentRangeFormatting(guard(connection, 'rangeFormatting', (p) => (rulesDoc(p) ? rulesFormatting(rulesDoc(p)!, ctx) : formatRange(ctx, p))));
  connection.onFoldingRanges(guard(connection, 'foldingRange', (p) => (rulesDoc(p) ? [] : folding(ctx, p))));
  connection.languages.semanticTokens.on(guard(connection, 'semanticTokens', (p) => (rulesDoc(p) ? rulesSemanticTokens(rulesDoc(p)!) : semanticTokens(ctx, p))));
  connection.onCodeAction(guard(connection, 'codeAction', (p) => (rulesDoc(p) ? rulesCodeActions(rulesDoc(p)!, p) : codeActions(ctx, p))));
  connection.onCodeLens(guard(connection, 'codeLens', (p) => (rulesDoc(p) ? [] : codeLens(ctx, p))));
  connection.onRequest(CompileRequest, guard(connection, 'logfilter/compile', (p) => compileRequest(ctx, p)));
  connection.onRequest(DecompileRequest, guard(connection, 'logfilter/decompile', (p) => decompileRequest(ctx, p)));
  connection.onShutdown(() => runner.dispose());

  documents.listen(connection);
  connection.listen();
}
