/**
 * One style across the command groups: exit codes, advice keyed by the API's error code, one
 * spelling of the enable switch, one usage-error format, --json failures on stdout, did-you-mean for closed
 * sets, confirmation of destructive operations, YAML error places, and small output defects. Real HTTP against
 * the emulator on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { Readable } from 'node:stream';
import { startEmulator, ERROR_CODES, type RunningEmulator } from '@logfilter/emulator';
import { LogfilterClient } from '@logfilter/api';
import { file, logfilter, workdir } from './api-harness.js';
import { run } from '../src/main.js';
import type { CliContext } from '../src/context.js';
import { HINTS_BY_CODE, hintFor } from '../src/api/hints.js';
import { nearest } from '../src/did-you-mean.js';

const TOKEN = 'ux-token';
let emu: RunningEmulator;
let env: Record<string, string>;
let api: LogfilterClient;
let zn = 0;
const zone = () => `ux-${++zn}`;
// https: no ownership challenge to answer (the s3 flow has its own test)
const DEST = 'https://logs.example.com/in';

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], fixture: { zones: { pro: { plan: 'pro' } } } });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
  api = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {} });
});
afterAll(() => emu.close());

/** `logfilter` with stdin a terminal holding `answer`. */
async function onTerminal(argv: string[], answer: string) {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    stdout: { write: (s: string | Uint8Array) => ((stdout += String(s)), true) },
    stderr: { write: (s: string | Uint8Array) => ((stderr += String(s)), true) },
    stdin: Object.assign(Readable.from([answer]), { isTTY: true }),
    env,
    cwd: workdir,
  };
  return { code: await run('logfilter', argv, ctx), stdout, stderr };
}

const RULES = [
  { action: 'block', expression: 'ip.src eq 192.0.2.1', description: 'a' },
  { action: 'log', expression: 'http.host eq "example.com"', description: 'b' },
];

async function ruleset(z: string) {
  return api.createRuleset({ zone: z }, { name: 'ux', kind: 'custom', phase: 'http_request_firewall_custom', rules: RULES });
}

describe('exit codes: 0 done, 1 the API or a check refused, 2 usage, set-up or input error', () => {
  it('missing credentials or a base URL that is no URL: 2, nothing sent', async () => {
    const before = emu.requestCount;
    expect((await logfilter(['jobs', 'list', '--zone', 'z'], { LOGFILTER_BASE_URL: emu.url })).code).toBe(2);
    // (no base URL at all now means the provider's: it is not tried here, this machine has no network)
    expect((await logfilter(['rulesets', 'list', '--zone', 'z'], { LOGFILTER_BASE_URL: 'not a url', LOGFILTER_API_TOKEN: TOKEN })).code).toBe(2);
    expect(emu.requestCount).toBe(before);
  });

  it('a filter whose dataset line disagrees with --dataset: 2, nothing sent', async () => {
    const before = emu.requestCount;
    const fw = file('fw.logfilter', 'dataset firewall_events\nClientCountry == "us"\n');
    const r = await logfilter(['jobs', 'create', '--zone', zone(), '--filter', fw, '--dataset', 'http_requests', '--destination', DEST], env);
    expect(r.code).toBe(2);
    expect(emu.requestCount).toBe(before);
  });

  it('jobs update --filter without --dataset names the job\'s dataset, not a --dataset never given (exit 2)', async () => {
    const z = zone();
    const job = await api.createJob(z, { destination_conf: DEST, dataset: 'http_requests' });
    const fw = file('fw2.logfilter', 'dataset firewall_events\nClientCountry == "us"\n');
    const r = await logfilter(['jobs', 'update', String(job.id), '--zone', z, '--filter', fw], env);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('--dataset');
    expect(r.stderr).toContain(`job ${job.id}`);
  });

  it('an unknown phase is refused locally in rulesets create and entrypoint, as rules check refuses it', async () => {
    const before = emu.requestCount;
    const create = await logfilter(['rulesets', 'create', '--zone', 'z', '--name', 'n', '--kind', 'custom', '--phase', 'http_request_firewall_custon'], env);
    expect(create.code).toBe(2);
    expect(create.stderr).toContain('http_request_firewall_custom');
    const entry = await logfilter(['rulesets', 'entrypoint', 'get', '--zone', 'z', '--phase', 'nope'], env);
    expect(entry.code).toBe(2);
    expect(emu.requestCount).toBe(before);
  });

  it('an API refusal is 1', async () => {
    expect((await logfilter(['jobs', 'get', '999', '--zone', zone()], env)).code).toBe(1);
  });
});

describe('advice keyed by the API error code', () => {
  it('the table gives advice by code; status alone only for 401, 429 and 5xx', () => {
    expect(hintFor(20402, 403)).toBe(HINTS_BY_CODE[20402]);
    expect(hintFor(20410, 403)).not.toBe(hintFor(10001, 403));
    expect(hintFor(ERROR_CODES.validation, 400)).toBe('');
    expect(hintFor(99999, 404)).toBe('');
    expect(hintFor(99999, 409)).toBe('');
    expect(hintFor(99999, 503)).not.toBe('');
    expect(hintFor(1004, 404, 'shop')).not.toContain('<zone>');
  });

  it('validation on a Pro zone (20402) and a second finish (20403) get their own advice, not the credentials\' or a retry', async () => {
    const start = await logfilter(['waf-migration', 'start', '--zone', 'pro', '--validation'], env);
    expect(start.code).toBe(1);
    expect(start.stderr).toContain(String(ERROR_CODES.validationEnterpriseOnly));
    expect(start.stderr).toContain(HINTS_BY_CODE[ERROR_CODES.validationEnterpriseOnly].replaceAll('<zone>', 'pro'));
    expect(start.stderr).not.toContain(HINTS_BY_CODE[ERROR_CODES.invalidCredentials]);
    expect((await logfilter(['waf-migration', 'finish', '--zone', 'pro', '--yes'], env)).code).toBe(0);
    const again = await logfilter(['waf-migration', 'finish', '--zone', 'pro', '--yes'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(HINTS_BY_CODE[ERROR_CODES.alreadyMigrated].replace('<zone>', 'pro'));
    const legacy = await logfilter(['waf-legacy', 'packages', '--zone', 'pro'], env);
    expect(legacy.code).toBe(1);
    expect(legacy.stderr).toContain(HINTS_BY_CODE[ERROR_CODES.wafMigrated].replaceAll('<zone>', 'pro'));
  });

  it('a missing job names the command that lists the zone\'s jobs, with the zone filled in', async () => {
    const z = zone();
    const r = await logfilter(['jobs', 'get', '999', '--zone', z], env);
    expect(r.stderr).toContain(HINTS_BY_CODE[ERROR_CODES.jobNotFound].replace('<zone>', z));
  });

  it('a validation error (the message names the field) gets no advice', async () => {
    const r = await logfilter(['jobs', 'create', '--zone', zone(), '--destination', 'not a url'], env);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    for (const hint of Object.values(HINTS_BY_CODE)) expect(r.stderr).not.toContain(hint);
    expect(r.stderr).not.toContain('fix the request');
  });
});

describe('one style: the enable switch, usage errors, --json failures', () => {
  it('rulesets rules update takes --disable (and --disabled as a hidden alias)', async () => {
    const z = zone();
    const rs = await ruleset(z);
    const [a, b] = rs.rules;
    expect((await logfilter(['rulesets', 'rules', 'update', rs.id, a.id, '--zone', z, '--disable'], env)).code).toBe(0);
    expect((await logfilter(['rulesets', 'rules', 'update', rs.id, b.id, '--zone', z, '--disabled'], env)).code).toBe(0);
    const now = await api.getRuleset({ zone: z }, rs.id);
    expect(now.rules.map((r) => r.enabled)).toEqual([false, false]);
    expect((await logfilter(['rulesets', 'rules', 'update', rs.id, a.id, '--zone', z, '--enable'], env)).code).toBe(0);
    expect((await api.getRuleset({ zone: z }, rs.id)).rules[0].enabled).toBe(true);
    const help = await logfilter(['rulesets', 'rules', 'update', '--help'], env);
    expect(help.stdout).toContain('--disable ');
    expect(help.stdout).not.toContain('--disabled');
  });

  it('jobs update takes --disabled as a hidden alias of --disable; both together is a usage error', async () => {
    const z = zone();
    const job = await api.createJob(z, { destination_conf: DEST, dataset: 'http_requests' });
    expect((await logfilter(['jobs', 'update', String(job.id), '--zone', z, '--disabled'], env)).code).toBe(0);
    expect((await api.getJob(z, String(job.id))).enabled).toBe(false);
    expect((await logfilter(['jobs', 'update', String(job.id), '--zone', z, '--enabled', '--disable'], env)).code).toBe(2);
  });

  it('commander\'s usage errors and the commands\' own are one line each, in one format', async () => {
    const unknown = await logfilter(['jobs', 'list', '--zone', 'z', '--nope'], env);
    const ours = await logfilter(['jobs', 'get', '--zone', 'z'], env);
    for (const r of [unknown, ours]) {
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^logfilter: .*\(run with --help for usage\)\n$/);
    }
  });

  it('with --json, every failure is also a JSON object on stdout: usage, set-up and API errors', async () => {
    const usage = await logfilter(['jobs', 'get', '--zone', 'z', '--json'], env);
    expect([usage.code, JSON.parse(usage.stdout)]).toEqual([2, expect.objectContaining({ ok: false, exit: 2, kind: 'usage' })]);
    const flag = await logfilter(['jobs', 'list', '--zone', 'z', '--json', '--nope'], env);
    expect([flag.code, JSON.parse(flag.stdout)]).toEqual([2, expect.objectContaining({ ok: false, exit: 2, kind: 'usage' })]);
    const setup = await logfilter(['rulesets', 'list', '--zone', 'z', '--json'], { LOGFILTER_BASE_URL: emu.url });
    expect([setup.code, JSON.parse(setup.stdout)]).toEqual([2, expect.objectContaining({ ok: false, exit: 2, kind: 'setup' })]);
    const z = zone();
    const refused = await logfilter(['jobs', 'get', '999', '--zone', z, '--json'], env);
    expect([refused.code, JSON.parse(refused.stdout)]).toEqual([1, expect.objectContaining({ ok: false, exit: 1, kind: 'failure', api_code: ERROR_CODES.jobNotFound, status: 404 })]);
  });
});

describe('did-you-mean for closed sets', () => {
  it('nearest names', () => {
    expect(nearest('activ', ['active', 'infrequent', 'inactive'])).toContain('active');
    expect(nearest('zzzzzz', ['active', 'infrequent'])).toEqual([]);
  });

  it('jobs --fields, page-guard --status, --kind choices, subcommands, phases', async () => {
    const cases: [string[], string][] = [
      [['jobs', 'create', '--zone', 'z', '--destination', DEST, '--fields', 'ClientIP,ClientRequestHst', '--dry-run'], 'ClientRequestHost'],
      [['page-guard', 'scripts', '--zone', 'z', '--status', 'activ'], 'active'],
      [['page-guard', 'policy', 'check', '--zone', 'z', '--value', "script-src 'self'", '--status', 'infrequnt'], 'did you mean infrequent'],
      [['rulesets', 'create', '--zone', 'z', '--name', 'n', '--phase', 'http_request_firewall_custom', '--kind', 'cusom'], 'custom'],
      [['jobs', 'lst', '--zone', 'z'], 'list'],
      [['rulesets', 'entrypoint', 'get', '--zone', 'z', '--phase', 'http_ratelimt'], 'http_ratelimit'],
      [['rules', 'check', '--phase', 'http_request_firewall_custon', '-'], 'did you mean http_request_firewall_custom'],
      [['rulesets', 'rules', 'add', 'r1', '--zone', 'z', '--action', 'blok', '--expression', 'ssl'], 'did you mean block'],
      [['rulesets', 'rules', 'update', 'r1', 'x1', '--zone', 'z', '--action', 'managed_chalenge'], 'did you mean managed_challenge'],
    ];
    for (const [argv, want] of cases) {
      const r = await logfilter(argv, env);
      expect([argv.join(' '), r.code]).toEqual([argv.join(' '), 2]);
      expect(r.stderr).toContain(want);
    }
  });

  it('--action takes each of the API\'s actions (checked before anything is sent)', async () => {
    const before = emu.requestCount;
    expect((await logfilter(['rulesets', 'rules', 'add', 'r1', '--zone', 'z', '--action', 'allow', '--expression', 'ssl'], env)).code).toBe(2);
    expect(emu.requestCount).toBe(before);
    const z = zone();
    const rs = await ruleset(z);
    for (const action of ['block', 'managed_challenge', 'js_challenge', 'log']) {
      expect((await logfilter(['rulesets', 'rules', 'add', rs.id, '--zone', z, '--action', action, '--expression', 'ssl'], env)).code, action).toBe(0);
    }
  });
});

describe('destructive operations ask on a terminal, need --yes otherwise, and show what --dry-run would send', () => {
  it('deletes without --yes off a terminal: exit 2, nothing sent', async () => {
    const z = zone();
    const rs = await ruleset(z);
    const job = await api.createJob(z, { destination_conf: DEST, dataset: 'http_requests' });
    const before = emu.requestCount;
    for (const argv of [
      ['jobs', 'delete', String(job.id)],
      ['rulesets', 'delete', rs.id],
      ['rulesets', 'delete-version', rs.id, '1'],
      ['rulesets', 'rules', 'delete', rs.id, rs.rules[0].id],
      ['page-guard', 'policies', 'delete', 'p1'],
      ['waf-legacy', 'overrides', 'delete', 'o1'],
    ]) {
      const r = await logfilter([...argv, '--zone', z], env);
      expect([argv.join(' '), r.code]).toEqual([argv.join(' '), 2]);
    }
    expect(emu.requestCount).toBe(before);
    const dry = await logfilter(['rulesets', 'delete', rs.id, '--zone', z, '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ method: 'DELETE' });
    expect(emu.requestCount).toBe(before);
  });

  it('on a terminal: "no" sends nothing (exit 1), "yes" deletes', async () => {
    const z = zone();
    const job = await api.createJob(z, { destination_conf: DEST, dataset: 'http_requests' });
    const no = await onTerminal(['jobs', 'delete', String(job.id), '--zone', z], 'no\n');
    expect(no.code).toBe(1);
    expect((await api.listAllJobs(z)).map((j) => j.id)).toEqual([job.id]);
    const yes = await onTerminal(['jobs', 'delete', String(job.id), '--zone', z], 'yes\n');
    expect(yes.code).toBe(0);
    expect(await api.listAllJobs(z)).toEqual([]);
  });

  it('rulesets update with fewer rules than the ruleset has needs --yes; an empty list no longer wipes it silently', async () => {
    const z = zone();
    const rs = await ruleset(z);
    const empty = await logfilter(['rulesets', 'update', rs.id, '--zone', z, '--file', file('empty.json', '[]')], env);
    expect(empty.code).toBe(2);
    expect((await api.getRuleset({ zone: z }, rs.id)).rules).toHaveLength(2);
    const same = await logfilter(['rulesets', 'update', rs.id, '--zone', z, '--file', file('same.json', JSON.stringify(RULES))], env);
    expect(same.code).toBe(0);
    const yes = await logfilter(['rulesets', 'update', rs.id, '--zone', z, '--file', file('one.json', JSON.stringify(RULES.slice(0, 1))), '--yes'], env);
    expect(yes.code).toBe(0);
    expect((await api.getRuleset({ zone: z }, rs.id)).rules).toHaveLength(1);
  });

  it('rulesets entrypoint put with fewer rules than the entry point has needs --yes too (it replaces all rules, as update does)', async () => {
    const z = zone();
    const phase = 'http_request_firewall_custom';
    // a missing entry point has nothing to drop: created without asking
    const first = await logfilter(['rulesets', 'entrypoint', 'put', '--phase', phase, '--zone', z, '--file', file('ep2.json', JSON.stringify(RULES))], env);
    expect(first.code).toBe(0);
    const before = emu.requestCount;
    const empty = await logfilter(['rulesets', 'entrypoint', 'put', '--phase', phase, '--zone', z, '--file', file('ep0.yaml', 'rules: []\n')], env);
    expect(empty.code).toBe(2);
    expect(emu.requestCount).toBe(before + 1); // the read of the entry point, no write
    expect((await api.getEntrypoint({ zone: z }, phase)).rules).toHaveLength(2);
    const dry = await logfilter(['rulesets', 'entrypoint', 'put', '--phase', phase, '--zone', z, '--file', file('ep0.yaml', 'rules: []\n'), '--dry-run'], env);
    expect(dry.code).toBe(0);
    const no = await onTerminal(['rulesets', 'entrypoint', 'put', '--phase', phase, '--zone', z, '--file', file('ep1.json', JSON.stringify(RULES.slice(1)))], 'no\n');
    expect(no.code).toBe(1);
    expect((await api.getEntrypoint({ zone: z }, phase)).rules).toHaveLength(2);
    const yes = await logfilter(['rulesets', 'entrypoint', 'put', '--phase', phase, '--zone', z, '--file', file('ep1.json', JSON.stringify(RULES.slice(1))), '--yes'], env);
    expect(yes.code).toBe(0);
    expect((await api.getEntrypoint({ zone: z }, phase)).rules.map((r) => r.description)).toEqual(['b']);
  });
});

describe('small defects', () => {
  it('a YAML error names line and column', async () => {
    const bad = file('bad.yaml', 'rules:\n  - action: block\n    expression: "x\n  - : :\n');
    const r = await logfilter(['rulesets', 'create', '--zone', 'z', '--file', bad, '--dry-run'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml:\d+:\d+:/);
    const dup = file('dup.yaml', 'name: a\nname: b\n');
    const d = await logfilter(['rulesets', 'create', '--zone', 'z', '--file', dup, '--dry-run'], env);
    expect(d.stderr).toContain('dup.yaml:2:1:');
  });

  it('jobs get output ends with one newline and no trailing blanks', async () => {
    const z = zone();
    const src = file('get.logfilter', 'ClientRequestHost == "example.com"\n');
    const created = await logfilter(['jobs', 'create', '--zone', z, '--filter', src, '--destination', DEST, '--json'], env);
    const r = await logfilter(['jobs', 'get', String(JSON.parse(created.stdout).id), '--zone', z], env);
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(r.stdout.endsWith('\n\n')).toBe(false);
    expect(r.stdout.split('\n').filter((l) => / $/.test(l))).toEqual([]);
  });
});
