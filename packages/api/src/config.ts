/** Where the client connects and as whom: options first, then the environment. */
import { ApiConfigError } from './errors.js';
import { SPELLINGS, type Spelling } from './spelling.js';

export const ENV = {
  baseUrl: 'LOGFILTER_BASE_URL',
  token: 'LOGFILTER_API_TOKEN',
  email: 'LOGFILTER_AUTH_EMAIL',
  key: 'LOGFILTER_AUTH_KEY',
  names: 'LOGFILTER_API_NAMES',
} as const;

/** The variables the provider's own tools read (its SDKs, Terraform provider, CLI): used when no LOGFILTER_* one is set. */
export const PROVIDER_ENV = {
  token: 'CLOUDFLARE_API_TOKEN',
  email: 'CLOUDFLARE_EMAIL',
  key: 'CLOUDFLARE_API_KEY',
} as const;

/** The provider's API, as its own tools default to it. */
export const DEFAULT_BASE_URL = 'https://api.cloudflare.com/client/v4';

/** Every place a credential is looked for, in order: what a "no credentials" error lists. */
export const CREDENTIAL_SOURCES = `${ENV.token}, or ${ENV.email} and ${ENV.key}; then ${PROVIDER_ENV.token}, or ${PROVIDER_ENV.email} and ${PROVIDER_ENV.key}`;

export interface Credentials {
  token?: string;
  email?: string;
  key?: string;
}

export interface ConnectionOptions extends Credentials {
  /** Default: LOGFILTER_BASE_URL, else the provider's API (DEFAULT_BASE_URL). */
  baseUrl?: string;
  /** The spelling of paths and fields on the wire (spelling.ts). Default: LOGFILTER_API_NAMES, else 'provider'. */
  names?: Spelling;
  /** The environment to read; process.env by default. */
  env?: Record<string, string | undefined>;
}

export interface ResolvedConnection {
  baseUrl: string;
  names: Spelling;
  credentials?: { kind: 'token'; token: string } | { kind: 'key'; email: string; key: string };
}

const nonEmpty = (s: string | undefined) => (s === undefined || s.trim() === '' ? undefined : s.trim());

export function resolveConnection(options: ConnectionOptions = {}): ResolvedConnection {
  // never quoting the value: it could be a credential
  for (const name of ['baseUrl', 'token', 'email', 'key', 'names'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'string') throw new ApiConfigError(`the ${name} option must be a string`);
  }
  const env = options.env ?? process.env;
  const given = nonEmpty(options.baseUrl) ?? nonEmpty(env[ENV.baseUrl]);
  const baseUrl = given ?? DEFAULT_BASE_URL;
  const out: ResolvedConnection = { baseUrl, names: resolveNames(options, env) };
  {
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
  // One source wins as a whole, so a token of one is never mixed with a key of another: explicit options, then the
  // LOGFILTER_* variables, then the provider's (README: "Credentials").
  const explicit = options.token !== undefined || options.email !== undefined || options.key !== undefined;
  const ours = [ENV.token, ENV.email, ENV.key].some((name) => nonEmpty(env[name]) !== undefined);
  const names = explicit ? { token: 'the token option', email: 'the email option', key: 'the key option' } : ours ? ENV : PROVIDER_ENV;
  const token = explicit ? nonEmpty(options.token) : nonEmpty(env[names.token]);
  const email = explicit ? nonEmpty(options.email) : nonEmpty(env[names.email]);
  const key = explicit ? nonEmpty(options.key) : nonEmpty(env[names.key]);
  if (token !== undefined) checkHeaderValue(token, names.token);
  if (email !== undefined) checkHeaderValue(email, names.email);
  if (key !== undefined) checkHeaderValue(key, names.key);
  if (token !== undefined) out.credentials = { kind: 'token', token };
  else if (email !== undefined && key !== undefined) out.credentials = { kind: 'key', email, key };
  else if (email !== undefined || key !== undefined) {
    const pair = explicit ? `${ENV.email} and ${ENV.key}` : `${names.email} and ${names.key}`;
    throw new ApiConfigError(`an e-mail needs a key and a key needs an e-mail (${pair})`);
  }
  return out;
}

function resolveNames(options: ConnectionOptions, env: Record<string, string | undefined>): Spelling {
  const raw = options.names ?? nonEmpty(env[ENV.names]);
  if (raw === undefined) return 'provider';
  if (!(SPELLINGS as readonly string[]).includes(raw)) {
    const from = options.names !== undefined ? 'the names option' : ENV.names;
    throw new ApiConfigError(`${from} must be one of ${SPELLINGS.join(', ')}, not "${raw.slice(0, 40)}"`);
  }
  return raw as Spelling;
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
