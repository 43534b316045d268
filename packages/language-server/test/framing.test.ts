/**
 * Bad framing on the server's stdio (a header with no Content-Length, or one that is not a number): the stream
 * cannot be read past it, and the server used to stay up answering nothing, a silent hang for the editor. It now
 * says so in one line on stderr and exits 1, so the editor sees it stop and can restart it. Raw bytes to the
 * built bin (`npm run build` first): no LSP client library would send these.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../test/support/paths.js';

const BIN = path.join(REPO, 'packages/language-server/bin/logfilter-language-server.cjs');
const frame = (o: unknown) => {
  const body = JSON.stringify(o);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};
const INITIALIZE = frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });

function run(bad: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.write(INITIALIZE);
  child.stdin.write(bad);
  child.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }));
  // not a timed assertion: a server that hangs is stopped here and the exit code (null) fails the test
  const stop = setTimeout(() => child.kill(), 10_000);
  return new Promise((resolve) => child.on('exit', (code) => (clearTimeout(stop), resolve({ code, stdout, stderr }))));
}

describe('a frame the server cannot read', () => {
  for (const [what, bad] of [
    ['no Content-Length', 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}'],
    ['a Content-Length that is not a number', 'Content-Length: abc\r\n\r\n{}'],
  ]) {
    it(`${what}: exit 1 with one line on stderr, no stack`, async () => {
      const r = await run(bad);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^logfilter-language-server: .*Content-Length/m);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('well-framed messages (multi-byte bodies, split anywhere) after a body the server cannot decode keep being answered', async () => {
    const child = spawn(process.execPath, [BIN, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const open = frame({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///u.logfilter', languageId: 'logfilter', version: 1, text: 'ClientRequestHost == "é中😀"\n'.repeat(50) } } });
    const bytes = Buffer.from(INITIALIZE + 'Content-Length: 2\r\n\r\n{}' + open + frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }));
    // in pieces of 7 bytes: headers and multi-byte characters cut across chunks
    for (let i = 0; i < bytes.length; i += 7) child.stdin.write(bytes.subarray(i, i + 7));
    await new Promise<void>((resolve) => child.stdout.on('data', () => stdout.includes('"id":2') && resolve()));
    child.stdin.end(frame({ jsonrpc: '2.0', method: 'exit' }));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
  });
});
