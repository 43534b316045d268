import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, MANAGED_RULESET_ID, type RunningEmulator } from '@logfilter/emulator';
import { LogfilterClient, checkMigration, getMigrationConfig, getMigrationStatus, migrate, migrationRequest, parseMigrationMode, wafLegacy } from '@logfilter/api';
import { clientFor, failure } from './support.js';

const TOKEN = 'migration-token';
const longExpression = `http.request.uri.path eq "/${'a'.repeat(4097 - 'http.request.uri.path eq "/"'.length)}"`;
const atLimit = `http.request.uri.path eq "/${'a'.repeat(4096 - 'http.request.uri.path eq "/"'.length)}"`;

// The fixture of the scenarios: one zone per case, in the documented format.
const FIXTURE = {
  accounts: { a1: {} },
  zones: {
    pro: { account: 'a1', plan: 'pro' },
    business: { plan: 'business' },
    ent: { account: 'a1', plan: 'enterprise', waf: { firewall_rules: [{ id: 'r1', expression: atLimit }] } },
    uri: { plan: 'enterprise', waf: { overrides: [{ id: 'o1', urls: ['example.com/*'], rules: { '100015': 'block' } }] } },
    many: { plan: 'pro', waf: { firewall_rules: Array.from({ length: 201 }, (_, i) => ({ id: `fw${i}`, expression: 'ip.src eq 192.0.2.1' })) } },
    twohundred: { plan: 'pro', waf: { firewall_rules: Array.from({ length: 200 }, (_, i) => ({ id: `fw${i}`, expression: 'true' })) } },
    long: { plan: 'business', waf: { firewall_rules: [{ id: 'r1', expression: longExpression }] } },
    tuned: {
      plan: 'pro',
      waf: {
        packages: [
          {
            id: 'p1',
            name: 'CloudFlare',
            groups: [{ id: 'g1', name: 'Specials' }, { id: 'g2', name: 'WordPress', mode: 'off' }],
            rules: [
              { id: '100015', group: 'g1', mode: 'simulate' },
              { id: '100016', group: 'g1', mode: 'disable' },
              { id: '100173', group: 'g1' },
              { id: 'WP0025', group: 'g2' },
            ],
          },
        ],
      },
    },
  },
};

let emu: RunningEmulator;
let client: LogfilterClient;

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], fixture: FIXTURE });
  client = clientFor(emu.url, TOKEN);
});
afterAll(() => emu.close());

describe('the managed-rule migration over HTTP', () => {
  it('a Pro zone migrates straight, and the entry point holds the configuration that was sent', async () => {
    expect(await checkMigration(client, 'pro')).toMatchObject({ compatible: true, migration_state: 'start' });
    expect(await getMigrationStatus(client, 'pro')).toMatchObject({ migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'disabled' });
    const config = await getMigrationConfig(client, 'pro');
    expect(config.name).toBe('default');
    expect(config.rules).toHaveLength(1);
    expect(config.rules[0]).toMatchObject({ id: '', version: '', ref: '', action: 'execute', expression: 'true', action_parameters: { id: MANAGED_RULESET_ID } });

    const refused = await failure(migrate(client, 'pro', config, 'validation'));
    expect([refused.status, refused.code]).toEqual([403, ERROR_CODES.validationEnterpriseOnly]);
    expect((await getMigrationStatus(client, 'pro')).migration_state).toBe('start');

    const entry = await migrate(client, 'pro', config, 'pending');
    expect(entry).toMatchObject({ kind: 'zone', phase: 'http_request_firewall_managed', name: 'default', version: '1' });
    expect(entry.rules).toHaveLength(1);
    expect(entry.rules[0]).toMatchObject({ action: 'execute', expression: 'true', action_parameters: config.rules[0].action_parameters, enabled: true });
    expect(entry.rules[0].id).toMatch(/^[0-9a-f]{32}$/);
    expect(await client.getEntrypoint('pro', 'http_request_firewall_managed')).toEqual(entry);

    const status = await getMigrationStatus(client, 'pro');
    expect(status).toMatchObject({ migration_state: 'migrated', old_waf_status: 'disabled', new_waf_status: 'enabled', execution_order: ['new'], core_ruleset: { paranoia_level: 'PL2' } });
    expect(await checkMigration(client, 'pro')).toMatchObject({ compatible: false, migration_state: 'migrated' });
    // Irreversible: no second migration, in either mode.
    for (const mode of ['pending', 'validation'] as const) {
      const again = await failure(migrate(client, 'pro', config, mode));
      expect([again.status, again.code]).toEqual([409, ERROR_CODES.alreadyMigrated]);
    }
  });

  it('a Business zone also goes straight to migrated', async () => {
    await migrate(client, 'business', await getMigrationConfig(client, 'business'), 'pending');
    expect((await getMigrationStatus(client, 'business')).migration_state).toBe('migrated');
  });

  it('an Enterprise zone goes through validation mode (both enabled, new first), then finishes', async () => {
    const config = await getMigrationConfig(client, 'ent');
    await migrate(client, 'ent', config, 'validation');
    expect(await getMigrationStatus(client, 'ent')).toMatchObject({
      migration_state: 'validation',
      old_waf_status: 'enabled',
      new_waf_status: 'enabled',
      execution_order: ['new', 'old'],
    });
    expect(await checkMigration(client, 'ent')).toMatchObject({ compatible: true, migration_state: 'validation' });
    // The previous WAF still works in validation mode.
    expect((await wafLegacy.listPackages(client, 'ent')).length).toBeGreaterThan(0);
    const final = await migrate(client, 'ent', config, 'pending');
    expect(final.version).toBe('2');
    expect(await getMigrationStatus(client, 'ent')).toMatchObject({ migration_state: 'migrated', old_waf_status: 'disabled', new_waf_status: 'enabled' });
  });

  it('reads the modes in both spellings and builds the exact request', () => {
    expect(['pending', '1', 'validation', '2', 'later', ''].map(parseMigrationMode)).toEqual(['pending', 'pending', 'validation', 'validation', undefined, undefined]);
    expect(migrationRequest('z 1', { name: 'default', rules: [] }, 'validation')).toEqual({
      method: 'PUT',
      path: '/zones/z%201/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=validation&phase_two=1',
      body: { name: 'default', rules: [] },
    });
  });

  it('accepts the numeric waf_migration values and refuses others', async () => {
    const call = (zone: string, value: string) =>
      client.updateEntrypoint(zone, 'http_request_firewall_managed', { rules: [{ action: 'execute', expression: 'true', action_parameters: { id: MANAGED_RULESET_ID } }] }, { query: { waf_migration: value, phase_two: '1' } });
    const bad = await failure(call('numeric', 'later'));
    expect([bad.status, bad.code]).toEqual([400, ERROR_CODES.migrationParameter]);
    await call('numeric', '2');
    expect((await getMigrationStatus(client, 'numeric')).migration_state).toBe('validation');
    await call('numeric', '1');
    expect((await getMigrationStatus(client, 'numeric')).migration_state).toBe('migrated');
  });

  it('a zone with a URI-based override is refused until the override is deleted', async () => {
    const check = await checkMigration(client, 'uri');
    expect(check).toMatchObject({ compatible: false, migration_state: 'start' });
    expect(check.reasons?.[0]).toMatchObject({ code: 'uri-overrides', override_ids: ['o1'] });
    const config = await getMigrationConfig(client, 'uri');
    const refused = await failure(migrate(client, 'uri', config, 'pending'));
    expect([refused.status, refused.code]).toEqual([400, ERROR_CODES.migrationIncompatible]);
    expect((await client.listEntrypointVersions('uri', 'http_request_firewall_managed'))).toEqual([]);

    const overrides = await wafLegacy.listOverrides(client, 'uri');
    expect(overrides).toEqual([{ id: 'o1', description: '', urls: ['example.com/*'], rules: { '100015': 'block' }, groups: {}, rewrite_action: {}, paused: false, priority: 1 }]);
    await wafLegacy.deleteOverride(client, 'uri', 'o1');
    expect(await checkMigration(client, 'uri')).toMatchObject({ compatible: true });
    await migrate(client, 'uri', config, 'pending');
    expect((await getMigrationStatus(client, 'uri')).migration_state).toBe('migrated');
  });

  it('more than 200 firewall rules, or an expression over 4 KB, fail with the contact-support error; the limits themselves pass', async () => {
    for (const zone of ['many', 'long']) {
      const err = await failure(migrate(client, zone, await getMigrationConfig(client, zone), 'pending'));
      expect([err.status, err.code]).toEqual([400, ERROR_CODES.migrationNeedsSupport]);
      expect((await getMigrationStatus(client, zone)).migration_state).toBe('start');
      await expect(client.getEntrypoint(zone, 'http_request_firewall_managed')).rejects.toMatchObject({ code: ERROR_CODES.entrypointNotFound });
    }
    expect(Buffer.byteLength(longExpression)).toBe(4097);
    expect(Buffer.byteLength(atLimit)).toBe(4096);
    await migrate(client, 'twohundred', await getMigrationConfig(client, 'twohundred'), 'pending');
    expect((await getMigrationStatus(client, 'twohundred')).migration_state).toBe('migrated');
  });

  it('after migration every previous-WAF call fails', async () => {
    const zone = 'after';
    const created = await wafLegacy.createOverride(client, zone, { urls: ['example.com/x*'], rules: { '100015': 'disable' } });
    await wafLegacy.deleteOverride(client, zone, created.id);
    await migrate(client, zone, await getMigrationConfig(client, zone), 'pending');
    const P = '/zones/after/firewall/waf/packages/a25a9a7e9c00afc1fb2e0245519d725b';
    const calls: [string, string, unknown?][] = [
      ['GET', '/zones/after/firewall/waf/packages'],
      ['GET', P],
      ['PATCH', P, { sensitivity: 'low' }],
      ['GET', `${P}/groups`],
      ['GET', `${P}/groups/de677e5818985db1285d0e80225f06e5`],
      ['PATCH', `${P}/groups/de677e5818985db1285d0e80225f06e5`, { mode: 'off' }],
      ['GET', `${P}/rules`],
      ['GET', `${P}/rules/100015`],
      ['PATCH', `${P}/rules/100015`, { mode: 'block' }],
      ['GET', '/zones/after/firewall/waf/overrides'],
      ['POST', '/zones/after/firewall/waf/overrides', { urls: ['example.com/*'] }],
      ['GET', '/zones/after/firewall/waf/overrides/x'],
      ['PUT', '/zones/after/firewall/waf/overrides/x', { urls: ['example.com/*'] }],
      ['DELETE', '/zones/after/firewall/waf/overrides/x'],
    ];
    for (const [method, path, body] of calls) {
      const err = await failure(client.request(method, path, 'any', { body }));
      expect([method, path, err.status, err.code]).toEqual([method, path, 403, ERROR_CODES.wafMigrated]);
    }
  });

  it('proposes overrides that keep the previous WAF settings (simulate → log, disabled rules and groups off)', async () => {
    const config = await getMigrationConfig(client, 'tuned');
    const overrides = (config.rules[0].action_parameters as { overrides: { rules: { id: string; action?: string; enabled: boolean }[] } }).overrides.rules;
    const managed = await client.getRuleset('tuned', MANAGED_RULESET_ID);
    const byRef = (ref: string) => managed.rules.find((r) => r.ref === ref)!.id;
    expect(overrides).toEqual([
      { id: byRef('100015'), action: 'log', enabled: true },
      { id: byRef('100016'), enabled: false },
      { id: byRef('WP0025'), enabled: false },
    ]);
  });
});
