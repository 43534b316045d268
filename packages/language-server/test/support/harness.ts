/**
 * The one LSP test harness: the server spawned as editors spawn it (the built bin, or a fresh bundle of the
 * sources, see server-bundle.ts) and driven by a real LSP client over stdio (vscode-languageserver-protocol).
 * A session initializes the server, opens documents written with the `<|>` / `<|…|>` markers
 * (test/support/markers.ts), changes them, waits for the diagnostics of a version and asks for completion.
 * Every test file that talks to the server over stdio starts one session.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CompletionRequest,
  CompletionTriggerKind,
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type InitializeResult,
  type Position,
  type ProtocolConnection,
  type Range,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node.js';
import { markers } from '../../../../test/support/markers.js';
import { serverScript } from './server-bundle.js';

export interface TestClient {
  proc: ChildProcessWithoutNullStreams;
  conn: ProtocolConnection;
  /** Latest published diagnostics per uri, with the version they were computed for. */
  diagnostics: Map<string, { version?: number; diagnostics: Diagnostic[] }>;
  /** Every publication, in order. */
  publications: { uri: string; version?: number; diagnostics: Diagnostic[] }[];
  waitForDiagnostics(uri: string, pred?: (d: Diagnostic[], version?: number) => boolean, ms?: number): Promise<Diagnostic[]>;
  /** What the server logged (window/logMessage) and wrote to stderr. */
  logs: string[];
  /** What the server asked the editor to show (window/showMessage), in order. */
  messages: { type: number; message: string }[];
  /** The answer to workspace/configuration; change it, then notify didChangeConfiguration. */
  configuration: { value: unknown };
  configurationRequests: number;
}

/** The client alone, on a server script: for tests that drive initialization themselves. */
export function startClient(script: string): TestClient {
  const proc = spawn(process.execPath, [script, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  const logs: string[] = [];
  proc.stderr.on('data', (b: Buffer) => logs.push(b.toString()));
  const diagnostics = new Map<string, { version?: number; diagnostics: Diagnostic[] }>();
  const waiters: (() => void)[] = [];
  const client: TestClient = {
    proc,
    conn,
    diagnostics,
    publications: [],
    logs,
    messages: [],
    configuration: { value: null },
    configurationRequests: 0,
    waitForDiagnostics(uri, pred = (d) => d.length > 0, ms = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching diagnostics for ${uri}; last: ${JSON.stringify(diagnostics.get(uri))}`)), ms);
        const check = () => {
          const d = diagnostics.get(uri);
          if (d && pred(d.diagnostics, d.version)) {
            clearTimeout(timer);
            resolve(d.diagnostics);
          } else waiters.push(check);
        };
        check();
      });
    },
  };
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    diagnostics.set(p.uri, { version: p.version, diagnostics: p.diagnostics });
    client.publications.push({ uri: p.uri, version: p.version, diagnostics: p.diagnostics });
    waiters.splice(0).forEach((w) => w());
  });
  conn.onNotification('window/logMessage', (p: { message: string }) => logs.push(p.message));
  conn.onNotification('window/showMessage', (p: { type: number; message: string }) => client.messages.push(p));
  conn.onRequest(ConfigurationRequest.type, (p) => {
    client.configurationRequests++;
    return p.items.map(() => client.configuration.value);
  });
  conn.onRequest(RegistrationRequest.type, () => null);
  conn.onRequest('workspace/codeLens/refresh', () => null);
  conn.onRequest('workspace/semanticTokens/refresh', () => null);
  conn.listen();
  return client;
}

/** The file kinds the server tells apart, and the language id an editor sends for each. */
export type FileKind = 'logfilter' | 'rule' | 'ruleset.json';
const LANGUAGE_ID: Record<FileKind, string> = { logfilter: 'logfilter', rule: 'logfilter-rules', 'ruleset.json': 'json' };

/** How the editor asked for completion: Ctrl+Space (or a typed word), or a trigger character. */
export type Ask = 'invoked' | ' ' | '"' | ',' | '[';

export interface OpenOptions {
  /** File name in the session's directory (default: a fresh `fN.<kind>`). */
  name?: string;
  kind?: FileKind;
  /** The language id sent (default: the kind's). */
  languageId?: string;
}

/** An opened document: its text without markers, the markers as LSP ranges and positions. */
export interface Opened {
  uri: string;
  version: number;
  text: string;
  /** The `<|…|>` ranges and `<|>` cursors of the text it was opened with. */
  ranges: Range[];
  cursors: Position[];
  /** Waits for the diagnostics of the version it was opened with. */
  diagnostics(): Promise<Diagnostic[]>;
}

export interface SessionOptions {
  /** Answer to workspace/configuration; given, the client declares that capability. */
  configuration?: unknown;
  /** Client capabilities (merged over the configuration capability). */
  capabilities?: ClientCapabilities;
  initializationOptions?: unknown;
  /** Also sent as the workspace folder. */
  workspaceFolder?: boolean;
}

export interface Session extends TestClient {
  dir: string;
  init: InitializeResult;
  uriOf(name: string): string;
  /** The next document version (one counter for the session, so versions never repeat). */
  nextVersion(): number;
  open(marked: string, options?: OpenOptions): Promise<Opened>;
  /** Replaces the whole text (a string) or applies the changes; resolves to the new version. */
  change(uri: string, change: string | TextDocumentContentChangeEvent[]): Promise<number>;
  /** Completion items at `position`, asked for as `ask`. */
  complete(uri: string, position: Position, ask?: Ask): Promise<CompletionItem[]>;
  /**
   * Opens the marked text as a new file of `kind` and asks for completion at its `<|>` cursor; the items,
   * and the text's `<|…|>` ranges as LSP ranges.
   */
  expectCompletion(marked: string, kind: FileKind, ask?: Ask): Promise<{ items: CompletionItem[]; range(i: number): Range | undefined }>;
  /** Kills the server if it still runs (afterAll). */
  stop(): void;
}

/** LSP ranges and positions of marker offsets in `text`. */
export function lspMarkers(marked: string): { text: string; ranges: Range[]; cursors: Position[] } {
  const m = markers(marked);
  const doc = TextDocument.create('x:', 'x', 0, m.text);
  return { text: m.text, ranges: m.ranges.map((r) => ({ start: doc.positionAt(r.start), end: doc.positionAt(r.end) })), cursors: m.cursors.map((c) => doc.positionAt(c)) };
}

/** Starts the server, initializes it and says `initialized`. */
export async function startSession(options: SessionOptions = {}): Promise<Session> {
  const client = startClient(await serverScript());
  const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-lsp-'));
  const rootUri = pathToFileURL(dir).href;
  const configured = options.configuration !== undefined;
  if (configured) client.configuration.value = options.configuration;
  const capabilities: ClientCapabilities = { ...options.capabilities, ...(configured ? { workspace: { configuration: true, ...options.capabilities?.workspace } } : {}) };
  const init = await client.conn.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri,
    capabilities,
    ...(options.initializationOptions !== undefined ? { initializationOptions: options.initializationOptions } : {}),
    ...(options.workspaceFolder ? { workspaceFolders: [{ uri: rootUri, name: 'ws' }] } : {}),
  });
  await client.conn.sendNotification(InitializedNotification.type, {});
  let version = 1;
  let files = 0;
  const uriOf = (name: string) => pathToFileURL(path.join(dir, name)).href;
  const session: Session = Object.assign(client, {
    dir,
    init,
    uriOf,
    nextVersion: () => version++,
    async open(marked: string, o: OpenOptions = {}): Promise<Opened> {
      const kind = o.kind ?? 'logfilter';
      const uri = uriOf(o.name ?? `f${files++}.${kind}`);
      const m = lspMarkers(marked);
      const v = version++;
      await client.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: o.languageId ?? LANGUAGE_ID[kind], version: v, text: m.text } });
      return { uri, version: v, ...m, diagnostics: () => client.waitForDiagnostics(uri, (_d, pv) => pv === v) };
    },
    async change(uri: string, change: string | TextDocumentContentChangeEvent[]): Promise<number> {
      const v = version++;
      await client.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: v }, contentChanges: typeof change === 'string' ? [{ text: change }] : change });
      return v;
    },
    async complete(uri: string, position: Position, ask: Ask = 'invoked'): Promise<CompletionItem[]> {
      const context = ask === 'invoked' ? { triggerKind: CompletionTriggerKind.Invoked } : { triggerKind: CompletionTriggerKind.TriggerCharacter, triggerCharacter: ask };
      const r = (await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position, context })) as CompletionList | CompletionItem[] | null;
      return Array.isArray(r) ? r : (r?.items ?? []);
    },
    async expectCompletion(marked: string, kind: FileKind, ask: Ask = 'invoked') {
      const f = await session.open(marked, { kind });
      if (f.cursors.length !== 1) throw new Error(`one <|> cursor expected in ${JSON.stringify(marked)}`);
      return { items: await session.complete(f.uri, f.cursors[0], ask), range: (i: number) => f.ranges[i] };
    },
    stop() {
      if (client.proc.exitCode === null) client.proc.kill();
    },
  });
  return session;
}
