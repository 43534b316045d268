/**
 * The provider's spelling and the description's neutral one (api-facts, preamble). The description writes the brand
 * words neutrally; the provider's API, SDKs and every user's code write them as the provider does. The emulator
 * serves both: every route with a neutral path word is also served with the provider's word, a request body may
 * use either spelling of a field, and an answer (body and error messages) uses the spelling of its request's path.
 * This is the one table of those words; the areas are written in the neutral spelling only.
 */
import { EmulatorError } from './errors.js';
import type { Area, Handler, HandlerAnswer, Route } from './routing.js';

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

const toNeutral = new Map(ALIASES.map((a) => [a.provider, a.neutral]));
const toProvider = new Map(ALIASES.map((a) => [a.neutral, a.provider]));
const FIELD_TO_NEUTRAL = new Map(ALIASES.filter((a) => a.in === 'field').map((a) => [a.provider, a.neutral]));
const FIELD_TO_PROVIDER = new Map(ALIASES.filter((a) => a.in === 'field').map((a) => [a.neutral, a.provider]));
const NEUTRAL_WORDS = new RegExp(`\\b(${ALIASES.map((a) => a.neutral).join('|')})\\b`, 'g');

/** Renames the keys of objects, at any depth, by `names`; other values are kept as they are. */
function renameKeys(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, names));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[names.get(key) ?? key] = renameKeys(item, names);
  return out;
}

/** A request body in either spelling, in the neutral spelling the areas read. */
export function bodyToNeutral(body: unknown): unknown {
  return renameKeys(body, FIELD_TO_NEUTRAL);
}

/** An answer's body in the provider's spelling. */
export function resultToProvider(result: unknown): unknown {
  return renameKeys(result, FIELD_TO_PROVIDER);
}

/** Text (an error message, a JSON pointer) with the neutral words in the provider's spelling. */
export function textToProvider(text: string): string {
  return text.replace(NEUTRAL_WORDS, (word) => toProvider.get(word) ?? word);
}

function providerHandler(handler: Handler): Handler {
  return (request, params) => {
    let answer: HandlerAnswer;
    try {
      answer = handler({ ...request, segments: request.segments.map((s) => toNeutral.get(s) ?? s), body: bodyToNeutral(request.body) }, params);
    } catch (error) {
      if (!(error instanceof EmulatorError)) throw error;
      throw new EmulatorError(error.status, error.code, textToProvider(error.message), error.headers, error.pointer === undefined ? undefined : textToProvider(error.pointer));
    }
    return answer.result === undefined ? answer : { ...answer, result: resultToProvider(answer.result) };
  };
}

function neutralHandler(handler: Handler): Handler {
  return (request, params) => handler({ ...request, body: bodyToNeutral(request.body) }, params);
}

/**
 * An area served in both spellings: its routes as written (neutral answers), and, for each route with a neutral
 * path word, the same route at the provider's path (provider answers).
 */
export function withAliases(area: Area): Area {
  return {
    ...area,
    routes(...args) {
      const routes = area.routes(...args);
      const out: Route[] = [];
      for (const route of routes) {
        const wrap = (h: (handler: Handler) => Handler): Route['methods'] => Object.fromEntries(Object.entries(route.methods).map(([m, handler]) => [m, h(handler)]));
        if (!route.pattern.some((part) => toProvider.has(part))) {
          out.push(route);
          continue;
        }
        out.push({ pattern: route.pattern, methods: wrap(neutralHandler) });
        out.push({ pattern: route.pattern.map((part) => (toProvider.has(part) ? toProvider.get(part)! : part)), methods: wrap(providerHandler) });
      }
      return out;
    },
  };
}
