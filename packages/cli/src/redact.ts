/**
 * Every message the CLI prints goes through one redaction of the credentials it was given.
 * The API client never prints them itself, but an API (or a proxy) may echo the `Authorization` or
 * `X-Auth-Key` value it received in an error message, a result or a broken answer, and that text reaches
 * stderr or stdout through many paths: so the redaction is on the output, not on each path.
 */
import { ENV, REDACTED } from '@logfilter/api';
import type { CliContext, Output } from './context.js';

/** A value shorter than this is not treated as a secret: replacing it everywhere would garble the output. */
const MIN_SECRET = 4;

/** The password of a base URL given in the environment or with `--base-url`. */
function urlPasswords(env: Record<string, string | undefined>, argv: readonly string[]): string[] {
  const urls = [env[ENV.baseUrl]];
  argv.forEach((a, i) => {
    if (a === '--base-url') urls.push(argv[i + 1]);
    else if (a.startsWith('--base-url=')) urls.push(a.slice('--base-url='.length));
  });
  const out: string[] = [];
  for (const u of urls) {
    if (!u) continue;
    try {
      const p = new URL(u).password;
      if (p) out.push(decodeURIComponent(p), p);
    } catch {
      /* not a URL: the client refuses it */
    }
  }
  return out;
}

/** The text with every credential (as given, JSON-escaped, URL-encoded) replaced by `<redacted>`. */
export function redactor(env: Record<string, string | undefined>, argv: readonly string[]): (text: string) => string {
  const secrets = new Set<string>();
  for (const s of [env[ENV.token], env[ENV.key], ...urlPasswords(env, argv)]) {
    if (!s || s.length < MIN_SECRET) continue;
    secrets.add(s);
    secrets.add(JSON.stringify(s).slice(1, -1));
    secrets.add(encodeURIComponent(s));
  }
  // Longest first, so that a spelling containing another is replaced whole.
  const list = [...secrets].sort((a, b) => b.length - a.length);
  if (list.length === 0) return (t) => t;
  return (text) => list.reduce((t, s) => (t.includes(s) ? t.split(s).join(REDACTED) : t), text);
}

/**
 * The context with its stdout and stderr redacting text writes. Byte writes (`eval --print` copying log lines)
 * pass unchanged: they are the user's data, not messages, and no credential is involved there.
 */
export function redactingContext(ctx: CliContext, argv: readonly string[]): CliContext {
  const redact = redactor(ctx.env, argv);
  const wrap = <T extends Output>(out: T): T =>
    new Proxy(out, {
      get(target, prop) {
        if (prop === 'write') return (chunk: string | Uint8Array, ...rest: unknown[]) => (target.write as (...a: unknown[]) => unknown)(typeof chunk === 'string' ? redact(chunk) : chunk, ...rest);
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  return { ...ctx, stdout: wrap(ctx.stdout), stderr: wrap(ctx.stderr) };
}
