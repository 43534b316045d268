/**
 * `--verbose`: every request and answer logged on stderr (`> ` lines out, `< ` lines in), as the provider's own
 * tools log them, with every secret redacted: the credential headers' values, and any occurrence of the
 * credentials themselves (a token echoed in a body or URL) wherever it appears.
 */
import { ENV, REDACTED } from '@logfilter/api';
import type { CliContext } from '../context.js';

/** Headers whose values are credentials, whatever they hold. */
const SECRET_HEADERS = new Set(['authorization', 'x-auth-key', 'x-auth-email', 'cookie', 'set-cookie']);
/** Bodies are shown up to this many characters (a page of a list), then cut with their full length. */
const MAX_BODY = 4000;
/**
 * An answer's body is read for the log up to this many bytes (what MAX_BODY characters take at most in UTF-8), from
 * a copy of it: reading the whole copy held an endless or huge answer in memory, past the client's own bound on
 * what it reads (@logfilter/api's maxAnswerBytes), and made the call wait for its end.
 */
const MAX_BODY_BYTES = 4 * MAX_BODY;

/** The start of a body, and whether it went on past what was read. */
async function bodyHead(res: Response): Promise<{ text: string; cut: boolean }> {
  if (res.body === null) return { text: '', cut: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: Buffer.concat(chunks, size).toString('utf8'), cut: false };
    chunks.push(value);
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      // Only this copy is cancelled: the client goes on reading its own. Not awaited: a copy's cancel settles only
      // once the other copy is done too (the streams standard's tee), which is after this returns.
      void reader.cancel().catch(() => undefined);
      return { text: Buffer.concat(chunks, size).toString('utf8'), cut: true };
    }
  }
}

export function verboseFetch(ctx: CliContext, inner: typeof fetch = fetch): typeof fetch {
  const secrets = [ctx.env[ENV.token], ctx.env[ENV.key], ctx.env[ENV.email]].filter((s): s is string => typeof s === 'string' && s.trim().length >= 4);
  const redact = (text: string) => secrets.reduce((t, s) => t.split(s).join(REDACTED), text);
  const log = (line: string) => void ctx.stderr.write(`${redact(line)}\n`);
  const body = (prefix: string, text: string, cut = false) => {
    if (text === '') return;
    const shown = cut ? `${text.slice(0, MAX_BODY)}… (more than ${MAX_BODY_BYTES} bytes)` : text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}… (${text.length} characters)` : text;
    for (const line of shown.split('\n')) log(`${prefix} ${line}`);
  };
  const headers = (prefix: string, h: Headers) => h.forEach((value, name) => log(`${prefix} ${name}: ${SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : value}`));

  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    log(`> ${init?.method ?? 'GET'} ${url}`);
    headers('>', new Headers(init?.headers));
    if (typeof init?.body === 'string') body('>', init.body);
    let res: Response;
    try {
      res = await inner(input, init);
    } catch (e) {
      log(`< no answer: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    }
    log(`< ${res.status} ${res.statusText}`);
    headers('<', res.headers);
    const head = await bodyHead(res.clone()).catch(() => ({ text: '', cut: false }));
    body('<', head.text, head.cut);
    return res;
  };
}
