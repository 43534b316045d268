/**
 * What an area of the API (page monitoring, …) needs of the client: one call, `request`. Areas that the client
 * itself builds depend on this, not on client.ts, so the client can build them without the two importing each
 * other.
 */
import type { ResultSchema } from './schemas.js';
import type { ResultInfo } from './types.js';

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** A call's answer: its `result`, and its `result_info` when the API sent one. */
export interface Answer<T> {
  result: T;
  resultInfo?: ResultInfo;
}

/** One API call (LogfilterClient.request): the path in the description's words, the answer checked against `schema`. */
export interface ApiRequester {
  request<T = unknown>(method: string, path: string, schema?: ResultSchema, opts?: CallOptions & { body?: unknown; text?: boolean }): Promise<Answer<T>>;
}
