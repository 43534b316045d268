/**
 * Concurrent custom-field writers over real HTTP against the emulator: every add that resolved has its field in
 * the final state, every add that failed has not (its error is the truth), and concurrent removes neither lose an
 * added field nor put back a removed one. Bounded: each writer makes a bounded number of attempts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { addCustomFields, getCustomFields, LogfilterClient, removeCustomFields, setCustomFields, type CustomFields } from '@logfilter/api';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let emu: RunningEmulator;
let zn = 0;
const zone = () => `cc-zone-${++zn}`;
const f = (requestHeaders: string[] = [], responseHeaders: string[] = [], cookies: string[] = []): CustomFields => ({ requestHeaders, responseHeaders, cookies });
const newClient = () => new LogfilterClient({ baseUrl: emu.url, token: 't', env: {}, retryDelayMs: 1 });

beforeAll(async () => {
  // A little latency so that the writers' reads and writes really interleave.
  emu = await startEmulator({ tokens: ['t'], latencyMs: 3 });
});
afterAll(() => emu.close());

async function race(z: string, writers: number, base: string[]) {
  const names = Array.from({ length: writers }, (_, i) => `hdr-${i}`);
  const outcomes = await Promise.all(
    names.map((n) =>
      addCustomFields(newClient(), z, f([n])).then(
        () => ({ n, ok: true as const }),
        (e: Error & { reason?: string }) => ({ n, ok: false as const, reason: e.reason }),
      ),
    ),
  );
  const final = (await getCustomFields(newClient(), z)).fields.requestHeaders;
  const ok = outcomes.filter((o) => o.ok).map((o) => o.n);
  const failed = outcomes.filter((o) => !o.ok);
  return { final, ok, failed, base };
}

describe('50 concurrent adds', () => {
  it.each([
    ['a fresh zone', []],
    ['a zone that has fields already', ['existing-1', 'existing-2']],
  ])('on %s: the final state holds exactly the base and the writers that succeeded; the rest failed on the limit', async (_name, base) => {
    for (let round = 0; round < 3; round++) {
      const z = zone();
      if (base.length) await addCustomFields(newClient(), z, f(base));
      const r = await race(z, 50, base);
      expect(new Set(r.final)).toEqual(new Set([...base, ...r.ok]));
      // 50 names do not fit in 40: exactly as many succeed as fit, the others were refused for the limit.
      expect(r.ok).toHaveLength(40 - base.length);
      expect(r.failed.map((o) => o.reason)).toEqual(Array(50 - 40 + base.length).fill('too-many'));
      for (const o of r.failed) expect(r.final).not.toContain(o.n);
    }
  });

  it('20 adds of the same header on a fresh zone all succeed, the header is there once per writer at most', async () => {
    const z = zone();
    await Promise.all(Array.from({ length: 20 }, () => addCustomFields(newClient(), z, f(['same']))));
    expect((await getCustomFields(newClient(), z)).fields.requestHeaders).toEqual(['same']);
  });
});

describe('concurrent removes and adds', () => {
  it('30 removers of one rule and 10 adders: nothing removed comes back, nothing added is lost, for 3 rounds', async () => {
    for (let round = 0; round < 3; round++) {
      const z = zone();
      const old = Array.from({ length: 30 }, (_, i) => `old-${i}`);
      await setCustomFields(newClient(), z, f(old));
      const added = Array.from({ length: 10 }, (_, i) => `new-${i}`);
      const results = await Promise.allSettled([
        ...old.map((n) => removeCustomFields(newClient(), z, f([n]))),
        ...added.map((n) => addCustomFields(newClient(), z, f([n]))),
      ]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(new Set((await getCustomFields(newClient(), z)).fields.requestHeaders)).toEqual(new Set(added));
    }
  });

  it('a remove that runs into a ruleset deleted under it ends truthfully', async () => {
    const z = zone();
    const c = newClient();
    const r = await setCustomFields(c, z, f(['a', 'b']));
    await c.deleteRuleset(z, r.ruleset!.id);
    const out = await removeCustomFields(c, z, f(['a']));
    expect(out.fields).toEqual(f());
  });
});
