/**
 * A rejected change leaves the state exactly as it was (the write to --data failing included); keys chosen by
 * users never reach Object.prototype; malformed paths and options are the client's errors (4xx with the
 * envelope), and messages never echo long input whole.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDataFile, startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { api, cfRule, own } from './http.js';

const dir = mkdtempSync(join(tmpdir(), 'logfilter-emu-rel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const JOB = { destination_conf: 's3://b/p?region=eu-west-1' };

describe('a failed save changes nothing', () => {
  let emu: RunningEmulator;
  const data = join(dir, 'state.json');
  beforeAll(async () => {
    emu = await startEmulator({ tokens: ['t'], dataFile: data });
  });
  afterAll(() => emu.close());

  /**
   * Every change is appended to the journal: with /dev/full in its place, the append fails as on a full disk
   * (ENOSPC, even for root). The real journal is put back afterwards.
   */
  const journal = `${data}.journal`;
  function breakDataFile() {
    renameSync(journal, `${journal}.aside`);
    symlinkSync('/dev/full', journal);
  }
  function repairDataFile() {
    rmSync(journal);
    renameSync(`${journal}.aside`, journal);
  }

  it('a job POST answered 500 is neither in memory nor on disk, and its id is not used up', async () => {
    const call = api(emu.url, 't');
    const first = (await call('POST', '/zones/z/logexport/jobs', { ...JOB, name: 'kept' })).body.result;
    breakDataFile();
    const failed = await call('POST', '/zones/z/logexport/jobs', { ...JOB, name: 'ghost' });
    expect(failed.status).toBe(500);
    expect(failed.body.success).toBe(false);
    expect(failed.body.errors[0].code).toBe(10500);
    expect((await call('GET', '/zones/z/logexport/jobs')).body.result.map((j: { name: string }) => j.name)).toEqual(['kept']);
    repairDataFile();
    const next = (await call('POST', '/zones/z/logexport/jobs', { ...JOB, name: 'next' })).body.result;
    expect(next.id).toBe(first.id + 1);
    const onDisk = readDataFile(data)!;
    expect(onDisk.zones.z.jobs.map((j) => j.name)).toEqual(['kept', 'next']);
  });

  it('a ruleset change answered 500 keeps the version and rules as they were', async () => {
    const call = api(emu.url, 't');
    const rs = (await call('PUT', '/zones/z2/rulesets/phases/http_log_custom_fields/entrypoint', { rules: [cfRule({ req: ['a'] })] })).body.result;
    breakDataFile();
    expect((await call('POST', `/zones/z2/rulesets/${rs.id}/rules`, cfRule({ req: ['b'] }))).status).toBe(500);
    expect((await call('PUT', `/zones/z2/rulesets/${rs.id}`, { rules: [] })).status).toBe(500);
    expect((await call('DELETE', `/zones/z2/rulesets/${rs.id}`)).status).toBe(500);
    repairDataFile();
    const now = (await call('GET', `/zones/z2/rulesets/${rs.id}`)).body.result;
    expect(now).toEqual(rs);
    expect((await call('GET', `/zones/z2/rulesets/${rs.id}/versions`)).body.result).toHaveLength(1);
    const added = (await call('POST', `/zones/z2/rulesets/${rs.id}/rules`, cfRule({ req: ['b'] }))).body.result;
    expect(added.version).toBe('2');
  });
});

describe('a failed flush', () => {
  /**
   * The journal swapped for /dev/null: a change's line is written (accepted, as a page cache accepts it) and then
   * its flush fails (fdatasync on a device that cannot sync answers EINVAL, even for root), as a disk reports a
   * lost write-back at fsync time with EIO. Nothing in the emulator is stubbed: the kernel refuses the flush.
   */
  it('fails the changes waiting for it and every later one until a restart, which holds every acknowledged change and none answered 500', async () => {
    const data = join(dir, 'flush.json');
    const journal = `${data}.journal`;
    const jobs = '/zones/f/logexport/jobs';
    let emu: RunningEmulator | undefined = await startEmulator({ tokens: ['t'], dataFile: data });
    try {
      const call = api(emu.url, 't');
      const acked: number[] = [];
      for (const name of ['a', 'b']) {
        const r = await call('POST', jobs, { ...JOB, name });
        expect(r.status).toBe(200);
        acked.push(r.body.result.id);
      }
      const rs = (await call('PUT', '/zones/f/rulesets/phases/http_log_custom_fields/entrypoint', { rules: [cfRule({ req: ['a'] })] })).body.result;

      renameSync(journal, `${journal}.aside`);
      symlinkSync('/dev/null', journal);
      // Two changes in flight when the flush fails: both refused.
      const [job, rule] = await Promise.all([call('POST', jobs, { ...JOB, name: 'unflushed' }), call('POST', `/zones/f/rulesets/${rs.id}/rules`, cfRule({ req: ['b'] }))]);
      expect([job.status, job.body.errors[0].code, rule.status, rule.body.errors[0].code]).toEqual([500, 10500, 500, 10500]);

      // The disk works again, but memory may hold what it does not: every change stays refused, reads go on.
      rmSync(journal);
      renameSync(`${journal}.aside`, journal);
      const later = await call('POST', jobs, { ...JOB, name: 'later' });
      const removal = await call('DELETE', `${jobs}/${acked[0]}`);
      const reset = await fetch(emu.url.replace('/client/v4', '/__emulator/reset'), { method: 'POST', headers: { authorization: 'Bearer t' } });
      expect([later.status, removal.status, reset.status]).toEqual([500, 500, 500]);
      expect((await call('GET', jobs)).status).toBe(200);
      await emu.close();
      emu = undefined;

      // The restart holds exactly what was acknowledged, and takes changes again.
      const again = await startEmulator({ tokens: ['t'], dataFile: data });
      try {
        const call2 = api(again.url, 't');
        expect((await call2('GET', jobs)).body.result.map((j: { id: number; name: string }) => [j.id, j.name])).toEqual([
          [acked[0], 'a'],
          [acked[1], 'b'],
        ]);
        expect((await call2('GET', `/zones/f/rulesets/${rs.id}`)).body.result).toEqual(rs);
        expect((await call2('POST', jobs, { ...JOB, name: 'after' })).status).toBe(200);
        expect(readDataFile(data)!.zones.f.jobs.map((j) => j.name)).toEqual(['a', 'b', 'after']);
      } finally {
        await again.close();
      }
    } finally {
      await emu?.close();
    }
  });
});

describe('user keys and malformed input', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ tokens: ['t'] });
  });
  afterEach(() => emu.reset());
  afterAll(() => emu.close());

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('zone id %s is an ordinary zone', async (zone) => {
    const call = api(emu.url, 't');
    const empty = await call('GET', `/zones/${zone}/rulesets`);
    expect([empty.status, own(empty.body.result)]).toEqual([200, []]);
    // A job name holds no underscore (the provider's pattern): the zone id with its underscores taken out.
    const name = zone.replace(/_/g, '');
    const job = await call('POST', `/zones/${zone}/logexport/jobs`, { ...JOB, name });
    expect(job.status).toBe(200);
    expect((await call('GET', `/zones/${zone}/logexport/jobs/${job.body.result.id}`)).body.result.name).toBe(name);
    // Other zones see nothing of it.
    expect((await call('GET', '/zones/other/logexport/jobs')).body.result).toEqual([]);
  });

  it.each(['__proto__', 'constructor', 'toString'])('account id %s is an ordinary account', async (account) => {
    const call = api(emu.url, 't');
    const empty = await call('GET', `/accounts/${account}/rulesets`);
    expect([empty.status, own(empty.body.result)]).toEqual([200, []]);
    const created = await call('POST', `/accounts/${account}/rulesets`, { name: account, kind: 'custom', phase: 'http_request_firewall_custom' });
    expect(created.status).toBe(200);
    expect(own((await call('GET', `/accounts/${account}/rulesets`)).body.result).map((r: { name: string }) => r.name)).toEqual([account]);
    expect(own((await call('GET', '/accounts/other/rulesets')).body.result)).toEqual([]);
  });

  it('zone ids survive a restart from the data file, __proto__ included', async () => {
    const data = join(dir, 'proto.json');
    const a = await startEmulator({ tokens: ['t'], dataFile: data });
    await api(a.url, 't')('POST', '/zones/__proto__/logexport/jobs', { ...JOB, name: 'p' });
    await a.close();
    const b = await startEmulator({ tokens: ['t'], dataFile: data });
    try {
      const call = api(b.url, 't');
      expect((await call('GET', '/zones/__proto__/logexport/jobs')).body.result.map((j: { name: string }) => j.name)).toEqual(['p']);
      expect((await call('GET', '/zones/toString/logexport/jobs')).body.result).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it.each(['/zones/%E0%A4%A/rulesets', '/zones/z/rulesets/%zz', '/zones/%/logexport/jobs'])('malformed percent-encoding %s is 400 with code 7005', async (path) => {
    const r = await api(emu.url, 't')('GET', path);
    expect([r.status, r.body.success, r.body.errors[0].code]).toEqual([400, false, 7005]);
  });

  it.each(['toString', '__proto__', 'constructor', 'hasOwnProperty'])('logpull_options key %s is an unknown option (1006), not "given twice"', async (key) => {
    const r = await api(emu.url, 't')('POST', '/zones/z/logexport/jobs', { ...JOB, logpull_options: `fields=ClientIP&${key}=1` });
    expect([r.status, r.body.errors[0].code]).toEqual([400, 1006]);
    expect(r.body.errors[0].message).toContain(key);
    expect(r.body.errors[0].message).not.toContain('twice');
  });

  it('a repeated logpull_options key is still refused, and malformed encoding in a value is 1006', async () => {
    const call = api(emu.url, 't');
    expect((await call('POST', '/zones/z/logexport/jobs', { ...JOB, logpull_options: 'timestamps=unix&timestamps=unix' })).body.errors[0].code).toBe(1006);
    expect((await call('POST', '/zones/z/logexport/jobs', { ...JOB, logpull_options: 'timestamps=%E0%A4%A' })).body.errors[0].code).toBe(1006);
  });

  it('a long zone id is cut in the message', async () => {
    const zone = 'z'.repeat(5000) + '!';
    const r = await api(emu.url, 't')('GET', `/zones/${zone}/rulesets`);
    expect([r.status, r.body.errors[0].code]).toEqual([400, 7003]);
    expect(r.body.errors[0].message.length).toBeLessThan(300);
  });

  it('a 1 MB filter is refused as too large (1005) without being checked, and the emulator answers others meanwhile', async () => {
    const call = api(emu.url, 't');
    const filter = JSON.stringify({ where: { key: 'ClientRequestHost', operator: 'in', value: Array.from({ length: 90_000 }, (_, i) => `v${i}`) } });
    const [big, other] = await Promise.all([call('POST', '/zones/z/logexport/jobs', { ...JOB, filter }), call('GET', '/zones/z/logexport/jobs')]);
    expect([big.status, big.body.errors[0].code]).toEqual([400, 1005]);
    expect(big.body.errors[0].message.length).toBeLessThan(400);
    expect(other.status).toBe(200);
    expect((await call('GET', '/zones/z/logexport/jobs')).body.result).toEqual([]);
  });
});
