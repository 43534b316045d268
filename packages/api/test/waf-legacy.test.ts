import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, MANAGED_RULESET_ID, type RunningEmulator } from '@logfilter/emulator';
import { LogfilterClient, getMigrationConfig, getMigrationStatus, migrate, wafLegacy, isUriOverride } from '@logfilter/api';
import { clientFor, failure } from './support.js';

const TOKEN = 'legacy-token';
let emu: RunningEmulator;
let client: LogfilterClient;
const CF = 'a25a9a7e9c00afc1fb2e0245519d725b';
const OWASP = '1e334934fd7ae32ad705667f8c1057aa';
const SPECIALS = 'de677e5818985db1285d0e80225f06e5';

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], fixture: { zones: { high: { plan: 'pro' } } } });
  client = clientFor(emu.url, TOKEN);
});
afterAll(() => emu.close());

describe('the previous WAF lists\' search parameters through the client', () => {
  // The provider's OpenAPI document: packages `name`; groups `name`, `mode`, `rules_count`; rules `mode` (DIS, CHL,
  // BLK, SIM), `group_id`, `description`, `priority`; `match`, `order`, `direction`.
  it('sends search, match, order and direction, and follows every page of the answer', async () => {
    const z = 'legacy-search';
    expect((await wafLegacy.listPackages(client, z, { search: { name: 'core' } })).map((p) => p.id)).toEqual([OWASP]);
    expect((await wafLegacy.listPackages(client, z, { order: 'name', direction: 'desc' })).map((p) => p.id)).toEqual([OWASP, CF]);
    expect((await wafLegacy.listGroups(client, z, CF, { search: { mode: 'on', rules_count: 3 } })).map((g) => g.id)).toEqual([SPECIALS]);
    await wafLegacy.updateRule(client, z, CF, '100016', 'challenge');
    expect((await wafLegacy.listRules(client, z, CF, { search: { mode: 'CHL' } })).map((r) => r.id)).toEqual(['100016']);
    expect((await wafLegacy.listRules(client, z, CF, { search: { priority: '5', description: 'wordpress' }, match: 'any', order: 'priority' })).map((r) => r.id)).toEqual(['100015', 'WP0025']);
    const refused = await failure(wafLegacy.listRules(client, z, CF, { search: { mode: 'block' as 'BLK' } }));
    expect([refused.status, refused.code]).toEqual([400, ERROR_CODES.wafInvalid]);
  });
});

describe('the previous WAF through the client', () => {
  it('reads packages, groups and rules, and changes modes within each one\'s allowed set', async () => {
    const z = 'legacy-1';
    const packages = await wafLegacy.listPackages(client, z);
    expect(packages.map((p) => [p.id, p.detection_mode])).toEqual([[CF, 'traditional'], [OWASP, 'anomaly']]);
    expect(await wafLegacy.getPackage(client, z, OWASP)).toMatchObject({ sensitivity: 'medium', action_mode: 'challenge', zone_id: z });

    const groups = await wafLegacy.listGroups(client, z, CF);
    expect(groups.find((g) => g.id === SPECIALS)).toMatchObject({ mode: 'on', rules_count: 3, modified_rules_count: 0 });
    expect(await wafLegacy.updateGroup(client, z, CF, SPECIALS, 'off')).toMatchObject({ id: SPECIALS, mode: 'off' });

    const rules = await wafLegacy.listRules(client, z, CF);
    expect(rules.find((r) => r.id === '100015')).toMatchObject({ mode: 'default', default_mode: 'block', group: { id: SPECIALS }, allowed_modes: ['default', 'disable', 'simulate', 'block', 'challenge'] });
    expect(await wafLegacy.updateRule(client, z, CF, '100015', 'simulate')).toMatchObject({ mode: 'simulate' });
    expect((await wafLegacy.getGroup(client, z, CF, SPECIALS)).modified_rules_count).toBe(1);
    // An anomaly package's rules are on/off; a traditional mode there is refused, and the reverse.
    expect((await failure(wafLegacy.updateRule(client, z, OWASP, '990011', 'block'))).code).toBe(ERROR_CODES.wafInvalid);
    expect(await wafLegacy.updateRule(client, z, OWASP, '990011', 'off')).toMatchObject({ mode: 'off' });
    expect((await failure(wafLegacy.updatePackage(client, z, CF, { sensitivity: 'low' }))).code).toBe(ERROR_CODES.wafInvalid);
    expect(await wafLegacy.updatePackage(client, z, OWASP, { sensitivity: 'low', action_mode: 'simulate' })).toMatchObject({ sensitivity: 'low', action_mode: 'simulate' });
    for (const missing of [wafLegacy.getPackage(client, z, 'nope'), wafLegacy.getGroup(client, z, CF, 'nope'), wafLegacy.getRule(client, z, CF, 'nope'), wafLegacy.getOverride(client, z, 'nope')]) {
      const err = await failure(missing);
      expect([err.status, err.code]).toEqual([404, ERROR_CODES.wafNotFound]);
    }

    // What was set carries into the proposed configuration: simulate → log, a group off → its other rules off
    // (Specials now, WordPress by default).
    const overrides = ((await getMigrationConfig(client, z)).rules[0].action_parameters as any).overrides.rules;
    const managed = await client.getRuleset(z, MANAGED_RULESET_ID);
    const byRef = (ref: string) => managed.rules.find((r) => r.ref === ref)!.id;
    expect(overrides).toEqual([
      { id: byRef('100015'), action: 'log', enabled: true },
      { id: byRef('100016'), enabled: false },
      { id: byRef('100173'), enabled: false },
      { id: byRef('WP0025'), enabled: false },
    ]);
  });

  it('creates, reads, changes and deletes overrides; only URI-based ones block the migration', async () => {
    const z = 'legacy-2';
    const created = await wafLegacy.createOverride(client, z, { urls: ['example.com/shop*'], rules: { '100015': 'disable' }, groups: { [SPECIALS]: 'off' }, description: 'shop' });
    expect(created).toMatchObject({ urls: ['example.com/shop*'], paused: false, priority: 1, description: 'shop' });
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    expect(isUriOverride(created)).toBe(true);
    const changed = await wafLegacy.updateOverride(client, z, created.id, { paused: true });
    expect(changed).toMatchObject({ id: created.id, paused: true, urls: ['example.com/shop*'], rules: { '100015': 'disable' } });
    expect(await wafLegacy.getOverride(client, z, created.id)).toEqual(changed);
    const bad = [{ urls: [] }, { urls: ['x'], rules: { '1': 'explode' } }, { urls: ['x'], groups: { g: 'maybe' } }, { urls: ['x'], paused: 'yes' }, { urls: ['x'], priority: 1.5 }];
    for (const body of bad) expect((await failure(wafLegacy.createOverride(client, z, body as any))).code).toBe(ERROR_CODES.wafInvalid);
    expect((await wafLegacy.listOverrides(client, z)).map((o) => o.id)).toEqual([created.id]);
    await wafLegacy.deleteOverride(client, z, created.id);
    expect(await wafLegacy.listOverrides(client, z)).toEqual([]);
  });

  it('reports the core rule set at PL2 after the migration, with the threshold of its sensitivity', async () => {
    await wafLegacy.updatePackage(client, 'high', OWASP, { sensitivity: 'high' });
    expect((await getMigrationStatus(client, 'high')).core_ruleset).toBeNull();
    await migrate(client, 'high', await getMigrationConfig(client, 'high'), 'pending');
    expect((await getMigrationStatus(client, 'high')).core_ruleset).toEqual({ paranoia_level: 'PL2', score_threshold: 40 });
  });
});
