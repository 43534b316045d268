/**
 * The query parameters of the previous WAF's lists, as the provider's OpenAPI document gives them (README, "The
 * migration (area E)"): `page`, `per_page` (default 50, 5 to 100), and on packages, groups and rules the search
 * parameters of each list, joined by `match` (`all`, the default, or `any`), then sorted by `order` and
 * `direction`. A parameter the list does not take, or a value outside its set, is refused with its name as the
 * pointer (the schema gives no error; a misspelt search must not answer the whole list as if it matched).
 */
import { badRequest } from './errors.js';
import { paged, type HandlerAnswer, type PageSize } from './routing.js';

/** The schema's page size of these lists (`per_page`: default 50, minimum 5, maximum 100). */
export const WAF_PAGE_SIZE: PageSize = { perPage: 50, min: 5, max: 100 };

type Item = Record<string, any>;

export interface WafListSpec {
  /** Search parameter → whether an item matches the value (already checked by `values`, when given). */
  search: Record<string, { matches(item: Item, value: string): boolean; values?: readonly string[]; pattern?: RegExp }>;
  /** `order` value → the item's sort key. */
  order: Record<string, (item: Item) => string | number>;
}

const PAGING = ['page', 'per_page'];
const MATCH = ['all', 'any'];
const DIRECTIONS = ['asc', 'desc'];

/** Part of the text, any case: how a search by name or description finds "Core Rule Set" from `core rule`. */
export const containsText = (field: string) => (item: Item, value: string) => String(item[field] ?? '').toLowerCase().includes(value.toLowerCase());

/** A priority is a number written as a string ("5", "20"): compared as a number when it is one. */
export const numberOrText = (value: unknown): string | number => (typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : String(value ?? ''));

function oneOf(query: URLSearchParams, name: string, values: readonly string[]): string | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!values.includes(raw)) throw badRequest('wafInvalid', `${name}: must be one of ${values.join(', ')}`, `/${name}`);
  return raw;
}

export function wafList(items: Item[], query: URLSearchParams, spec: WafListSpec = { search: {}, order: {} }): HandlerAnswer {
  const searchable = Object.keys(spec.search);
  const sortable = Object.keys(spec.order);
  // Lists without search or order (overrides) take only the paging parameters.
  const known = [...PAGING, ...(searchable.length > 0 ? [...searchable, 'match'] : []), ...(sortable.length > 0 ? ['order', 'direction'] : [])];
  for (const name of query.keys()) {
    if (!known.includes(name)) throw badRequest('wafInvalid', `${name}: not a parameter of this list (known: ${known.join(', ')})`, `/${name}`);
    if (!PAGING.includes(name) && query.getAll(name).length > 1) throw badRequest('wafInvalid', `${name}: given twice`, `/${name}`);
  }
  const searches = searchable.flatMap((name) => {
    const value = query.get(name);
    if (value === null) return [];
    const rule = spec.search[name];
    if (rule.values) oneOf(query, name, rule.values);
    if (rule.pattern && !rule.pattern.test(value)) throw badRequest('wafInvalid', `${name}: "${value.slice(0, 80)}" is not valid`, `/${name}`);
    return [(item: Item) => rule.matches(item, value)];
  });
  const any = (searchable.length > 0 ? oneOf(query, 'match', MATCH) : undefined) === 'any';
  let selected = searches.length === 0 ? items : items.filter((item) => (any ? searches.some((s) => s(item)) : searches.every((s) => s(item))));
  const order = sortable.length > 0 ? oneOf(query, 'order', sortable) : undefined;
  const direction = sortable.length > 0 ? oneOf(query, 'direction', DIRECTIONS) : undefined;
  if (order !== undefined) {
    const key = spec.order[order];
    // A stable sort: items with the same key keep the list's own order.
    selected = [...selected].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
  if (direction === 'desc') selected = [...selected].reverse();
  return paged(selected, query, WAF_PAGE_SIZE);
}
