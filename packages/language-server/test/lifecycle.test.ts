/**
 * The LSP lifecycle over stdio: before `initialize` a request is refused with -32002 and a notification is
 * dropped; after `shutdown` a request is refused with -32600; `exit` ends the process (0 after shutdown).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  type ResponseError,
} from 'vscode-languageserver-protocol/node.js';
import { startClient, type TestClient } from './support/harness.js';
import { serverScript } from './support/server-bundle.js';

let client: TestClient | undefined;
afterAll(() => {
  if (client && client.proc.exitCode === null) client.proc.kill();
});

const codeOf = (p: Promise<unknown>) => p.then(() => undefined, (e: ResponseError) => e.code);

describe('the server lifecycle', { timeout: 120_000 }, () => {
  it('refuses requests before initialize and after shutdown, drops notifications before initialize, and exits 0', async () => {
    client = startClient(await serverScript());
    const { conn, proc } = client;
    const uri = 'file:///early/a.logfilter';
    const hover = () => conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 1 } });
    const published: string[] = [];
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => published.push(p.uri));

    expect(await codeOf(hover())).toBe(-32002);
    await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'logfilter', version: 1, text: 'ClientCountry == "us"' } });
    expect((await conn.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} })).serverInfo).toBeDefined();
    await conn.sendNotification(InitializedNotification.type, {});
    // the early didOpen was dropped: the document is not open, so there is nothing to hover
    expect(await hover()).toBeNull();
    expect(published).toEqual([]);

    await conn.sendRequest(ShutdownRequest.type);
    expect(await codeOf(hover())).toBe(-32600);
    expect(await codeOf(conn.sendRequest(ShutdownRequest.type))).toBe(-32600);
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    await conn.sendNotification(ExitNotification.type);
    expect(await exited).toBe(0);
  });
});
