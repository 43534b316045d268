import { describe, expect, it } from 'vitest';
import { decodeState, encodeState, MAX_SHARED_LOGS, type PageState } from '../src/share.js';

const defaults: PageState = { lang: 'filter', dataset: 'http_requests', source: '', rule: '', phase: '', logs: '' };

describe('share link state', () => {
  it('round-trips the whole state through a URL-safe fragment', async () => {
    const state: PageState = { lang: 'rules', dataset: 'dns_logs', source: 'QueryName == "é 🚀"\n', rule: 'http.host eq "a"', phase: 'http_request_firewall_custom', logs: '{"a":1}\n' };
    const fragment = await encodeState(state);
    expect(fragment).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(await decodeState(`#${fragment}`, defaults)).toEqual({ state });
  });

  it('leaves logs too long for a link out', async () => {
    const state = { ...defaults, source: 'BotScore < 3', logs: 'x'.repeat(MAX_SHARED_LOGS + 1) };
    const back = await decodeState(await encodeState(state), defaults);
    expect(back).toEqual({ state: { ...state, logs: '' } });
  });

  it('answers a damaged or foreign fragment with an error, never an exception', async () => {
    const good = await encodeState({ ...defaults, source: 'BotScore < 3' });
    for (const bad of ['', '#foo', 'v1.', `${good.slice(0, good.length - 4)}`, 'v1.!!!!']) {
      const r = await decodeState(bad, defaults);
      expect('error' in r).toBe(true);
    }
  });
});
