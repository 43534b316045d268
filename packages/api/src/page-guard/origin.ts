/** The page origin a script was observed on: what `'self'` and scheme-less sources are relative to. */
import type { ObservedItem } from './types.js';

/**
 * The origin of the first page the item was seen on (`first_page_url`, else the first of `page_urls`), else
 * `https://` + its `host`. Undefined when none of them is known.
 */
export function pageOrigin(item: Pick<ObservedItem, 'first_page_url' | 'page_urls' | 'host'>): string | undefined {
  for (const candidate of [item.first_page_url, ...(Array.isArray(item.page_urls) ? item.page_urls : [])]) {
    if (typeof candidate !== 'string') continue;
    try {
      const u = new URL(candidate);
      if (u.protocol === 'http:' || u.protocol === 'https:') return u.origin;
    } catch {
      /* try the next */
    }
  }
  if (typeof item.host === 'string' && item.host !== '') {
    try {
      return new URL(`https://${item.host}`).origin;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
