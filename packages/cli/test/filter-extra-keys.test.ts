import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { file, logfilter } from './api-harness.js';

/**
 * A filter document with a key the format does not have (`{"where": …, "x": 1}`, or one inside a condition) means
 * what it means without it, everywhere: `check` and `decompile` warn (unknown-property, exit 0), and a job whose
 * filter carries it is taken by the API as it is (the emulator stores the string, and only `where` is read), while
 * `jobs create` sends the canonical filter without it. A warning, not an error (docs/language.md, unknown-property).
 */
const TOKEN = 'cli-secret-token';
let emu: RunningEmulator;
let env: Record<string, string>;
const WITH = '{"where":{"key":"ClientCountry","operator":"eq","value":"us"},"x":1}';
const WITHOUT = '{"where":{"key":"ClientCountry","operator":"eq","value":"us"}}';
const DEST = 's3://bucket/logs?region=us-east-1';

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN] });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
});
afterAll(() => emu.close());

describe('an unknown key in a filter document', () => {
  it('is a warning in check and decompile, at its path, and changes nothing', async () => {
    const f = file('extra.json', WITH);
    const checked = await logfilter(['check', '--diagnostics', 'json', f], env);
    expect(checked.code).toBe(0);
    expect(JSON.parse(checked.stderr).map((d: any) => [d.code, d.severity])).toEqual([['unknown-property', 'warning']]);
    const withKey = await logfilter(['decompile', f], env);
    const without = await logfilter(['decompile', file('plain.json', WITHOUT)], env);
    expect([withKey.code, withKey.stdout]).toEqual([0, without.stdout]);
  });

  it('is taken by the API on a job as it is, and dropped by jobs create, which sends the canonical filter', async () => {
    const res = await fetch(`${emu.url}/zones/extra-keys/logpush/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'j', destination_conf: DEST, dataset: 'http_requests', filter: WITH }),
    });
    const body = (await res.json()) as { result: { filter: string } };
    expect([res.status, body.result.filter]).toEqual([200, WITH]);
    const r = await logfilter(['jobs', 'create', '--zone', 'extra-keys', '--filter', file('extra2.json', WITH), '--destination', 'https://logs.example.com/in', '--json'], env);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(JSON.parse(r.stdout).filter).toBe(WITHOUT);
  });
});
