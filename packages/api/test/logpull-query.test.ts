/**
 * `logpull_options` may be a logpull call's query string or its full URL (the provider's schema); the client's
 * helpers read the options out of both, as the emulator does (one `logpullQuery`).
 */
import { describe, expect, it } from 'vitest';
import { logpullFields, logpullQuery, parseLogpullOptions } from '../src/index.js';

describe('logpull_options as a query string or a full URL', () => {
  it.each([
    ['fields=A,B&timestamps=rfc3339', 'fields=A,B&timestamps=rfc3339'],
    ['?fields=A,B', 'fields=A,B'],
    ['https://api.example.com/client/v4/zones/z/logs/received?start=1&fields=A,B', 'start=1&fields=A,B'],
    ['HTTP://x/y?fields=A', 'fields=A'],
    ['fields=A?B', 'fields=A?B'],
  ])('%s', (text, query) => {
    expect(logpullQuery(text)).toBe(query);
  });

  it("reads a full URL's fields", () => {
    expect(logpullFields('https://api.example.com/client/v4/zones/z/logs/received?start=1&fields=ClientIP,EdgeStartTimestamp')).toEqual(['ClientIP', 'EdgeStartTimestamp']);
    expect(parseLogpullOptions('https://h/p?fields=A&sample=0.5')).toEqual([['fields', 'A'], ['sample', '0.5']]);
  });
});
