import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Real HTTP on a machine that may be busy: a generous limit per test (no assertion is about time).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { LogfilterClient } from '@logfilter/api';
import { file, logfilter } from './api-harness.js';

const TOKEN = 'cli-secret-token';
let emu: RunningEmulator;
let env: Record<string, string>;
let api: LogfilterClient;
let zn = 0;
const zone = () => `cli-jobs-${++zn}`;
const DEST = 's3://bucket/logs?region=us-east-1';

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN] });
  env = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN };
  api = new LogfilterClient({ baseUrl: emu.url, token: TOKEN, env: {} });
});
afterAll(() => emu.close());

const SOURCE = 'dataset http_requests\nClientRequestHost == "example.com" and EdgeResponseStatus >= 500\n';
const COMPILED = '{"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"example.com"},{"key":"EdgeResponseStatus","operator":"geq","value":500}]}}';

describe('logfilter jobs', () => {
  it('creates a job from a .logfilter source, compiled, with fields and timestamps', async () => {
    const z = zone();
    const src = file('create.logfilter', SOURCE);
    const r = await logfilter(['jobs', 'create', '--zone', z, '--filter', src, '--name', 'errors', '--destination', DEST, '--fields', 'ClientIP,ClientRequestHost,Cookies', '--timestamps', 'rfc3339', '--ownership-challenge', 'abc', '--json'], env);
    expect(r.code).toBe(0);
    const job = JSON.parse(r.stdout);
    expect(job).toMatchObject({ name: 'errors', dataset: 'http_requests', destination_conf: DEST, filter: COMPILED, logpull_options: 'fields=ClientIP,ClientRequestHost,Cookies&timestamps=rfc3339' });
    expect(await api.getJob(z, job.id)).toEqual(job);
  });

  it('creates a job from filter JSON, sent canonical', async () => {
    const z = zone();
    const json = file('f.json', JSON.stringify({ where: { and: [{ key: 'ClientRequestHost', operator: 'eq', value: 'example.com' }, { and: [{ key: 'EdgeResponseStatus', operator: 'geq', value: 500 }] }] } }, null, 2));
    // A destination that needs no ownership challenge (that flow is tested below).
    const r = await logfilter(['jobs', 'create', '--zone', z, '--filter', json, '--destination', 'https://logs.example.com/in', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).filter).toBe(COMPILED);
  });

  it('refuses a filter with errors and sends nothing', async () => {
    const z = zone();
    const before = emu.requestCount;
    const bad = file('bad.logfilter', 'ClientRequestHost == 5 and Nope == "x"\n');
    const r = await logfilter(['jobs', 'create', '--zone', z, '--filter', bad, '--destination', DEST], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown-field');
    const tooMany = file('many.json', JSON.stringify({ where: { or: Array.from({ length: 31 }, (_, i) => ({ key: 'EdgeResponseStatus', operator: 'eq', value: 200 + i })) } }));
    const r2 = await logfilter(['jobs', 'create', '--zone', z, '--filter', tooMany, '--destination', DEST], env);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain('too-many-operators');
    expect(emu.requestCount).toBe(before);
  });

  it('prints the request on --dry-run, credentials redacted, and sends nothing', async () => {
    const z = zone();
    const before = emu.requestCount;
    const r = await logfilter(['jobs', 'create', '--zone', z, '--filter', file('d.logfilter', SOURCE), '--destination', DEST, '--name', 'dry', '--dry-run'], env);
    expect(r.code).toBe(0);
    const req = JSON.parse(r.stdout);
    expect(req).toMatchObject({ method: 'POST', url: `${emu.url}/zones/${z}/logpush/jobs`, body: { name: 'dry', destination_conf: DEST, filter: COMPILED, dataset: 'http_requests' } });
    expect(req.headers.Authorization).toBe('Bearer <redacted>');
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    const keyEnv = { LOGFILTER_BASE_URL: emu.url, LOGFILTER_AUTH_EMAIL: 'a@example.com', LOGFILTER_AUTH_KEY: 'the-key-999' };
    const k = await logfilter(['jobs', 'delete', '--zone', z, '7', '--dry-run'], keyEnv);
    expect(k.code).toBe(0);
    expect(JSON.parse(k.stdout)).toMatchObject({ method: 'DELETE', url: `${emu.url}/zones/${z}/logpush/jobs/7` });
    expect(k.stdout).not.toContain('the-key-999');
    expect(emu.requestCount).toBe(before);
  });

  it('lists, gets, updates and deletes', async () => {
    const z = zone();
    const a = await api.createJob(z, { destination_conf: DEST, name: 'a', logpull_options: 'fields=ClientIP&timestamps=unix&CVE-2021-44228=true' });
    const b = await api.createJob(z, { destination_conf: DEST, name: 'b' });
    const list = await logfilter(['jobs', 'list', '--zone', z, '--json'], env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((j: { id: number }) => j.id)).toEqual([a.id, b.id]);
    const human = await logfilter(['jobs', 'list', '--zone', z], env);
    expect(human.stdout.split('\n').filter((l) => l.trim() !== '')).toHaveLength(3);

    const get = await logfilter(['jobs', 'get', '--zone', z, String(a.id), '--json'], env);
    expect(JSON.parse(get.stdout)).toEqual(a);
    expect((await logfilter(['jobs', 'get', '--zone', z, '--id', String(a.id)], env)).code).toBe(0);

    const upd = await logfilter(['jobs', 'update', '--zone', z, String(a.id), '--filter', file('u.logfilter', SOURCE), '--fields', 'ClientIP,Cookies', '--name', 'renamed', '--json'], env);
    expect(upd.code).toBe(0);
    // Only fields= changed: timestamps and the CVE option are kept.
    expect(JSON.parse(upd.stdout)).toMatchObject({ id: a.id, name: 'renamed', filter: COMPILED, logpull_options: 'fields=ClientIP,Cookies&timestamps=unix&CVE-2021-44228=true' });

    const del = await logfilter(['jobs', 'delete', '--zone', z, String(b.id), '--yes'], env);
    expect(del.code).toBe(0);
    expect((await api.listAllJobs(z)).map((j) => j.id)).toEqual([a.id]);
  });

  it('update reads --ownership-challenge-file as create does: its token is sent; an unreadable file is a usage error, nothing sent', async () => {
    const z = zone();
    const tokenFile = file('challenge.txt', 'tok-from-file\n');
    const dry = await logfilter(['jobs', 'update', '--zone', z, '7', '--destination', DEST, '--ownership-challenge-file', tokenFile, '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ method: 'PUT', body: { destination_conf: DEST, ownership_challenge: 'tok-from-file' } });
    const before = emu.requestCount;
    const missing = await logfilter(['jobs', 'update', '--zone', z, '7', '--destination', DEST, '--ownership-challenge-file', tokenFile + '.absent'], env);
    expect(missing.code).toBe(2);
    expect(emu.requestCount).toBe(before);
  });

  it('create --dry-run shows the token of --ownership-challenge-file in the body it would send', async () => {
    const z = zone();
    const tokenFile = file('challenge-create.txt', 'tok-create\n');
    const dry = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--ownership-challenge-file', tokenFile, '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ method: 'POST', body: { destination_conf: DEST, ownership_challenge: 'tok-create' } });
    const before = emu.requestCount;
    const missing = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--ownership-challenge-file', tokenFile + '.absent', '--dry-run'], env);
    expect(missing.code).toBe(2);
    expect(emu.requestCount).toBe(before);
  });

  it('update --fields/--timestamps on a job with output_options change field_names and timestamp_format there, keeping its other options', async () => {
    const z = zone();
    const job = await api.createJob(z, {
      destination_conf: 'https://logs.example.com/in',
      dataset: 'http_requests',
      output_options: { field_names: ['RayID'], timestamp_format: 'rfc3339', output_type: 'ndjson', 'CVE-2021-44228': true },
    });
    const r = await logfilter(['jobs', 'update', '--zone', z, String(job.id), '--fields', 'ClientIP,RayID', '--timestamps', 'unixnano', '--json'], env);
    expect(r.code).toBe(0);
    const after = await api.getJob(z, job.id);
    expect(after.output_options).toMatchObject({ field_names: ['ClientIP', 'RayID'], timestamp_format: 'unixnano', output_type: 'ndjson', 'CVE-2021-44228': true });
    // logpull_options, which the provider ignores beside output_options, is left as it was
    expect(after.logpull_options ?? null).toBe(job.logpull_options ?? null);
    // a field the dataset lacks is still a usage error, nothing sent
    expect((await logfilter(['jobs', 'update', '--zone', z, String(job.id), '--fields', 'Nope'], env)).code).toBe(2);
  });

  it('reports API errors in one line with exit 1', async () => {
    const z = zone();
    const missing = await logfilter(['jobs', 'get', '--zone', z, '424242'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('1004');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    const badDest = await logfilter(['jobs', 'create', '--zone', z, '--destination', 's3://no-region/path'], env);
    expect(badDest.code).toBe(1);
    expect(badDest.stderr).toContain('1001');
  });

  it('fails with exit 1 on wrong credentials, exit 2 (nothing sent) on missing ones', async () => {
    const wrong = await logfilter(['jobs', 'list', '--zone', zone()], { LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: 'nope' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('403');
    expect(wrong.stderr).not.toContain('nope');
    const none = await logfilter(['jobs', 'list', '--zone', zone()], { LOGFILTER_BASE_URL: emu.url });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('LOGFILTER_API_TOKEN');
    // no base URL means the provider's (not tried here: no network); one that is no URL is a set-up error
    const badUrl = await logfilter(['jobs', 'list', '--zone', zone()], { LOGFILTER_BASE_URL: 'not a url', LOGFILTER_API_TOKEN: TOKEN });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('LOGFILTER_BASE_URL');
  });

  it('takes --base-url over the environment', async () => {
    const r = await logfilter(['jobs', 'list', '--zone', zone(), '--base-url', emu.url, '--json'], { LOGFILTER_BASE_URL: 'http://127.0.0.1:1/client/v4', LOGFILTER_API_TOKEN: TOKEN });
    expect([r.code, JSON.parse(r.stdout)]).toEqual([0, []]);
  });

  it('retries after 429 and succeeds; a hung API ends with exit 1 after --timeout', async () => {
    emu.failNext(1, 429, 0);
    const ok = await logfilter(['jobs', 'list', '--zone', zone(), '--json'], env);
    expect(ok.code).toBe(0);
    emu.injectFaults({ hang: true });
    const hung = await logfilter(['jobs', 'list', '--zone', zone(), '--timeout', '300'], env);
    expect(hung.code).toBe(1);
    expect(hung.stderr.trim().split('\n')).toHaveLength(1);
    emu.injectFaults({ rawBody: 'not json' });
    const bad = await logfilter(['jobs', 'list', '--zone', zone()], env);
    expect(bad.code).toBe(1);
    emu.failNext(2, 502); // --retries 1: two attempts, both fail
    const down = await logfilter(['jobs', 'list', '--zone', zone(), '--retries', '1'], env);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('502');
  });

  it('exits 2 on usage errors', async () => {
    const z = zone();
    expect((await logfilter(['jobs', 'list'], env)).code).toBe(2);
    expect((await logfilter(['jobs', 'create', '--zone', z], env)).code).toBe(2);
    expect((await logfilter(['jobs', 'get', '--zone', z], env)).code).toBe(2);
    expect((await logfilter(['jobs', 'get', '--zone', z, 'abc'], env)).code).toBe(2);
    expect((await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--timestamps', 'local'], env)).code).toBe(2);
    expect((await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--fields', 'NotAField'], env)).code).toBe(2);
    expect((await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--filter', 'does-not-exist.logfilter'], env)).code).toBe(2);
    expect((await logfilter(['jobs', 'update', '--zone', z, '1'], env)).code).toBe(2);
  });

  it('acts on the jobs of an account with --account, as on a zone\'s, and needs exactly one of --zone and --account', async () => {
    const account = `acct-${zone()}`;
    const src = file('acct.logfilter', SOURCE);
    const made = await logfilter(['jobs', 'create', '--account', account, '--filter', src, '--name', 'acct', '--destination', 'https://logs.example.com/acct', '--json'], env);
    expect(made.code).toBe(0);
    const job = JSON.parse(made.stdout);
    expect(await api.getJob({ account }, job.id)).toMatchObject({ name: 'acct', filter: COMPILED });
    expect(await api.listAllJobs({ zone: account })).toEqual([]);
    const list = await logfilter(['jobs', 'list', '--account', account, '--json'], env);
    expect([list.code, JSON.parse(list.stdout).map((j: { id: number }) => j.id)]).toEqual([0, [job.id]]);
    const got = await logfilter(['jobs', 'get', '--account', account, String(job.id), '--json'], env);
    expect([got.code, JSON.parse(got.stdout).id]).toEqual([0, job.id]);
    expect((await logfilter(['jobs', 'update', '--account', account, String(job.id), '--enable'], env)).code).toBe(0);
    expect((await api.getJob({ account }, job.id)).enabled).toBe(true);
    const dry = await logfilter(['jobs', 'delete', '--account', account, String(job.id), '--dry-run'], env);
    expect([dry.code, dry.stdout]).toEqual([0, expect.stringContaining(`/accounts/${account}/logpush/jobs/${job.id}`)]);
    expect((await logfilter(['jobs', 'delete', '--account', account, String(job.id), '--yes'], env)).code).toBe(0);
    expect(await api.listAllJobs({ account })).toEqual([]);
    const missing = await logfilter(['jobs', 'get', '--account', account, String(job.id)], env);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining(`account ${account}`)]);
    // The advice names the account as the command line did, ready to paste.
    expect(missing.stderr).toContain(`logfilter jobs list --account ${account}`);
    const before = emu.requestCount;
    expect((await logfilter(['jobs', 'list', '--zone', 'z1', '--account', account], env)).code).toBe(2);
    expect((await logfilter(['jobs', 'list'], env)).code).toBe(2);
    expect(emu.requestCount).toBe(before);
  });

  it('refuses a job name the provider refuses (letters, digits, "-" and "." only) before sending anything, exit 2', async () => {
    const z = zone();
    const before = emu.requestCount;
    for (const name of ['my job', 'my_job', 'x'.repeat(513)]) {
      expect((await logfilter(['jobs', 'create', '--zone', z, '--destination', 'https://logs.example.com/in', '--name', name], env)).code).toBe(2);
      expect((await logfilter(['jobs', 'update', '--zone', z, '1', '--name', name], env)).code).toBe(2);
    }
    expect(emu.requestCount).toBe(before);
    const ok = await logfilter(['jobs', 'create', '--zone', z, '--destination', 'https://logs.example.com/in', '--name', 'shop.example-com', '--json'], env);
    expect([ok.code, JSON.parse(ok.stdout).name]).toEqual([0, 'shop.example-com']);
  });

  it('create sets kind, output_options, frequency and the upload limits; each lands in the job', async () => {
    const z = zone();
    const HTTPS = 'https://logs.example.com/in';
    const opts = file('out.yaml', 'field_names: [ClientIP, RayID]\ntimestamp_format: rfc3339\noutput_type: ndjson\nsample_rate: 0.5\nCVE-2021-44228: true\nrecord_prefix: "{"\n');
    const r = await logfilter(['jobs', 'create', '--zone', z, '--destination', HTTPS, '--output-options', opts, '--frequency', 'low', '--max-upload-bytes', '5000000', '--max-upload-records', '1000000', '--json'], env);
    expect(r.code).toBe(0);
    const job = await api.getJob(z, JSON.parse(r.stdout).id);
    expect(job).toMatchObject({ frequency: 'low', max_upload_bytes: 5_000_000, max_upload_records: 1_000_000, output_options: { field_names: ['ClientIP', 'RayID'], timestamp_format: 'rfc3339', output_type: 'ndjson', sample_rate: 0.5, 'CVE-2021-44228': true, record_prefix: '{' } });
    expect(job.logpull_options ?? null).toBeNull();
    const edge = await logfilter(['jobs', 'create', '--zone', z, '--destination', HTTPS, '--kind', 'edge', '--max-upload-interval-seconds', '300', '--json'], env);
    expect(edge.code).toBe(0);
    expect(await api.getJob(z, JSON.parse(edge.stdout).id)).toMatchObject({ kind: 'edge', max_upload_interval_seconds: 300 });
    // 0 is "no limit", as the API takes it
    const zero = await logfilter(['jobs', 'create', '--zone', z, '--destination', HTTPS, '--max-upload-records', '0', '--json'], env);
    expect(zero.code).toBe(0);
    expect((await api.getJob(z, JSON.parse(zero.stdout).id)).max_upload_records ?? 0).toBe(0);
    // jobs get shows them too (a plain job shows none of these lines)
    const shown = await logfilter(['jobs', 'get', '--zone', z, String(JSON.parse(r.stdout).id)], env);
    expect(shown.code).toBe(0);
    const line = (out: string, key: string) => out.split('\n').find((l) => l.startsWith(`${key}:`))?.slice(key.length + 1).trim();
    expect(JSON.parse(line(shown.stdout, 'output_options')!)).toMatchObject({ field_names: ['ClientIP', 'RayID'], sample_rate: 0.5 });
    expect([line(shown.stdout, 'frequency'), line(shown.stdout, 'max_upload_bytes'), line(shown.stdout, 'max_upload_records')]).toEqual(['low', '5000000', '1000000']);
    expect(line((await logfilter(['jobs', 'get', '--zone', z, String(JSON.parse(edge.stdout).id)], env)).stdout, 'kind')).toBe('edge');
    const plain = await logfilter(['jobs', 'create', '--zone', z, '--destination', HTTPS, '--json'], env);
    const plainShown = (await logfilter(['jobs', 'get', '--zone', z, String(JSON.parse(plain.stdout).id)], env)).stdout;
    expect(['kind', 'output_options', 'max_upload_bytes'].map((k) => line(plainShown, k))).toEqual([undefined, undefined, undefined]);
  });

  it('--fields/--timestamps with --output-options write field_names/timestamp_format there; the same member twice is a usage error', async () => {
    const z = zone();
    const opts = file('out.json', '{"output_type": "csv", "CVE-2021-4428": false}');
    const dry = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--output-options', opts, '--fields', 'ClientIP,RayID', '--timestamps', 'unix', '--kind', 'edge', '--frequency', 'high', '--max-upload-bytes', '0', '--ownership-challenge', 'tok', '--dry-run'], env);
    expect(dry.code).toBe(0);
    const req = JSON.parse(dry.stdout);
    expect(req.body).toMatchObject({ kind: 'edge', frequency: 'high', max_upload_bytes: 0, output_options: { output_type: 'csv', 'CVE-2021-4428': false, field_names: ['ClientIP', 'RayID'], timestamp_format: 'unix' } });
    expect(req.body.logpull_options).toBeUndefined();
    const before = emu.requestCount;
    const both = file('both.json', '{"field_names": ["RayID"], "timestamp_format": "unix"}');
    expect((await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--output-options', both, '--fields', 'ClientIP'], env)).code).toBe(2);
    expect((await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--output-options', both, '--timestamps', 'rfc3339'], env)).code).toBe(2);
    expect((await logfilter(['jobs', 'update', '--zone', z, '1', '--dataset', 'http_requests', '--output-options', both, '--fields', 'ClientIP'], env)).code).toBe(2);
    expect(emu.requestCount).toBe(before);
  });

  it('update sets output_options, frequency and the upload limits of a job', async () => {
    const z = zone();
    const job = await api.createJob(z, { destination_conf: 'https://logs.example.com/in', dataset: 'http_requests', logpull_options: 'fields=RayID' });
    const opts = file('upd.yaml', 'field_names:\n  - RayID\noutput_type: csv\n');
    const r = await logfilter(['jobs', 'update', '--zone', z, String(job.id), '--output-options', opts, '--timestamps', 'rfc3339', '--frequency', 'low', '--max-upload-bytes', '1000000000', '--max-upload-records', '1000', '--max-upload-interval-seconds', '30'], env);
    expect(r.code).toBe(0);
    expect(await api.getJob(z, job.id)).toMatchObject({ frequency: 'low', max_upload_bytes: 1_000_000_000, max_upload_records: 1_000, max_upload_interval_seconds: 30, output_options: { field_names: ['RayID'], output_type: 'csv', timestamp_format: 'rfc3339' } });
    // a job's kind cannot change: update has no --kind
    expect((await logfilter(['jobs', 'update', '--zone', z, String(job.id), '--kind', 'edge'], env)).code).toBe(2);
  });

  it('refuses upload limits out of bounds, an unknown kind or frequency, and edge on another dataset: exit 2 naming the flag, nothing sent', async () => {
    const z = zone();
    const before = emu.requestCount;
    const cases: [string, string][] = [
      ['--max-upload-bytes', '4999999'],
      ['--max-upload-bytes', '1000000001'],
      ['--max-upload-bytes', '-1'],
      ['--max-upload-bytes', '5e6'],
      ['--max-upload-records', '999'],
      ['--max-upload-records', '1000001'],
      ['--max-upload-interval-seconds', '29'],
      ['--max-upload-interval-seconds', '301'],
      ['--max-upload-interval-seconds', '1.5'],
      ['--frequency', 'medium'],
      ['--kind', 'instant'],
    ];
    for (const [flag, value] of cases) {
      const c = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, flag, value], env);
      expect([flag, value, c.code]).toEqual([flag, value, 2]);
      expect(c.stderr).toContain(flag);
      if (flag !== '--kind') expect((await logfilter(['jobs', 'update', '--zone', z, '1', flag, value], env)).code).toBe(2);
    }
    // the bounds themselves and 0 are taken
    for (const [flag, key, values] of [['--max-upload-bytes', 'max_upload_bytes', [5_000_000, 1_000_000_000, 0]], ['--max-upload-records', 'max_upload_records', [1_000, 1_000_000, 0]], ['--max-upload-interval-seconds', 'max_upload_interval_seconds', [30, 300, 0]]] as const) {
      for (const v of values) {
        const ok = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, flag, String(v), '--ownership-challenge', 'tok', '--dry-run'], env);
        expect([flag, ok.code, ok.code === 0 && JSON.parse(ok.stdout).body[key]]).toEqual([flag, 0, v]);
      }
    }
    const edge = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--dataset', 'firewall_events', '--kind', 'edge'], env);
    expect([edge.code, edge.stderr]).toEqual([2, expect.stringContaining('--kind')]);
    expect(emu.requestCount).toBe(before);
  });

  it('refuses a bad --output-options file with its line and column, exit 2, nothing sent', async () => {
    const z = zone();
    const before = emu.requestCount;
    const bad: [string, string, string][] = [
      ['unknown.json', '{\n  "output_type": "ndjson",\n  "fields": ["RayID"]\n}', ':3:3:'],
      ['type.yaml', 'output_type: ndjson\nsample_rate: 0\n', ':2:14:'],
      ['rate.json', '{"sample_rate": 1.5}', ':1:17:'],
      ['enum.yaml', 'timestamp_format: iso\n', ':1:19:'],
      ['field.yaml', 'field_names:\n  - RayID\n  - NotAField\n', ':3:5:'],
      ['names.json', '{"field_names": "RayID"}', ':1:17:'],
      ['bool.json', '{"CVE-2021-44228": "yes"}', ':1:20:'],
      ['text.json', '{"record_prefix": 5}', ':1:19:'],
      ['dup.json', '{"output_type": "csv",\n "output_type": "ndjson"}', ':2:2:'],
      ['list.json', '[1]', ':1:1:'],
      ['syntax.json', '{"output_type": }', ':1:17:'],
    ];
    for (const [name, text, place] of bad) {
      const r = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--output-options', file(name, text)], env);
      expect([name, r.code]).toEqual([name, 2]);
      expect(r.stderr).toContain(`${name}${place}`);
    }
    // null is "not set" for the options the provider makes nullable; standard input is read with -
    const ok = await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--output-options', '-', '--dry-run'], env, '{"sample_rate": null, "output_type": "csv"}');
    expect([ok.code, JSON.parse(ok.stdout).body.output_options]).toEqual([0, { sample_rate: null, output_type: 'csv' }]);
    expect((await logfilter(['jobs', 'create', '--zone', z, '--destination', DEST, '--output-options', 'absent.json'], env)).code).toBe(2);
    expect(emu.requestCount).toBe(before);
  });
});
