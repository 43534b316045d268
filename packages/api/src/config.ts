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
    try {
      url = new URL(baseUrl);
    } catch {
      throw new ApiConfigError(`the base URL "${baseUrl}" is not a URL (set ${ENV.baseUrl}, e.g. http://127.0.0.1:8787/client/v4)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ApiConfigError(`the base URL must be http or https, not ${url.protocol}`);
    out.baseUrl = baseUrl.replace(/\/+$/, '');
  }
  // Explicit options win as a whole over the environment, so a token option is never mixed with an env key.
  const explicit = options.token !== undefined || options.email !== undefined || options.key !== undefined;
  const token = explicit ? nonEmpty(options.token) : nonEmpty(env[ENV.token]);
  const email = explicit ? nonEmpty(options.email) : nonEmpty(env[ENV.email]);
  const key = explicit ? nonEmpty(options.key) : nonEmpty(env[ENV.key]);
  if (token !== undefined) out.credentials = { kind: 'token', token };
  else if (email !== undefined && key !== undefined) out.credentials = { kind: 'key', email, key };
  else if (email !== undefined || key !== undefined) {
    throw new ApiConfigError(`an e-mail needs a key and a key needs an e-mail (${ENV.email} and ${ENV.key})`);
  }
  return out;
}
