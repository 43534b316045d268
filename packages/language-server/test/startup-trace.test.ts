/**
 * The server's start-up timeline (LOGFILTER_STARTUP_TRACE), which the editor end-to-end suite reads to break a
 * cold open down into steps: driven through the stdio LSP client, the trace must hold the server's events in
 * start-up order, and one first-diagnostics event per open of a document (not one per publish; a document
 * closed and opened again, a warm open, is traced again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  ShutdownRequest,
} from 'vscode-languageserver-protocol/node.js';
import { startClient, type TestClient } from './support/harness.js';
import { serverScript } from './support/server-bundle.js';

const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-trace-'));
const trace = path.join(dir, 'startup-trace.ndjson');
let client: TestClient;

const events = () =>
  readFileSync(trace, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string; at: number; pid: number });

beforeAll(async () => {
  const script = await serverScript();
  // the spawned server inherits the environment
  process.env.LOGFILTER_STARTUP_TRACE = trace;
  try {
    client = startClient(script);
  } finally {
    delete process.env.LOGFILTER_STARTUP_TRACE;
  }
  await client.conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
  await client.conn.sendNotification(InitializedNotification.type, {});
});

afterAll(async () => {
  await client.conn.sendRequest(ShutdownRequest.type).catch(() => undefined);
  await client.conn.sendNotification(ExitNotification.type).catch(() => undefined);
  client.conn.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('start-up trace', () => {
  it('records process start, load, initialize, and the first didOpen and first diagnostics of each document, in order', async () => {
    const a = 'file:///trace/a.logfilter';
    const b = 'file:///trace/b.rule';
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: a, languageId: 'logfilter', version: 1, text: 'ClientRequestHots == "x"\n' },
    });
    await client.waitForDiagnostics(a);
    // a second publish for the same document is not a first one
    await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: a, version: 2 },
      contentChanges: [{ text: 'ClientRequestHostt == "x"\n' }],
    });
    await client.waitForDiagnostics(a, (_, version) => version === 2);
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: b, languageId: 'logfilter-rules', version: 1, text: 'http.hots eq "x"' },
    });
    await client.waitForDiagnostics(b);

    const got = events();
    expect(got.map((e) => e.event)).toEqual([
      'server-process-start',
      'server-loaded',
      'server-initialize',
      'server-did-open',
      'server-first-diagnostics',
      'server-did-open',
      'server-first-diagnostics',
    ]);
    expect(new Set(got.map((e) => e.pid))).toEqual(new Set([client.proc.pid]));
    const at = got.map((e) => e.at);
    expect(at).toEqual([...at].sort((x, y) => x - y));
    // wall-clock milliseconds: the lines of the test driver and of other processes share the axis
    expect(Math.abs(at[0] - Date.now())).toBeLessThan(10 * 60_000);
  });

  it('traces a document closed and opened again (a warm open): its didOpen and the first diagnostics after it', async () => {
    const a = 'file:///trace/a.logfilter';
    const before = events().length;
    await client.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: a } });
    // the close publishes the empty list: not an open's first diagnostics
    await client.waitForDiagnostics(a, (diagnostics) => diagnostics.length === 0);
    await client.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: a, languageId: 'logfilter', version: 1, text: 'ClientRequestHots == "x"\n' },
    });
    await client.waitForDiagnostics(a, (diagnostics) => diagnostics.length > 0);
    const got = events().slice(before);
    expect(got.map((e) => e.event)).toEqual(['server-did-open', 'server-first-diagnostics']);
    expect(got[1].at).toBeGreaterThanOrEqual(got[0].at);
  });
});
