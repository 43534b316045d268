/** A real LSP client over the server's stdio (vscode-languageserver-protocol). */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  ConfigurationRequest,
  createProtocolConnection,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node.js';

export interface TestClient {
  proc: ChildProcessWithoutNullStreams;
  conn: ProtocolConnection;
  /** Latest published diagnostics per uri, with the version they were computed for. */
  diagnostics: Map<string, { version?: number; diagnostics: Diagnostic[] }>;
  waitForDiagnostics(uri: string, pred?: (d: Diagnostic[], version?: number) => boolean, ms?: number): Promise<Diagnostic[]>;
  /** What the server logged (window/logMessage) and wrote to stderr. */
  logs: string[];
  /** What the server asked the editor to show (window/showMessage), in order. */
  messages: { type: number; message: string }[];
  /** The answer to workspace/configuration; change it, then notify didChangeConfiguration. */
  configuration: { value: unknown };
  configurationRequests: number;
}

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
