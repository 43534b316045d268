/**
 * What users of the provider's tools reach for: --verbose with secrets redacted, a zone given
 * by name, -o json|yaml|table, shell completion, and --version/--help on every bin. Real HTTP against the
 * emulator; the bins are spawned.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { LogfilterClient } from '@logfilter/api';
import { file, logfilter } from './api-harness.js';

const TOKEN = 'tools-token-SECRET-4242';
const PACKAGES = path.resolve(import.meta.dirname, '../..');
let emu: RunningEmulator;
let env: Record<string, string>;
let api: LogfilterClient;
// https: no ownership challenge to answer (the s3 flow has its own test)
const DEST = 'https://logs.example.com/in';

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], fixture: { zones: { 'zone-shop': { plan: 'pro', name: 'shop.example.com' }, 'zone-blog': { name: 'blog.example.com' } } } });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
  api = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {} });
});
afterAll(() => emu.close());

describe('--verbose', () => {
  it('logs each request and answer on stderr, the credential redacted everywhere', async () => {
    await api.createJob('zone-blog', { destination_conf: DEST, dataset: 'http_requests', name: TOKEN });
    const r = await logfilter(['jobs', 'list', '--zone', 'zone-blog', '--verbose', '--json'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/.*\/zones\/zone-blog\/logpush\/jobs/m);
    expect(r.stderr).toMatch(/^> authorization: \S+/m);
    expect(r.stderr).toMatch(/^< 200 /m);
    expect(r.stderr).toMatch(/^< \{/m);
    expect(r.stderr).not.toContain(TOKEN);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});

describe('a zone given by name', () => {
  it('the emulator finds zones by name', async () => {
    const a = await api.request<{ id: string; name: string }[]>('GET', '/zones?name=shop.example.com');
    expect(a.result.map((z) => [z.id, z.name])).toEqual([['zone-shop', 'shop.example.com']]);
    expect((await api.request<unknown[]>('GET', '/zones?name=nope.example.com')).result).toEqual([]);
  });

  it('--zone NAME acts on the zone of that name; an unknown name is exit 1, nothing changed', async () => {
    const created = await logfilter(['jobs', 'create', '--zone', 'shop.example.com', '--destination', DEST, '--name', 'by-name', '--json'], env);
    expect(created.code).toBe(0);
    expect((await api.listAllJobs('zone-shop')).map((j) => j.name)).toContain('by-name');
    const rs = await logfilter(['rulesets', 'list', '--zone', 'shop.example.com', '--json'], env);
    expect(rs.code).toBe(0);
    const missing = await logfilter(['jobs', 'create', '--zone', 'nope.example.com', '--destination', DEST], env);
    expect(missing.code).toBe(1);
    // Whether a zone exists is the API's answer (exit 1, kind "failure", as for a zone id the API refuses),
    // unlike a --phase outside a fixed table (exit 2).
    const unknownName = await logfilter(['jobs', 'list', '--zone', 'nope.example.com', '--json'], env);
    expect([unknownName.code, JSON.parse(unknownName.stdout).kind]).toEqual([1, 'failure']);
  });

  it('a zone name in the fixture must be a domain name', async () => {
    await expect(startEmulator({ tokens: ['t'], fixture: { zones: { z: { name: 'not a name' } } } })).rejects.toThrow(/zones\.z\.name/);
  });
});

describe('-o json|yaml|table', () => {
  it('json is --json, yaml the same data as YAML, table the human output', async () => {
    const json = await logfilter(['jobs', 'list', '--zone', 'zone-blog', '--json'], env);
    const o = await logfilter(['jobs', 'list', '--zone', 'zone-blog', '-o', 'json'], env);
    expect(o.stdout).toBe(json.stdout);
    const yaml = await logfilter(['jobs', 'list', '--zone', 'zone-blog', '--output', 'yaml'], env);
    expect(yaml.code).toBe(0);
    expect(yaml.stdout.trimStart().startsWith('[')).toBe(false);
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
    const table = await logfilter(['jobs', 'list', '--zone', 'zone-blog', '-o', 'table'], env);
    const human = await logfilter(['jobs', 'list', '--zone', 'zone-blog'], env);
    expect(table.stdout).toBe(human.stdout);
  });

  it('a failure with -o yaml is the failure object as YAML; an unknown format is a usage error naming the nearest', async () => {
    const r = await logfilter(['jobs', 'get', '999', '--zone', 'zone-blog', '-o', 'yaml'], env);
    expect(r.code).toBe(1);
    expect(parse(r.stdout)).toMatchObject({ ok: false, exit: 1 });
    const bad = await logfilter(['jobs', 'list', '--zone', 'zone-blog', '-o', 'yml'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('yaml');
  });

  it('waf-migration plan keeps --output FILE', async () => {
    const out = file('plan-out.yaml', '');
    const r = await logfilter(['waf-migration', 'plan', '--zone', 'zone-shop', '--output', out], env);
    expect(r.code).toBe(0);
    expect(parse(readFileSync(out, 'utf8'))).toHaveProperty('rules');
  });
});

describe('logfilter completion bash|zsh|fish', () => {
  const script = async (shell: string) => {
    const r = await logfilter(['completion', shell], {});
    expect(r.code).toBe(0);
    return r.stdout;
  };
  /** What bash completes for the words typed (the last one being completed). */
  const complete = (bash: string, words: string[]) =>
    execFileSync('bash', ['-c', `${bash}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _logfilter; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);

  it('bash completes subcommands and options by the path typed so far', async () => {
    const bash = await script('bash');
    expect(complete(bash, ['logfilter', 'jo'])).toEqual(['jobs']);
    expect(complete(bash, ['logfilter', 'jobs', 'cr'])).toEqual(['create']);
    expect(complete(bash, ['logfilter', 'rulesets', 'rules', 'd'])).toEqual(['delete']);
    expect(complete(bash, ['logfilter', 'jobs', 'delete', '--y'])).toEqual(['--yes']);
    expect(complete(bash, ['logfilter', 'rulesets', 'rules', 'update', '--dis'])).toEqual(['--disable']);
    // the provider's names, aliases of jobs and page-guard, complete as those do
    expect(complete(bash, ['logfilter', 'logp'])).toEqual(['logpush']);
    expect(complete(bash, ['logfilter', 'logpush', 'cr'])).toEqual(['create']);
    expect(complete(bash, ['logfilter', 'page-shield', 'pol'])).toEqual(['policies', 'policy']);
  });

  it('logpush and page-shield run jobs and page-guard', async () => {
    for (const [alias, name] of [['logpush', 'jobs'], ['page-shield', 'page-guard']]) {
      const a = await logfilter([alias, '--help'], {});
      const b = await logfilter([name, '--help'], {});
      expect(a.code).toBe(0);
      expect(a.stdout).toBe(b.stdout);
    }
    // a usage error under the alias is the command's own (exit 2)
    expect((await logfilter(['logpush', 'get'], {})).code).toBe(2);
  });

  it('zsh (through bashcompinit) and fish scripts name every subcommand path', async () => {
    const zsh = await script('zsh');
    expect(zsh).toContain('bashcompinit');
    const fish = await script('fish');
    for (const p of ['/jobs/create', '/rulesets/rules/delete', '/page-guard/policies/delete', '/completion']) {
      expect(zsh).toContain(`['@${p}']=`);
      expect(fish).toContain(`'${p}'`);
    }
    expect(fish).toMatch(/^complete -c logfilter .*-l yes /m);
    expect((await logfilter(['completion', 'tcsh'], {})).code).toBe(2);
  });
});

describe('--version and --help on every bin', () => {
  const bins: [string, string][] = [
    ['cli/bin/logfilter.cjs', 'cli'],
    ['cli/bin/compile-filter.cjs', 'cli'],
    ['language-server/bin/logfilter-language-server.cjs', 'language-server'],
    ['emulator/bin/logfilter-emulator.cjs', 'emulator'],
  ];
  it.each(bins)('%s --version prints the package version and exits 0', (bin, pkg) => {
    const version = JSON.parse(readFileSync(path.join(PACKAGES, pkg, 'package.json'), 'utf8')).version;
    const r = spawnSync(process.execPath, [path.join(PACKAGES, bin), '--version'], { encoding: 'utf8', input: '', timeout: 60_000 });
    expect([r.status, r.stdout.trim()]).toEqual([0, version]);
  });
  it.each(bins)('%s --help prints usage and exits 0', (bin) => {
    const r = spawnSync(process.execPath, [path.join(PACKAGES, bin), '--help'], { encoding: 'utf8', input: '', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/usage/i);
  });
});
