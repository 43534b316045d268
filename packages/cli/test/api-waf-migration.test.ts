import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { Readable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startEmulator, ERROR_CODES, MANAGED_RULESET_ID, type RunningEmulator } from '@logfilter/emulator';
import { LogfilterClient, getMigrationStatus } from '@logfilter/api';
import { file, logfilter, workdir } from './api-harness.js';
import { run } from '../src/main.js';
import type { CliContext } from '../src/context.js';

const TOKEN = 'waf-cli-token';
let emu: RunningEmulator;
let env: Record<string, string>;
let api: LogfilterClient;

const FIXTURE = {
  zones: {
    pro: { plan: 'pro' },
    ent: { plan: 'enterprise' },
    tty: { plan: 'business' },
    blocked: { plan: 'enterprise', waf: { overrides: [{ id: 'o1', urls: ['example.com/admin*'], rules: { '100015': 'block' } }, { id: 'o2', urls: ['example.com/api*'] }] } },
    tuned: { plan: 'pro', waf: { packages: [{ id: 'p1', groups: [{ id: 'g1' }], rules: [{ id: '100015', mode: 'simulate' }] }] } },
    many: { plan: 'pro', waf: { firewall_rules: Array.from({ length: 201 }, () => ({})) } },
  },
};

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], fixture: FIXTURE });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
  api = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {} });
});
afterAll(() => emu.close());

/** `logfilter` on a pretend terminal: stdin is a TTY and holds the user's answer. */
async function onTerminal(argv: string[], answer: string) {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    stdout: { write: (s: string | Uint8Array) => ((stdout += String(s)), true), isTTY: true },
    stderr: { write: (s: string | Uint8Array) => ((stderr += String(s)), true), isTTY: true },
    stdin: Object.assign(Readable.from([answer]), { isTTY: true }),
    env,
    cwd: workdir,
  };
  const code = await run('logfilter', argv, ctx);
  return { code, stdout, stderr };
}

describe('logfilter waf-migration', () => {
  it('check explains why a zone cannot migrate (exit 1) and lists the overrides to delete; waf-legacy deletes them', async () => {
    const check = await logfilter(['waf-migration', 'check', '--zone', 'blocked'], env);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('o1');
    expect(check.stdout).toContain('example.com/admin*');
    expect(check.stdout).toContain('waf-legacy overrides delete');
    const json = await logfilter(['waf-migration', 'check', '--zone', 'blocked', '--json'], env);
    expect([json.code, JSON.parse(json.stdout)]).toMatchObject([1, { compatible: false, migration_state: 'start' }]);

    const list = await logfilter(['waf-legacy', 'overrides', 'list', '--zone', 'blocked', '--json'], env);
    expect(JSON.parse(list.stdout).map((o: any) => o.id)).toEqual(['o1', 'o2']);
    // check prints one command per override, run here as printed
    const commands = check.stdout.split('\n').filter((l) => /^\s+logfilter waf-legacy overrides delete /.test(l)).map((l) => l.trim().split(/\s+/).slice(1));
    expect(commands.map((c) => c[3])).toEqual(['o1', 'o2']);
    for (const argv of commands) expect((await logfilter(argv, env)).code).toBe(0);
    const ok = await logfilter(['waf-migration', 'check', '--zone', 'blocked'], env);
    expect(ok.code).toBe(0);
  });

  it('plan shows the overrides as a table and saves an editable file that start/finish send', async () => {
    const plan = await logfilter(['waf-migration', 'plan', '--zone', 'tuned', '--output', 'tuned.yaml'], env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/RULE +REPLACES +DESCRIPTION +ACTION +ENABLED/);
    expect(plan.stdout).toMatch(/100015 +Anomaly:Header:User-Agent - Missing +log +yes/);
    const saved = parse(readFileSync(join(workdir, 'tuned.yaml'), 'utf8'));
    expect(saved).toMatchObject({ name: 'default', rules: [{ action: 'execute', action_parameters: { id: MANAGED_RULESET_ID } }] });
    // The user edits the file: the override now blocks instead of logging.
    saved.rules[0].action_parameters.overrides.rules[0].action = 'block';
    const edited = file('tuned-edited.json', JSON.stringify(saved));
    const fin = await logfilter(['waf-migration', 'finish', '--zone', 'tuned', '--config', edited, '--yes', '--json'], env);
    expect(fin.code).toBe(0);
    const entry = await api.getEntrypoint('tuned', 'http_request_firewall_managed');
    expect((entry.rules[0].action_parameters as any).overrides.rules[0].action).toBe('block');
  });

  it('finish without a terminal needs --yes (exit 2, nothing sent); --dry-run prints exactly what would be sent', async () => {
    const before = emu.requestCount;
    const refused = await logfilter(['waf-migration', 'finish', '--zone', 'pro'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(emu.requestCount).toBe(before);
    const dry = await logfilter(['waf-migration', 'finish', '--zone', 'pro', '--dry-run'], env);
    expect(dry.code).toBe(0);
    const config = await api.request<any>('GET', '/zones/pro/waf_migration/config?phase_two=1');
    expect(JSON.parse(dry.stdout)).toEqual({
      method: 'PUT',
      url: `${emu.url}/zones/pro/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1`,
      headers: { Authorization: 'Bearer <redacted>', 'Content-Type': 'application/json' },
      body: config.result,
    });
    // Only reads were made: status and config for the dry run, and the config read above.
    expect(emu.requestCount - before).toBe(3);
    expect((await getMigrationStatus(api, 'pro')).migration_state).toBe('start');
  });

  it('a Pro zone: start --validation is refused by the API (exit 1), finish --yes migrates, and every previous-WAF command then fails', async () => {
    const start = await logfilter(['waf-migration', 'start', '--zone', 'pro', '--validation'], env);
    expect(start.code).toBe(1);
    expect(start.stderr).toContain(String(ERROR_CODES.validationEnterpriseOnly));
    expect((await logfilter(['waf-migration', 'start', '--zone', 'pro'], env)).code).toBe(2);
    const fin = await logfilter(['waf-migration', 'finish', '--zone', 'pro', '--yes'], env);
    expect([fin.code, fin.stdout]).toEqual([0, expect.stringContaining('migrated')]);
    const status = await logfilter(['waf-migration', 'status', '--zone', 'pro'], env);
    expect(status.stdout).toMatch(/^migration_state: +migrated$/m);
    expect(status.stdout).toMatch(/^old_waf_status: +disabled$/m);
    for (const argv of [['packages'], ['groups', '--package', 'a25a9a7e9c00afc1fb2e0245519d725b'], ['rules', '--package', 'a25a9a7e9c00afc1fb2e0245519d725b'], ['overrides', 'list'], ['overrides', 'get', 'x'], ['overrides', 'delete', 'x', '--yes']]) {
      const r = await logfilter(['waf-legacy', ...argv, '--zone', 'pro'], env);
      expect([argv.join(' '), r.code]).toEqual([argv.join(' '), 1]);
      expect(r.stderr).toContain(String(ERROR_CODES.wafMigrated));
    }
    const again = await logfilter(['waf-migration', 'finish', '--zone', 'pro', '--yes'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(String(ERROR_CODES.alreadyMigrated));
  });

  it('an Enterprise zone: start --validation, then finish sends the configuration validation runs', async () => {
    const start = await logfilter(['waf-migration', 'start', '--zone', 'ent', '--validation', '--json'], env);
    expect(start.code).toBe(0);
    expect(JSON.parse(start.stdout).status).toMatchObject({ migration_state: 'validation', execution_order: ['new', 'old'] });
    const validated = await api.getEntrypoint('ent', 'http_request_firewall_managed');
    // -y: the short form every command that asks for confirmation takes
    const fin = await logfilter(['waf-migration', 'finish', '--zone', 'ent', '-y', '--json'], env);
    expect(fin.code).toBe(0);
    const out = JSON.parse(fin.stdout);
    expect(out.status.migration_state).toBe('migrated');
    expect(out.entrypoint.rules.map((r: any) => r.id)).toEqual(validated.rules.map((r) => r.id));
  });

  it('on a terminal, finish asks and goes on only after yes', async () => {
    const no = await onTerminal(['waf-migration', 'finish', '--zone', 'tty'], 'no\n');
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('irreversible');
    expect((await getMigrationStatus(api, 'tty')).migration_state).toBe('start');
    // only yes: not y
    expect((await onTerminal(['waf-migration', 'finish', '--zone', 'tty'], 'y\n')).code).toBe(1);
    expect((await getMigrationStatus(api, 'tty')).migration_state).toBe('start');
    const yes = await onTerminal(['waf-migration', 'finish', '--zone', 'tty'], 'yes\n');
    expect(yes.code).toBe(0);
    expect((await getMigrationStatus(api, 'tty')).migration_state).toBe('migrated');
  });

  it('a zone with 201 firewall rules fails with the contact-support error (exit 1)', async () => {
    const r = await logfilter(['waf-migration', 'finish', '--zone', 'many', '--yes'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(String(ERROR_CODES.migrationNeedsSupport));
    expect(r.stderr).toContain('contact support');
  });
});

describe('logfilter waf-legacy', () => {
  it('lists packages, groups and rules found by the API\'s search parameters', async () => {
    const z = 'legacy-cli-search';
    const CF = 'a25a9a7e9c00afc1fb2e0245519d725b';
    const ids = (r: { stdout: string }) => (JSON.parse(r.stdout) as { id: string }[]).map((x) => x.id);
    expect(ids(await logfilter(['waf-legacy', 'packages', '--zone', z, '--name', 'core', '--json'], env))).toEqual(['1e334934fd7ae32ad705667f8c1057aa']);
    expect(ids(await logfilter(['waf-legacy', 'groups', '--package', CF, '--zone', z, '--mode', 'off', '--json'], env))).toEqual(['a8f7ae6ff15afb0c1c6ac2bff25ad9e4']);
    expect((await logfilter(['waf-legacy', 'rule-mode', '100173', 'block', '--package', CF, '--zone', z], env)).code).toBe(0);
    expect(ids(await logfilter(['waf-legacy', 'rules', '--package', CF, '--zone', z, '--overridden', 'block', '--json'], env))).toEqual(['100173']);
    expect(ids(await logfilter(['waf-legacy', 'rules', '--package', CF, '--zone', z, '--group', 'a8f7ae6ff15afb0c1c6ac2bff25ad9e4', '--description', 'host', '--match', 'any', '--json'], env))).toEqual(['100016', 'WP0025']);
    // A value outside the flag's set is a usage error: nothing is sent.
    const bad = await logfilter(['waf-legacy', 'rules', '--package', CF, '--zone', z, '--overridden', 'sideways'], env);
    expect(bad.code).toBe(2);
  });

  it('shows and changes packages, groups and rules, and creates overrides from a file', async () => {
    const z = 'legacy-cli';
    const pkgs = await logfilter(['waf-legacy', 'packages', '--zone', z], env);
    expect(pkgs.stdout).toMatch(/^1e334934fd7ae32ad705667f8c1057aa +OWASP ModSecurity Core Rule Set +anomaly +medium +challenge$/m);
    const sens = await logfilter(['waf-legacy', 'package', '1e334934fd7ae32ad705667f8c1057aa', '--zone', z, '--sensitivity', 'high', '--json'], env);
    expect(JSON.parse(sens.stdout)).toMatchObject({ sensitivity: 'high' });
    const bad = await logfilter(['waf-legacy', 'package', '1e334934fd7ae32ad705667f8c1057aa', '--zone', z, '--sensitivity', 'extreme'], env);
    expect([bad.code, bad.stderr.includes(String(ERROR_CODES.wafInvalid))]).toEqual([1, true]);
    const CF = 'a25a9a7e9c00afc1fb2e0245519d725b';
    expect((await logfilter(['waf-legacy', 'group-mode', 'de677e5818985db1285d0e80225f06e5', 'off', '--package', CF, '--zone', z], env)).code).toBe(0);
    expect((await logfilter(['waf-legacy', 'rule-mode', '100015', 'simulate', '--package', CF, '--zone', z], env)).code).toBe(0);
    const rules = await logfilter(['waf-legacy', 'rules', '--package', CF, '--zone', z], env);
    expect(rules.stdout).toMatch(/^100015 +Cloudflare Specials +simulate +block/m);
    const created = await logfilter(['waf-legacy', 'overrides', 'create', '--zone', z, '--file', file('override.yaml', 'urls:\n  - example.com/blog*\nrules:\n  "100015": disable\n'), '--json'], env);
    expect(JSON.parse(created.stdout)).toMatchObject({ urls: ['example.com/blog*'], rules: { '100015': 'disable' } });
    expect((await logfilter(['waf-migration', 'check', '--zone', z], env)).code).toBe(1);
  });
});
