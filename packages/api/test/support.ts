/** What the API client's tests share: a client for an emulator, and the ApiError a call must fail with. */
import { expect } from 'vitest';
import { ApiError, LogfilterClient } from '@logfilter/api';

/** A client of the emulator at `url` with a bearer token, retrying without waiting. */
export function clientFor(url: string, token: string): LogfilterClient {
  return new LogfilterClient({ env: { LOGFILTER_BASE_URL: url, LOGFILTER_API_TOKEN: token }, retryDelayMs: 1 });
}

/** The ApiError that `p` rejects with; the test fails if it resolves or rejects with anything else. */
export async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the call to fail');
}

/**
 * The rulesets of a list that the scope owns: lists also show the managed rulesets every scope can execute (as
 * the provider's do), so tests about what a scope created look at the others.
 */
export const own = <T extends { kind?: string }>(list: T[]): T[] => list.filter((r) => r.kind !== 'managed');
