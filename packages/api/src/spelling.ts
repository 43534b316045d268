/**
 * The provider's spelling and the neutral one (api README, "Spelling"): the one table of the words that differ.
 * The zone API's neutral description writes the brand words neutrally; the provider's API, SDKs and users write them as
 * the provider does. The client sends the provider's words by default (LOGFILTER_API_NAMES=neutral for a server
 * that implements the description literally); the emulator serves both.
 */
export interface Alias {
  neutral: string;
  provider: string;
  /** A path segment, or a field name of a request or answer body. */
  in: 'path' | 'field';
}

export const ALIASES: readonly Alias[] = [
  { neutral: 'page_guard', provider: 'page_shield', in: 'path' },
  { neutral: 'logexport', provider: 'logpush', in: 'path' },
  { neutral: 'use_service_reporting_endpoint', provider: 'use_cloudflare_reporting_endpoint', in: 'field' },
];

export type Spelling = 'provider' | 'neutral';
export const SPELLINGS: readonly Spelling[] = ['provider', 'neutral'];

const WORD: Record<Spelling, Map<string, string>> = {
  provider: new Map(ALIASES.map((a) => [a.neutral, a.provider])),
  neutral: new Map(ALIASES.map((a) => [a.provider, a.neutral])),
};
const FIELD: Record<Spelling, Map<string, string>> = {
  provider: new Map(ALIASES.filter((a) => a.in === 'field').map((a) => [a.neutral, a.provider])),
  neutral: new Map(ALIASES.filter((a) => a.in === 'field').map((a) => [a.provider, a.neutral])),
};
const WORDS: Record<Spelling, RegExp> = {
  provider: new RegExp(`\\b(${ALIASES.map((a) => a.neutral).join('|')})\\b`, 'g'),
  neutral: new RegExp(`\\b(${ALIASES.map((a) => a.provider).join('|')})\\b`, 'g'),
};

/** A path segment in `to`'s spelling (unchanged when it is no brand word). */
export function segmentIn(to: Spelling, segment: string): string {
  return WORD[to].get(segment) ?? segment;
}

/** A path (`/zones/z/page_guard/policies?x=1`) with its brand segments in `to`'s spelling; the query is kept. */
export function pathIn(to: Spelling, path: string): string {
  const q = path.indexOf('?');
  const [head, tail] = q < 0 ? [path, ''] : [path.slice(0, q), path.slice(q)];
  return head.split('/').map((s) => segmentIn(to, s)).join('/') + tail;
}

/** A body with the keys of its objects, at any depth, in `to`'s spelling; values are kept. */
export function fieldsIn(to: Spelling, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => fieldsIn(to, item));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  // Defined, not assigned: a member named `__proto__` (JSON.parse makes it an own member) stays a member; an
  // assignment would make it the copy's prototype, and its fields would be read as the body's own.
  for (const [key, item] of Object.entries(value)) Object.defineProperty(out, FIELD[to].get(key) ?? key, { value: fieldsIn(to, item), enumerable: true, writable: true, configurable: true });
  return out;
}

/** Text (a message, a JSON pointer) with the brand words in `to`'s spelling. */
export function textIn(to: Spelling, text: string): string {
  return text.replace(WORDS[to], (word) => WORD[to].get(word) ?? word);
}
