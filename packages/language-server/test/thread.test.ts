/**
 * The language server as the VS Code extension runs it: a worker thread of the extension host speaking LSP
 * over a MessagePort (packages/vscode/src/server-thread.ts starts it), driven by a real LSP client over that
 * port. Asserts codes, ranges and values.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PortMessageReader,
  PortMessageWriter,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  type Diagnostic,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node.js';
import { serverScript } from './support/server-bundle.js';
import { startServerThread, type ServerThread } from '../../vscode/src/server-thread.js';

const started: ServerThread[] = [];
afterEach(async () => {
  for (const t of started.splice(0)) await t.worker.terminate();
});

/** A client on a new server thread; `diagnostics(uri)` resolves with the first non-empty publish for `uri`. */
async function connect(entry?: string) {
  const thread = startServerThread(entry ?? (await serverScript()));
  started.push(thread);
  const conn: ProtocolConnection = createProtocolConnection(new PortMessageReader(thread.port), new PortMessageWriter(thread.port));
  const published = new Map<string, (d: Diagnostic[]) => void>();
  const errors: string[] = [];
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => p.diagnostics.length && published.get(p.uri)?.(p.diagnostics));
  conn.onNotification('window/logMessage', (p: { type: number; message: string }) => p.type === 1 && errors.push(p.message));
  conn.listen();
  await conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
  await conn.sendNotification(InitializedNotification.type, {});
  const open = (uri: string, languageId: string, text: string) => {
    const got = new Promise<Diagnostic[]>((resolve) => published.set(uri, resolve));
    void conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    return got;
  };
  return { thread, conn, open, errors };
}

describe('the server in a worker thread', () => {
  it('checks both languages over the port', async () => {
    const { open } = await connect();
    const filter = await open('file:///t/a.logfilter', 'logfilter', 'dataset http_requests\nClientRequestHots == "x"\n');
    expect(filter.map((d) => [d.code, d.range])).toEqual([['unknown-field', { start: { line: 1, character: 0 }, end: { line: 1, character: 17 } }]]);
    const rule = await open('file:///t/b.rule', 'logfilter-rules', 'http.hots eq "x"');
    expect(rule[0].range.start).toEqual({ line: 0, character: 0 });
  });

  it('compiles a large document in the server’s own worker, started from the thread', async () => {
    const { open, errors } = await connect();
    // above the server's inline limit (32 K UTF-16 units): checked off the server thread
    const line = 'ClientRequestHost == "api.example.com" and EdgeResponseStatus >= 500\nor ';
    const text = `${line.repeat(Math.ceil(40_000 / line.length))}ClientRequestHots == "x"\n`;
    const d = await open('file:///t/large.logfilter', 'logfilter', text);
    const last = text.split('\n').length - 2;
    expect(d.find((x) => x.code === 'unknown-field')?.range.start).toEqual({ line: last, character: 3 });
    expect(errors).toEqual([]);
  });

  it('ends its thread, not the extension host, on shutdown and exit; the port closes', async () => {
    const { thread, conn } = await connect();
    const exited = once(thread.worker, 'exit');
    const closed = once(thread.port, 'close');
    await conn.sendRequest(ShutdownRequest.type);
    await conn.sendNotification(ExitNotification.type);
    expect(await exited).toEqual([0]);
    await closed;
    expect(thread.failure).toBeUndefined();
  });

  it('traces its start-up in this process, leaving the thread’s start to the extension (a thread shares the process’s time origin)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-thread-trace-'));
    const trace = path.join(dir, 'trace.ndjson');
    // a worker gets a copy of the environment as it is when the thread starts
    process.env.LOGFILTER_STARTUP_TRACE = trace;
    try {
      const { open } = await connect();
      delete process.env.LOGFILTER_STARTUP_TRACE;
      await open('file:///t/c.logfilter', 'logfilter', 'ClientRequestHots == "x"\n');
      const events = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { event: string; pid: number });
      expect(events.map((e) => e.event)).toEqual(['server-loaded', 'server-initialize', 'server-did-open', 'server-first-diagnostics']);
      expect(new Set(events.map((e) => e.pid))).toEqual(new Set([process.pid]));
    } finally {
      delete process.env.LOGFILTER_STARTUP_TRACE;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs through the extension’s loader (the server bundle loaded with V8’s code cache), large documents included', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-loader-'));
    try {
      // as in the extension's dist/: server-loader.js beside server.js
      const script = await serverScript();
      const bundle = script.endsWith(path.join('bin', 'logfilter-language-server.cjs'))
        ? path.join(path.dirname(script), '..', 'dist', 'logfilter-language-server.cjs')
        : script;
      copyFileSync(bundle, path.join(dir, 'server.js'));
      const { build } = await import('esbuild');
      await build({
        entryPoints: [fileURLToPath(new URL('../../vscode/src/server-loader.ts', import.meta.url))],
        outfile: path.join(dir, 'server-loader.js'),
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        logLevel: 'warning',
      });
      const { open, errors } = await connect(path.join(dir, 'server-loader.js'));
      const d = await open('file:///t/d.logfilter', 'logfilter', 'ClientRequestHots == "x"\n');
      expect(d.map((x) => x.code)).toEqual(['unknown-field']);
      const line = 'ClientRequestHost == "api.example.com"\nor ';
      const large = await open('file:///t/e.logfilter', 'logfilter', `${line.repeat(Math.ceil(40_000 / line.length))}ClientRequestHots == "x"\n`);
      expect(large.map((x) => x.code)).toContain('unknown-field');
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the reason of a thread that fails to load, and closes the port', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-thread-'));
    try {
      const broken = path.join(dir, 'server.js');
      writeFileSync(broken, 'throw new RangeError("broken bundle");\n');
      const thread = startServerThread(broken);
      started.push(thread);
      await once(thread.port, 'close');
      expect(thread.failure).toBeInstanceOf(RangeError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
