/**
 * A watch on the framing of LSP messages over standard input. vscode-jsonrpc's reader, given a header block with
 * no Content-Length or one that is not a number, reports the error and then cannot find the next message: the
 * server stays up answering nothing, a silent hang for the editor. This listener reads the same bytes beside it
 * (headers only; bodies are counted and skipped, never held) and, at such a header, says what is wrong in one
 * line on stderr and exits 1, so that the editor sees the server stop and can start it again.
 */
import type { Readable } from 'node:stream';

const HEADER_END = Buffer.from('\r\n\r\n');
/** Header blocks are a few dozen bytes; anything this long with no blank line is not LSP framing. */
const MAX_HEADER = 8192;

export function watchStdioFraming(input: Readable, fail: (problem: string) => void): void {
  let skip = 0; // body bytes still to pass
  let header = Buffer.alloc(0);
  input.on('data', (data: Buffer | string) => {
    let chunk = typeof data === 'string' ? Buffer.from(data) : data;
    let at = 0;
    while (at < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - at);
        skip -= n;
        at += n;
        continue;
      }
      header = Buffer.concat([header, chunk.subarray(at)]);
      at = chunk.length;
      const end = header.indexOf(HEADER_END);
      if (end < 0) {
        if (header.length > MAX_HEADER) return fail(`a header block longer than ${MAX_HEADER} bytes with no blank line after it`);
        break;
      }
      const fields = header.subarray(0, end).toString('ascii').split('\r\n');
      const length = fields.find((f) => /^content-length\s*:/i.test(f));
      if (length === undefined) return fail('a message header without Content-Length');
      const value = length.slice(length.indexOf(':') + 1).trim();
      if (!/^\d+$/.test(value)) return fail(`a Content-Length that is not a number (${JSON.stringify(value.slice(0, 40))})`);
      const rest = header.subarray(end + HEADER_END.length);
      header = Buffer.alloc(0);
      skip = Number(value);
      // what followed the header in this chunk: body bytes first, then maybe the next header
      chunk = rest;
      at = 0;
    }
  });
}
