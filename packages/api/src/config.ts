/** Where the client connects and as whom: options first, then the environment. */
import { ApiConfigError } from './errors.js';

export const ENV = {
  baseUrl: 'LOGFILTER_BASE_URL',
  token: 'LOGFILTER_API_TOKEN',
  email: 'LOGFILTER_AUTH_EMAIL',
  key: 'LOGFILTER_AUTH_KEY',
} as const;

export interface Credentials {
  token?: string;
  email?: string;
  key?: string;
}

export interface ConnectionOptions extends Credentials {
  baseUrl?: string;
  /** The environment to read; process.env by default. */
  env?: Record<string, string | undefined>;
}

export interface ResolvedConnection {
  baseUrl?: string;
  credentials?: { kind: 'token'; token: string } | { kind: 'key'; email: string; key: string };
}

const nonEmpty = (s: string | undefined) => (s === undefined || s.trim() === '' ? undefined : s.trim());

export function resolveConnection(options: ConnectionOptions = {}): ResolvedConnection {
  const env = options.env ?? process.env;
  const baseUrl = nonEmpty(options.baseUrl) ?? nonEmpty(env[ENV.baseUrl]);
  const out: ResolvedConnection = {};
  if (baseUrl !== undefined) {
    let url: URL;
    // The URL itself is never quoted in these messages: it could carry a password.
    const from = nonEmpty(options.baseUrl) !== undefined ? 'the baseUrl option' : ENV.baseUrl;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new ApiConfigError(`${from} is not a URL (e.g. http://127.0.0.1:8787/client/v4)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ApiConfigError(`${from} must be http or https, not ${url.protocol.slice(0, 20)}`);
    if (url.username !== '' || url.password !== '') {
      throw new ApiConfigError(`${from} holds a user name or password; remove it and give credentials in ${ENV.token}, or ${ENV.email} and ${ENV.key}`);
    }
    if (url.search !== '' || url.hash !== '') throw new ApiConfigError(`${from} must not have a query or fragment (it ends with the version segment, e.g. /client/v4)`);
    out.baseUrl = baseUrl.replace(/\/+$/, '');
  }
  // Explicit options win as a whole over the environment, so a token option is never mixed with an env key.
  const explicit = options.token !== undefined || options.email !== undefined || options.key !== undefined;
  const token = explicit ? nonEmpty(options.token) : nonEmpty(env[ENV.token]);
  const email = explicit ? nonEmpty(options.email) : nonEmpty(env[ENV.email]);
  const key = explicit ? nonEmpty(options.key) : nonEmpty(env[ENV.key]);
  const where = (name: keyof typeof ENV, option: string) => (explicit ? `the ${option} option` : ENV[name]);
  if (token !== undefined) checkHeaderValue(token, where('token', 'token'));
  if (email !== undefined) checkHeaderValue(email, where('email', 'email'));
  if (key !== undefined) checkHeaderValue(key, where('key', 'key'));
  if (token !== undefined) out.credentials = { kind: 'token', token };
  else if (email !== undefined && key !== undefined) out.credentials = { kind: 'key', email, key };
  else if (email !== undefined || key !== undefined) {
    throw new ApiConfigError(`an e-mail needs a key and a key needs an e-mail (${ENV.email} and ${ENV.key})`);
  }
  return out;
}

/**
 * A credential goes into an HTTP header: only visible ASCII characters can (no line break, NUL, space or
 * non-ASCII). Checked before anything is sent, so a bad one gives this error naming where it came from, never a
 * network failure whose cause quotes the value.
 */
function checkHeaderValue(value: string, from: string): void {
  const bad = [...value].findIndex((ch) => !/^[\x21-\x7e]$/.test(ch));
  if (bad >= 0) {
    const ch = [...value][bad].codePointAt(0)!;
    const what = ch === 0x0a || ch === 0x0d ? 'a line break' : ch === 0 ? 'a NUL character' : ch === 0x20 || ch === 0x09 ? 'a space' : ch > 0x7e ? 'a non-ASCII character' : 'a control character';
    throw new ApiConfigError(`${from} holds ${what} (at character ${bad + 1}), which cannot be sent in an HTTP header; check how it was set`);
  }
}
