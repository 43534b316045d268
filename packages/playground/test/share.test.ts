import { describe, expect, it } from 'vitest';
import { EMPTY_REQUEST } from '../src/rule-request.js';
import { decodeState, encodeState, MAX_SHARED_LOGS, type PageState } from '../src/share.js';

const defaults: PageState = { lang: 'filter', dataset: 'http_requests', source: '', rule: '', phase: '', logs: '', request: { ...EMPTY_REQUEST, url: 'https://default.example/' }, optimize: false, maxOperators: 30, maxBytes: 1000 };

describe('share link state', () => {
  it('round-trips the whole state through a URL-safe fragment', async () => {
    const state: PageState = { lang: 'rules', dataset: 'dns_logs', source: 'QueryName == "é 🚀"\n', rule: 'http.host eq "a"', phase: 'http_request_firewall_custom', logs: '{"a":1}\n', request: { url: 'https://a.example/x?y=1', method: 'GET', ip: '2001:db8::1', headers: 'accept: */*\nx-é: 🚀', more: '{"ssl": true}', lists: '{"l": [1]}' }, optimize: true, maxOperators: 5, maxBytes: 200 };
    const fragment = await encodeState(state);
    expect(fragment).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(await decodeState(`#${fragment}`, defaults)).toEqual({ state });
  });

  it('leaves logs too long for a link out', async () => {
    const state = { ...defaults, source: 'BotScore < 3', logs: 'x'.repeat(MAX_SHARED_LOGS + 1) };
    const back = await decodeState(await encodeState(state), defaults);
    expect(back).toEqual({ state: { ...state, logs: '' } });
  });

  it('reads a link made before the request form: the default request stands', async () => {
    const old = { lang: 'rules', dataset: 'http_requests', source: 'a', rule: 'http.host eq "a"', phase: '', logs: '', optimize: false, maxOperators: 30, maxBytes: 1000 };
    const bytes = new Blob([JSON.stringify(old)]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const b64 = Buffer.from(await new Response(bytes).arrayBuffer()).toString('base64url');
    expect(await decodeState(`#v1.${b64}`, defaults)).toEqual({ state: { ...old, request: defaults.request } });
    // a request with a field of the wrong type keeps the others
    const odd = { ...old, request: { url: 'https://b.example/', ip: 7 } };
    const odd64 = Buffer.from(await new Response(new Blob([JSON.stringify(odd)]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer()).toString('base64url');
    expect(await decodeState(`v1.${odd64}`, defaults)).toEqual({ state: { ...old, request: { ...EMPTY_REQUEST, url: 'https://b.example/' } } });
  });

  it('keeps the compile options only when they are what the page could have set', async () => {
    const enc = async (o: object) => Buffer.from(await new Response(new Blob([JSON.stringify(o)]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer()).toString('base64url');
    const r = await decodeState(`v1.${await enc({ optimize: 'yes', maxOperators: 0, maxBytes: 2.5 })}`, defaults);
    expect(r).toEqual({ state: defaults });
    const ok = await decodeState(`v1.${await enc({ optimize: true, maxOperators: 3, maxBytes: 70 })}`, defaults);
    expect(ok).toEqual({ state: { ...defaults, optimize: true, maxOperators: 3, maxBytes: 70 } });
  });

  it('answers a damaged or foreign fragment with an error, never an exception', async () => {
    const good = await encodeState({ ...defaults, source: 'BotScore < 3' });
    for (const bad of ['', '#foo', 'v1.', `${good.slice(0, good.length - 4)}`, 'v1.!!!!']) {
      const r = await decodeState(bad, defaults);
      expect('error' in r).toBe(true);
    }
  });
});
