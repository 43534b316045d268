import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, ERROR_CODES, CORE_RULESET_ID, type RunningEmulator } from '@logfilter/emulator';
import { LogfilterClient } from '@logfilter/api';
import { file, logfilter } from './api-harness.js';

const TOKEN = 'rulesets-cli-token';
let emu: RunningEmulator;
let env: Record<string, string>;
let api: LogfilterClient;
let n = 0;

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN] });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
  api = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {} });
});
afterAll(() => emu.close());

const RULES_YAML = `# two rules, YAML
rules:
  - action: block
    expression: ip.src eq 192.0.2.1
    description: bad host
  - action: log
    expression: http.host eq "example.com"
    description: watch
`;

describe.each([
  ['--zone', (id: string) => ({ zone: id })],
  ['--account', (id: string) => ({ account: id })],
] as const)('logfilter rulesets %s', (flag, scopeOf) => {
  it('creates from a file, lists, gets, updates, versions, deletes', async () => {
    const id = `cli-rs-${++n}`;
    const scope = scopeOf(id);
    const created = await logfilter(['rulesets', 'create', flag, id, '--name', 'mine', '--kind', 'custom', '--phase', 'http_request_firewall_custom', '--file', file(`r${n}.yaml`, RULES_YAML), '--json'], env);
    expect(created.code).toBe(0);
    const rs = JSON.parse(created.stdout);
    expect(rs).toMatchObject({ name: 'mine', kind: 'custom', version: '1' });
    expect(rs.rules.map((r: any) => r.action)).toEqual(['block', 'log']);

    const list = await logfilter(['rulesets', 'list', flag, id], env);
    expect([list.code, list.stdout.split('\n')[0].split(/\s+/)]).toEqual([0, ['ID', 'NAME', 'KIND', 'PHASE', 'VERSION', 'LAST', 'UPDATED']]);
    expect(list.stdout).toContain(rs.id);
    // The scope's own rulesets, then the managed ones it can execute (as the provider lists them).
    const listed = JSON.parse((await logfilter(['rulesets', 'list', flag, id, '--json'], env)).stdout);
    expect(listed.filter((r: any) => r.kind !== 'managed').map((r: any) => r.id)).toEqual([rs.id]);
    expect(listed.filter((r: any) => r.kind === 'managed')).toHaveLength(2);

    const get = await logfilter(['rulesets', 'get', rs.id, flag, id], env);
    expect(get.stdout).toMatch(/^id: +[0-9a-f]{32}$/m);
    expect(get.stdout).toContain('bad host');

    const updated = await logfilter(['rulesets', 'update', rs.id, flag, id, '--file', file(`u${n}.json`, JSON.stringify([{ action: 'log', expression: 'true' }])), '--json', '--yes'], env);
    expect(JSON.parse(updated.stdout)).toMatchObject({ version: '2', rules: [{ action: 'log' }] });
    const old = await logfilter(['rulesets', 'version', rs.id, '1', flag, id, '--json'], env);
    expect(JSON.parse(old.stdout).rules).toHaveLength(2);
    expect(JSON.parse((await logfilter(['rulesets', 'versions', rs.id, flag, id, '--json'], env)).stdout).map((v: any) => v.version)).toEqual(['2', '1']);
    expect((await logfilter(['rulesets', 'delete-version', rs.id, '1', flag, id, '--yes'], env)).code).toBe(0);
    const latest = await logfilter(['rulesets', 'delete-version', rs.id, '2', flag, id, '--yes'], env);
    expect(latest.code).toBe(1);
    expect(latest.stderr).toContain(String(ERROR_CODES.latestVersion));
    expect((await logfilter(['rulesets', 'delete', rs.id, flag, id, '--yes'], env)).code).toBe(0);
    await expect(api.getRuleset(scope, rs.id)).rejects.toMatchObject({ code: ERROR_CODES.rulesetNotFound });
  });

  it('adds, updates, moves and deletes rules', async () => {
    const id = `cli-rules-${++n}`;
    const scope = scopeOf(id);
    const rs = await api.createRuleset(scope, { name: 'r', kind: 'custom', phase: 'http_request_firewall_custom', rules: [{ action: 'log', expression: 'true', description: 'a' }] });
    const add = await logfilter(['rulesets', 'rules', 'add', rs.id, flag, id, '--action', 'block', '--expression', 'ip.src eq 192.0.2.1', '--description', 'b', '--before', '', '--json'], env);
    expect(add.code).toBe(0);
    const added = JSON.parse(add.stdout);
    expect(added.rules.map((r: any) => r.description)).toEqual(['b', 'a']);
    const bId = added.rules[0].id;
    const moved = await logfilter(['rulesets', 'rules', 'move', rs.id, bId, flag, id, '--index', '2', '--json'], env);
    expect(JSON.parse(moved.stdout).rules.map((r: any) => r.description)).toEqual(['a', 'b']);
    const upd = await logfilter(['rulesets', 'rules', 'update', rs.id, bId, flag, id, '--disabled', '--json'], env);
    expect(JSON.parse(upd.stdout).rules[1]).toMatchObject({ id: bId, enabled: false });
    const fromFile = await logfilter(['rulesets', 'rules', 'add', rs.id, flag, id, '--file', file(`one${n}.yaml`, 'action: skip\nexpression: "true"\naction_parameters:\n  ruleset: current\nlogging:\n  enabled: false\n'), '--json'], env);
    expect(JSON.parse(fromFile.stdout).rules[2]).toMatchObject({ action: 'skip', logging: { enabled: false } });
    const del = await logfilter(['rulesets', 'rules', 'delete', rs.id, bId, flag, id, '--json', '--yes'], env);
    expect(JSON.parse(del.stdout).rules.map((r: any) => r.description)).toEqual(['a', '']);
    expect((await api.getRuleset(scope, rs.id)).version).toBe('6');
  });

  it('puts and reads the phase entry point and its versions', async () => {
    const id = `cli-entry-${++n}`;
    const rules = file(`e${n}.json`, JSON.stringify({ rules: [{ action: 'block', expression: 'true' }] }));
    const put = await logfilter(['rulesets', 'entrypoint', 'put', '--phase', 'http_request_firewall_custom', flag, id, '--file', rules, '--json'], env);
    expect(JSON.parse(put.stdout)).toMatchObject({ kind: flag === '--zone' ? 'zone' : 'root', version: '1' });
    await logfilter(['rulesets', 'entrypoint', 'put', '--phase', 'http_request_firewall_custom', flag, id, '--file', rules], env);
    const get = await logfilter(['rulesets', 'entrypoint', 'get', '--phase', 'http_request_firewall_custom', flag, id, '--json'], env);
    expect(JSON.parse(get.stdout).version).toBe('2');
    const v1 = await logfilter(['rulesets', 'entrypoint', 'version', '1', '--phase', 'http_request_firewall_custom', flag, id, '--json'], env);
    expect(JSON.parse(v1.stdout).version).toBe('1');
    expect(JSON.parse((await logfilter(['rulesets', 'entrypoint', 'versions', '--phase', 'http_request_firewall_custom', flag, id, '--json'], env)).stdout).map((v: any) => v.version)).toEqual(['2', '1']);
    const none = await logfilter(['rulesets', 'entrypoint', 'get', '--phase', 'http_ratelimit', flag, id], env);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('10003');
    // the advice is ready to paste: the phase and the scope as the command line gave them
    expect(none.stderr).toContain(`entrypoint put --phase http_ratelimit`);
    expect(none.stderr).not.toContain('<phase>');
  });
});

describe('logfilter rulesets: usage and input errors', () => {
  it('needs exactly one of --zone and --account (exit 2)', async () => {
    expect((await logfilter(['rulesets', 'list'], env)).code).toBe(2);
    expect((await logfilter(['rulesets', 'list', '--zone', 'a', '--account', 'b'], env)).code).toBe(2);
  });

  it('names the file and the place of a bad rules file, and sends nothing', async () => {
    const before = emu.requestCount;
    const cases: [string, string, string][] = [
      ['bad.json', '{"rules": [', 'bad.json:1:'],
      ['bad.yaml', 'rules:\n  - action: block\n   expression: x\n', 'bad.yaml:'],
      ['shape.yaml', 'rules:\n  - action: block\n', 'rules[0].expression'],
      ['type.json', '[{"action": "log", "expression": "true", "enabled": "yes"}]', '[0].enabled'],
      ['scalar.json', '42', 'expected a list of rules'],
      ['empty.json', '', 'empty'],
      // A "billion laughs" alias bomb: refused as the file's problem (exit 2), not an internal error.
      ['bomb.yaml', ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefg'[i]}`).join(', ')}]`), 'rules: [*g]'].join('\n'), 'bomb.yaml:'],
    ];
    for (const [name, text, mention] of cases) {
      const r = await logfilter(['rulesets', 'update', 'x', '--zone', 'z', '--file', file(name, text)], env);
      expect([name, r.code]).toEqual([name, 2]);
      expect(r.stderr).toContain(mention);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const missing = await logfilter(['rulesets', 'update', 'x', '--zone', 'z', '--file', 'no-such-file.json'], env);
    expect(missing.code).toBe(2);
    expect(emu.requestCount).toBe(before);
  });

  it('refuses a rule action or a phase outside the API tables where the file has it, exit 2, nothing sent (as --action, --phase)', async () => {
    const before = emu.requestCount;
    const action = file('action.yaml', 'rules:\n  - action: log\n    expression: "true"\n  - action: blok\n    expression: "true"\n');
    const phase = file('phase.json', '{"name": "n", "kind": "zone", "phase": "http_request_firewall_custm", "rules": [{"action": "log", "expression": "true"}]}');
    const runs: [string[], string][] = [
      [['rulesets', 'create', '--zone', 'z', '--name', 'n', '--kind', 'zone', '--phase', 'http_request_firewall_custom', '--file', action], `${action}:4:13: error rule-unknown-action`],
      [['rulesets', 'update', 'x', '--zone', 'z', '--yes', '--file', action], `${action}:4:13: error rule-unknown-action`],
      [['rulesets', 'entrypoint', 'put', '--zone', 'z', '--phase', 'http_request_firewall_custom', '--yes', '--file', action], `${action}:4:13: error rule-unknown-action`],
      [['rulesets', 'create', '--zone', 'z', '--file', phase], `${phase}:1:40: error rule-unknown-phase`],
      // a file of one rule (rules add|update) is a rule too, not a policy whose actions differ
      [['rulesets', 'rules', 'add', 'x', '--zone', 'z', '--file', file('one-action.yaml', 'action: blok\nexpression: "true"\n')], 'one-action.yaml:1:9: error rule-unknown-action'],
      [['rulesets', 'rules', 'update', 'x', 'y', '--zone', 'z', '--file', file('one-action.json', '{"action": "blok"}')], 'one-action.json:1:12: error rule-unknown-action'],
    ];
    for (const [args, where] of runs) {
      const r = await logfilter(args, env);
      expect([args.slice(0, 3), r.code]).toEqual([args.slice(0, 3), 2]);
      expect(r.stderr).toContain(where);
    }
    expect(emu.requestCount).toBe(before);
  });

  it('takes a rule file with only some fields: what update changes, or what the flags add', async () => {
    const z = `cli-rs-partial-${++n}`;
    const rs = await api.createRuleset(z, { name: 'r', kind: 'custom', phase: 'http_request_firewall_custom', rules: [{ action: 'log', expression: 'true', description: 'a' }] });
    const ruleId = rs.rules[0].id;
    const upd = await logfilter(['rulesets', 'rules', 'update', rs.id, ruleId, '--zone', z, '--file', file(`partial${n}.yaml`, 'enabled: false\n'), '--json'], env);
    expect(upd.code).toBe(0);
    expect(JSON.parse(upd.stdout).rules[0]).toMatchObject({ id: ruleId, action: 'log', expression: 'true', description: 'a', enabled: false });
    const add = await logfilter(['rulesets', 'rules', 'add', rs.id, '--zone', z, '--action', 'block', '--file', file(`partial${n}.json`, '{"expression": "ip.src eq 192.0.2.1", "description": "b"}'), '--json'], env);
    expect(add.code).toBe(0);
    expect(JSON.parse(add.stdout).rules[1]).toMatchObject({ action: 'block', description: 'b' });
    // present fields keep their types; a rule added still needs both
    expect((await logfilter(['rulesets', 'rules', 'update', rs.id, ruleId, '--zone', z, '--file', file(`typed${n}.json`, '{"action": 5}')], env)).code).toBe(2);
    expect((await logfilter(['rulesets', 'rules', 'add', rs.id, '--zone', z, '--file', file(`half${n}.json`, '{"action": "log"}')], env)).code).toBe(2);
    // a whole ruleset is not one rule, even for update
    const whole = file(`whole${n}.json`, JSON.stringify(await api.getRuleset(z, rs.id)));
    expect((await logfilter(['rulesets', 'rules', 'update', rs.id, ruleId, '--zone', z, '--file', whole], env)).code).toBe(2);
    expect((await api.getRuleset(z, rs.id)).version).toBe('3');
  });

  it('refuses an id the client cannot send ("", ".", ".."), dry run included: exit 2, nothing sent or printed', async () => {
    const before = emu.requestCount;
    for (const args of [
      ['rulesets', 'delete', '..', '--zone', 'z', '--dry-run'],
      ['rulesets', 'delete-version', 'x', '.', '--zone', 'z', '--dry-run'],
      ['rulesets', 'rules', 'delete', 'x', '..', '--zone', 'z', '--dry-run'],
      ['rulesets', 'rules', 'move', '..', 'y', '--zone', 'z', '--index', '1', '--dry-run'],
      ['rulesets', 'get', '', '--zone', 'z'],
      ['waf-legacy', 'overrides', 'delete', '..', '--zone', 'z', '--dry-run'],
    ]) {
      const r = await logfilter(args, env);
      expect([args, r.code, r.stdout]).toEqual([args, 2, '']);
    }
    expect(emu.requestCount).toBe(before);
  });

  it('checks expressions in the phase --phase gives, which wins over the file\'s (it is the one sent)', async () => {
    const before = emu.requestCount;
    const response = file('phase-wins.yaml', 'phase: http_request_firewall_custom\nrules:\n  - action: log\n    expression: http.response.code eq 404\n');
    const args = (phase: string) => [
      [...['rulesets', 'create', '--zone', 'z', '--name', 'n', '--kind', 'zone', '--phase', phase], '--file', response, '--dry-run'],
      [...['rulesets', 'entrypoint', 'put', '--zone', 'z', '--phase', phase], '--file', response, '--dry-run'],
    ];
    for (const argv of args('http_response_headers_transform')) expect([argv[1], (await logfilter(argv, env)).code]).toEqual([argv[1], 0]);
    const bogus = file('phase-bogus.yaml', 'phase: http_request_firewall_custm\nrules:\n  - action: log\n    expression: "true"\n');
    expect((await logfilter(['rulesets', 'create', '--zone', 'z', '--name', 'n', '--kind', 'zone', '--phase', 'http_request_firewall_custom', '--file', bogus, '--dry-run'], env)).code).toBe(0);
    const request = file('phase-loses.yaml', 'phase: http_response_headers_transform\nrules:\n  - action: log\n    expression: http.response.code eq 404\n');
    for (const argv of args('http_request_firewall_custom')) {
      const r = await logfilter(argv.map((a) => (a === response ? request : a)), env);
      expect([argv[1], r.code]).toEqual([argv[1], 1]);
      expect(r.stderr).toContain('rule-unavailable-in-phase');
    }
    expect(emu.requestCount).toBe(before);
  });

  it('refuses two positions, and a move without one (exit 2)', async () => {
    expect((await logfilter(['rulesets', 'rules', 'add', 'x', '--zone', 'z', '--action', 'log', '--expression', 'true', '--index', '1', '--after', 'a'], env)).code).toBe(2);
    expect((await logfilter(['rulesets', 'rules', 'move', 'x', 'y', '--zone', 'z'], env)).code).toBe(2);
    expect((await logfilter(['rulesets', 'rules', 'add', 'x', '--zone', 'z', '--action', 'log'], env)).code).toBe(2);
  });

  it('reports an API refusal with its code (exit 1) and prints the request on --dry-run', async () => {
    const z = `cli-rs-err-${++n}`;
    const body = ['--name', 'e', '--kind', 'zone', '--phase', 'http_request_firewall_custom'];
    expect((await logfilter(['rulesets', 'create', '--zone', z, ...body], env)).code).toBe(0);
    const again = await logfilter(['rulesets', 'create', '--zone', z, ...body], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('20217');
    const dry = await logfilter(['rulesets', 'create', '--zone', z, ...body, '--dry-run'], env);
    expect(JSON.parse(dry.stdout)).toEqual({
      method: 'POST',
      url: `${emu.url}/zones/${z}/rulesets`,
      headers: { Authorization: 'Bearer <redacted>', 'Content-Type': 'application/json' },
      body: { name: 'e', kind: 'zone', phase: 'http_request_firewall_custom' },
    });
    expect(dry.stdout).not.toContain(TOKEN);
  });

  it('takes back what get --json printed: an edited ruleset round-trips, rules keep their ids', async () => {
    const z = `cli-rs-round-${++n}`;
    const rs = await api.createRuleset(z, { name: 'r', kind: 'custom', phase: 'http_request_firewall_custom', rules: [{ action: 'log', expression: 'true' }, { action: 'block', expression: 'ip.src eq 192.0.2.1' }] });
    const printed = JSON.parse((await logfilter(['rulesets', 'get', rs.id, '--zone', z, '--json'], env)).stdout);
    printed.rules[1].description = 'edited';
    const r = await logfilter(['rulesets', 'update', rs.id, '--zone', z, '--file', file(`round${n}.json`, JSON.stringify(printed)), '--json'], env);
    expect(r.code).toBe(0);
    const after = JSON.parse(r.stdout);
    expect(after.version).toBe('2');
    expect(after.rules.map((x: any) => x.id)).toEqual(rs.rules.map((x) => x.id));
    expect(after.rules.map((x: any) => x.version)).toEqual(['1', '2']);
  });

  it('update refuses (exit 3) when the ruleset moved since the version edited, and --force overrides', async () => {
    const z = `cli-rs-conflict-${++n}`;
    const rs = await api.createRuleset(z, { name: 'r', kind: 'custom', phase: 'http_request_firewall_custom', rules: [{ action: 'log', expression: 'true', description: 'mine' }] });
    const printed = JSON.parse((await logfilter(['rulesets', 'get', rs.id, '--zone', z, '--json'], env)).stdout);
    printed.rules[0].description = 'edited';
    const edited = file(`conflict${n}.json`, JSON.stringify(printed));
    // Another writer's change lands in between.
    await api.addRule(z, rs.id, { action: 'block', expression: 'ip.src eq 192.0.2.9', description: 'theirs' });
    const refused = await logfilter(['rulesets', 'update', rs.id, '--zone', z, '--file', edited], env);
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    const kept = await api.getRuleset(z, rs.id);
    expect([kept.version, kept.rules.map((r) => r.description)]).toEqual(['2', ['mine', 'theirs']]);
    // --expect-version names the base when the file does not; a stale one is refused the same way.
    const rulesOnly = file(`conflict-rules${n}.json`, JSON.stringify([{ action: 'log', expression: 'true' }]));
    expect((await logfilter(['rulesets', 'update', rs.id, '--zone', z, '--file', rulesOnly, '--expect-version', '1'], env)).code).toBe(3);
    expect((await logfilter(['rulesets', 'update', rs.id, '--zone', z, '--file', rulesOnly, '--expect-version', 'x'], env)).code).toBe(2);
    expect((await api.getRuleset(z, rs.id)).version).toBe('2');
    const forced = await logfilter(['rulesets', 'update', rs.id, '--zone', z, '--file', edited, '--force', '--yes', '--json'], env);
    expect([forced.code, JSON.parse(forced.stdout).version, JSON.parse(forced.stdout).rules.map((r: any) => r.description)]).toEqual([0, '3', ['edited']]);
    const current = await logfilter(['rulesets', 'update', rs.id, '--zone', z, '--file', rulesOnly, '--expect-version', '3', '--json'], env);
    expect([current.code, JSON.parse(current.stdout).version]).toEqual([0, '4']);
  });

  it('two clients adding rules at the same time both land', async () => {
    const z = `cli-rs-race-${++n}`;
    const rs = await api.createRuleset({ account: z }, { name: 'r', kind: 'custom', phase: 'http_request_firewall_custom' });
    const [a, b] = await Promise.all(['a', 'b'].map((d) => logfilter(['rulesets', 'rules', 'add', rs.id, '--account', z, '--action', 'log', '--expression', 'true', '--description', d], env)));
    expect([a.code, b.code]).toEqual([0, 0]);
    expect((await api.getRuleset({ account: z }, rs.id)).rules.map((r) => r.description).sort()).toEqual(['a', 'b']);
  });

  it('shows a managed ruleset version by tag', async () => {
    const r = await logfilter(['rulesets', 'version', CORE_RULESET_ID, '1', '--tag', 'paranoia-level-3', '--zone', 'z', '--json'], env);
    const rs = JSON.parse(r.stdout);
    expect(rs.rules.length).toBeGreaterThan(0);
    expect(rs.rules.every((x: any) => x.categories.includes('paranoia-level-3'))).toBe(true);
  });
});
