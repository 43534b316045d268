/**
 * Both spellings served (README, "Paths": both spellings; @logfilter/api README, "Spelling"): every route with a neutral path word is also served at the
 * provider's path, a request body may use either spelling of a field, and an answer (body, error message and
 * pointer) uses the spelling of its request's path. The words are the one table of @logfilter/api (spelling.ts);
 * the areas are written in the neutral spelling only.
 */
import { ALIASES, fieldsIn, segmentIn, textIn } from '@logfilter/api';
import { EmulatorError } from './errors.js';
import type { Area, Handler, HandlerAnswer, Route } from './routing.js';

export { ALIASES };

function providerHandler(handler: Handler): Handler {
  return (request, params) => {
    let answer: HandlerAnswer;
    try {
      answer = handler({ ...request, segments: request.segments.map((s) => segmentIn('neutral', s)), body: fieldsIn('neutral', request.body) }, params);
    } catch (error) {
      if (!(error instanceof EmulatorError)) throw error;
      const pointer = error.pointer === undefined ? undefined : textIn('provider', error.pointer);
      throw new EmulatorError(error.status, error.code, textIn('provider', error.message), error.headers, pointer);
    }
    return answer.result === undefined ? answer : { ...answer, result: fieldsIn('provider', answer.result) };
  };
}

function neutralHandler(handler: Handler): Handler {
  return (request, params) => handler({ ...request, body: fieldsIn('neutral', request.body) }, params);
}

/**
 * An area served in both spellings: its routes as written (neutral answers), and, for each route with a neutral
 * path word, the same route at the provider's path (provider answers).
 */
export function withAliases(area: Area): Area {
  return {
    ...area,
    routes(...args) {
      const out: Route[] = [];
      for (const route of area.routes(...args)) {
        const branded = route.pattern.some((part) => segmentIn('provider', part) !== part);
        if (!branded) {
          out.push(route);
          continue;
        }
        const wrap = (how: (handler: Handler) => Handler): Route['methods'] => Object.fromEntries(Object.entries(route.methods).map(([m, handler]) => [m, how(handler)]));
        out.push({ pattern: route.pattern, methods: wrap(neutralHandler) });
        out.push({ pattern: route.pattern.map((part) => segmentIn('provider', part)), methods: wrap(providerHandler) });
      }
      return out;
    },
  };
}
