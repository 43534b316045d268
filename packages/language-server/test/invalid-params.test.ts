/**
 * Requests with bad params, sent as raw framed JSON-RPC messages over stdio (a typed client would refuse to send
 * most of them): every request the server answers gives -32602 (InvalidParams) naming the bad member, never
 * -32603 with a TypeError's text, and the server goes on answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { serverScript } from './support/server-bundle.js';

interface Answer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string; data?: { member?: string } };
}

let proc: ChildProcessWithoutNullStreams;
const waiting = new Map<number, (a: Answer) => void>();
/** What the server logged (window/logMessage). */
const logged: string[] = [];
let nextId = 1;

/** Sends one request; `params` left out when it is the string 'absent'. */
function ask(method: string, params: unknown): Promise<Answer> {
  const id = nextId++;
  const body = JSON.stringify(params === 'absent' ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
  proc.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  return new Promise((resolve) => waiting.set(id, resolve));
}

function tell(method: string, params: unknown): void {
  const body = JSON.stringify({ jsonrpc: '2.0', method, params });
  proc.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

beforeAll(async () => {
  proc = spawn(process.execPath, [await serverScript(), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let buffer = Buffer.alloc(0);
  proc.stdout.on('data', (data: Buffer) => {
    buffer = Buffer.concat([buffer, data]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(buffer.subarray(0, end).toString('ascii'))?.[1]);
      if (buffer.length < end + 4 + length) return;
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8')) as Answer & { method?: string };
      buffer = buffer.subarray(end + 4 + length);
      if (message.method === undefined) waiting.get(message.id)?.(message);
      else if (message.method === 'window/logMessage') logged.push((message as { params?: { message: string } }).params?.message ?? '');
    }
  });
}, 180_000);

afterAll(() => proc?.kill());

const doc = { uri: 'file:///nowhere/a.logfilter' };
const at = { line: 0, character: 0 };
const range = { start: at, end: at };
const options = { tabSize: 2, insertSpaces: true };

/** Each request, the bad params sent, and the member its answer must name. */
const CASES: [method: string, params: unknown, member: string][] = [
  ['initialize', null, 'params'],
  ['initialize', 'x', 'params'],
  ['initialize', { processId: 'me', capabilities: {} }, 'params.processId'],
  ['initialize', { processId: null, capabilities: 3 }, 'params.capabilities'],
  ['textDocument/hover', null, 'params'],
  ['textDocument/hover', 'absent', 'params'],
  ['textDocument/hover', 'x', 'params'],
  ['textDocument/hover', [doc, at], 'params'],
  ['textDocument/hover', { textDocument: doc }, 'params.position'],
  ['textDocument/hover', { textDocument: 5, position: at }, 'params.textDocument'],
  ['textDocument/hover', { textDocument: { uri: 1 }, position: at }, 'params.textDocument.uri'],
  ['textDocument/hover', { textDocument: doc, position: { line: -1, character: 0 } }, 'params.position.line'],
  ['textDocument/completion', null, 'params'],
  ['textDocument/completion', { textDocument: doc, position: { line: 0 } }, 'params.position.character'],
  ['textDocument/completion', { textDocument: doc, position: at, context: { triggerKind: '1' } }, 'params.context.triggerKind'],
  ['textDocument/formatting', null, 'params'],
  ['textDocument/formatting', { textDocument: doc }, 'params.options'],
  ['textDocument/formatting', { textDocument: doc, options: { tabSize: 2, insertSpaces: 'yes' } }, 'params.options.insertSpaces'],
  ['textDocument/rangeFormatting', null, 'params'],
  ['textDocument/rangeFormatting', { textDocument: doc, range: { start: at }, options }, 'params.range.end'],
  ['textDocument/foldingRange', null, 'params'],
  ['textDocument/foldingRange', {}, 'params.textDocument'],
  ['textDocument/semanticTokens/full', null, 'params'],
  ['textDocument/semanticTokens/full', { textDocument: {} }, 'params.textDocument.uri'],
  ['textDocument/codeAction', null, 'params'],
  ['textDocument/codeAction', { textDocument: doc, range, context: {} }, 'params.context.diagnostics'],
  ['textDocument/codeAction', { textDocument: doc, range: 'all', context: { diagnostics: [] } }, 'params.range'],
  ['textDocument/codeLens', null, 'params'],
  ['textDocument/codeLens', true, 'params'],
  ['logfilter/compile', null, 'params'],
  ['logfilter/compile', { textDocument: { uri: null } }, 'params.textDocument.uri'],
  ['logfilter/decompile', null, 'params'],
  ['logfilter/decompile', { text: 1 }, 'params.text'],
  ['logfilter/decompile', { text: '{}', dataset: 7 }, 'params.dataset'],
];

describe('requests with bad params', () => {
  it.each(CASES)('%s with %j answers -32602 naming the bad member', async (method, params, member) => {
    const answer = await ask(method, params);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.data?.member).toBe(member);
  }, 60_000);

  it('the server initializes and answers good requests after them', async () => {
    const init = await ask('initialize', { processId: null, rootUri: null, capabilities: {} });
    expect(init.error).toBeUndefined();
    // a document that is not open has no answer (null), which is not an error
    expect(await ask('textDocument/hover', { textDocument: doc, position: at })).toMatchObject({ result: null });
    expect(await ask('textDocument/codeAction', { textDocument: doc, range, context: { diagnostics: [] } })).toMatchObject({ result: null });
    const decompiled = await ask('logfilter/decompile', { text: '{"where":{"key":"ClientCountry","operator":"eq","value":"us"}}', dataset: null });
    expect(decompiled.error).toBeUndefined();
    expect((decompiled.result as { source: string | null }).source).toMatch(/ClientCountry/);
  }, 60_000);

  it('drops a document notification with bad params whole and logs it: no document opened with bad text, none left half-changed', async () => {
    const hoverAt = (uri: string, character: number) => ask('textDocument/hover', { textDocument: { uri }, position: { line: 0, character } });
    const nullText = 'file:///nowhere/null-text.logfilter';
    tell('textDocument/didOpen', { textDocument: { uri: nullText, languageId: 'logfilter', version: 1, text: null } });
    expect(await hoverAt(nullText, 0)).toMatchObject({ result: null });

    const uri = 'file:///nowhere/changed.logfilter';
    tell('textDocument/didOpen', { textDocument: { uri, languageId: 'logfilter', version: 1, text: 'ClientCountry == "us"' } });
    const start = { line: 0, character: 0 };
    // the first change fits, the second does not: neither is applied
    tell('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start, end: start }, text: 'X' }, { text: 5 }] });
    tell('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ range: { start }, text: 'Y' }] });
    tell('textDocument/didClose', { textDocument: {} });
    expect((await hoverAt(uri, 0)).result).toMatchObject({ range: { start, end: { line: 0, character: 13 } } });
    expect(logged.filter((m) => /dropped/.test(m))).toHaveLength(4);
    expect(logged.join('\n')).toMatch(/params\.contentChanges\[1\]\.text/);
    expect(logged.join('\n')).not.toMatch(/TypeError|failed/);
  }, 60_000);

  it('shuts down after them', async () => {
    expect((await ask('shutdown', 'absent')).error).toBeUndefined();
  }, 60_000);
});
