import { EMPTY_REQUEST, type RequestForm } from './rule-request.js';

/**
 * The page's whole state in the URL fragment, so that a link reproduces it. The fragment never leaves the
 * browser (it is not part of an HTTP request), which is why the state goes there and not in a query string.
 * JSON → deflate (the browser's own CompressionStream, no library) → base64url, behind a version prefix so
 * that a later format can still read old links.
 */
export interface PageState {
  lang: 'filter' | 'rules';
  dataset: string;
  source: string;
  rule: string;
  phase: string;
  /** The request the rule is tested against (rule-request.ts). */
  request: RequestForm;
  /** The compile options (`compile --optimize --max-operators --max-bytes`). */
  optimize: boolean;
  maxOperators: number;
  maxBytes: number;
  /** Pasted log lines; only when short enough to travel in a link (see MAX_SHARED_LOGS). */
  logs: string;
}

/** Pasted logs longer than this (characters) are left out of a link: browsers and chat tools cut long URLs. */
export const MAX_SHARED_LOGS = 16_000;

const PREFIX = 'v1.';

async function pipe(bytes: Uint8Array<ArrayBuffer>, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** A limit as the page takes one: a whole number from 1. */
export function isLimit(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
}

/** The fragment (without `#`) for a state. */
export async function encodeState(state: PageState): Promise<string> {
  const shared = state.logs.length > MAX_SHARED_LOGS ? { ...state, logs: '' } : state;
  const bytes = new TextEncoder().encode(JSON.stringify(shared));
  return PREFIX + toBase64Url(await pipe(bytes, new CompressionStream('deflate-raw')));
}

/**
 * The state a fragment holds, or an error saying why it cannot be read (a link cut short, edited by hand, or
 * from another tool): the page then starts from its defaults and says so, it never throws.
 */
export async function decodeState(fragment: string, defaults: PageState): Promise<{ state: PageState } | { error: string }> {
  const text = fragment.replace(/^#/, '');
  if (!text.startsWith(PREFIX)) return { error: 'the link was not made by this playground (no v1. prefix)' };
  let parsed: unknown;
  try {
    const bytes = await pipe(fromBase64Url(text.slice(PREFIX.length)), new DecompressionStream('deflate-raw'));
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { error: 'the link is damaged (cut short or edited): it does not decompress to a state' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: 'the link holds no state object' };
  const o = parsed as Record<string, unknown>;
  const state = { ...defaults };
  for (const key of ['dataset', 'source', 'rule', 'phase', 'logs'] as const) if (typeof o[key] === 'string') state[key] = o[key];
  if (o.lang === 'filter' || o.lang === 'rules') state.lang = o.lang;
  if (typeof o.optimize === 'boolean') state.optimize = o.optimize;
  // limits the page's inputs accept (whole numbers from 1); another value keeps the default
  for (const key of ['maxOperators', 'maxBytes'] as const) if (isLimit(o[key])) state[key] = o[key];
  // a link made before the request form existed has none: the defaults' request stands
  const request = o.request;
  if (typeof request === 'object' && request !== null && !Array.isArray(request)) {
    const r = request as Record<string, unknown>;
    state.request = { ...EMPTY_REQUEST };
    for (const key of Object.keys(EMPTY_REQUEST) as (keyof RequestForm)[]) if (typeof r[key] === 'string') state.request[key] = r[key];
  }
  return { state };
}
