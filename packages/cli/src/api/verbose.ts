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

export function verboseFetch(ctx: CliContext, inner: typeof fetch = fetch): typeof fetch {
  const secrets = [ctx.env[ENV.token], ctx.env[ENV.key], ctx.env[ENV.email]].filter((s): s is string => typeof s === 'string' && s.trim().length >= 4);
  const redact = (text: string) => secrets.reduce((t, s) => t.split(s).join(REDACTED), text);
  const log = (line: string) => void ctx.stderr.write(`${redact(line)}\n`);
  const body = (prefix: string, text: string) => {
    if (text === '') return;
    const shown = text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}… (${text.length} characters)` : text;
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
    body('<', await res.clone().text().catch(() => ''));
    return res;
  };
}
