/**
 * The --data journal: a change appends only what it changed, so its cost does not grow with the
 * history; the journal is folded into the snapshot at start and stop; crashes leave nothing a restart trips on.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDataFile, startEmulator, StateFileError } from '@logfilter/emulator';
import { api } from './http.js';

const dir = mkdtempSync(join(tmpdir(), 'logfilter-emu-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `${n++}-state.json`);
const rules = (count: number, tag: string) => Array.from({ length: count }, (_, i) => ({ action: 'block', expression: `http.host eq "h${i}.example"`, description: `${tag}-${i}` }));

describe('the journal', { timeout: 120_000 }, () => {
  it('a change to a 50-rule ruleset appends as many bytes after 120 changes as after 1', async () => {
    const data = fresh();
    const emu = await startEmulator({ dataFile: data });
    try {
      const call = api(emu.url);
      const rs = (await call('POST', '/zones/z/rulesets', { name: 'big', kind: 'custom', phase: 'http_request_firewall_custom', rules: rules(50, 'a') })).body.result;
      const size = () => statSync(`${data}.journal`).size;
      // One rule added and one removed: each change is a new version of the same size.
      const change = async (i: number) => {
        const r = await call('POST', `/zones/z/rulesets/${rs.id}/rules`, { action: 'log', expression: 'true', description: `x${String(i).padStart(4, '0')}` });
        expect(r.status).toBe(200);
        const added = r.body.result.rules.at(-1).id;
        expect((await call('DELETE', `/zones/z/rulesets/${rs.id}/rules/${added}`)).status).toBe(200);
      };
      await change(0);
      let before = size();
      await change(1);
      const early = size() - before;
      for (let i = 2; i < 60; i++) await change(i);
      before = size();
      await change(60);
      const late = size() - before;
      // Versions differ only in their numbers and timestamps: a few bytes, not the 120 versions of history.
      expect(Math.abs(late - early)).toBeLessThan(64);
      expect((await call('GET', `/zones/z/rulesets/${rs.id}/versions`)).body.result).toHaveLength(123);
    } finally {
      await emu.close();
    }
    // A clean stop folds the journal in: the snapshot alone has every version.
    expect(JSON.parse(readFileSync(data, 'utf8')).zones.z.rulesets[0].versions).toHaveLength(123);
  });

  it('replays the journal after a stop without compaction, versions deleted included', async () => {
    const data = fresh();
    const emu = await startEmulator({ dataFile: data });
    const call = api(emu.url);
    const rs = (await call('POST', '/zones/z/rulesets', { name: 'r', kind: 'custom', phase: 'http_request_firewall_custom', rules: rules(2, 'a') })).body.result;
    await call('PUT', `/zones/z/rulesets/${rs.id}`, { rules: rules(3, 'b') });
    await call('PUT', `/zones/z/rulesets/${rs.id}`, { rules: rules(1, 'c') });
    expect((await call('DELETE', `/zones/z/rulesets/${rs.id}/versions/2`)).status).toBe(204);
    await call('POST', '/accounts/a/rulesets', { name: 'acc', kind: 'custom', phase: 'http_request_firewall_custom' });
    await call('POST', '/zones/z/logexport/jobs', { destination_conf: 's3://b/p?region=x', name: 'j' });
    const expected = structuredClone(emu.store.state);
    // As after a kill -9: the snapshot is from the start, the changes are only in the journal.
    const onDisk = readDataFile(data)!;
    expect(JSON.parse(JSON.stringify(onDisk))).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(JSON.parse(readFileSync(data, 'utf8')).zones.z).toBeUndefined();
    await emu.close();
  });

  it('drops a torn last line, refuses a bad line in the middle with its number, ignores a journal of an older snapshot', async () => {
    const data = fresh();
    const emu = await startEmulator({ dataFile: data });
    await api(emu.url)('POST', '/zones/z/logexport/jobs', { destination_conf: 's3://b/p?region=x', name: 'kept' });
    const journal = readFileSync(`${data}.journal`, 'utf8');
    const snapshot = readFileSync(data, 'utf8');
    await emu.close();
    writeFileSync(data, snapshot);
    // Torn: a kill while the line was written (never acknowledged).
    writeFileSync(`${data}.journal`, `${journal}{"nextJobId":9,"zo`);
    expect(readDataFile(data)!.zones.z.jobs.map((j) => j.name)).toEqual(['kept']);
    // Not torn: a damaged file, refused with the line.
    writeFileSync(`${data}.journal`, `${journal}{"nextJobId":9,"zo\n{"nextJobId":9}\n`);
    const e = await startEmulator({ dataFile: data }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(e).toBeInstanceOf(StateFileError);
    expect(e!.message).toContain('line 3');
    // A journal whose header names another snapshot generation is left over from a compaction cut short.
    const header = JSON.parse(journal.split('\n')[0]);
    writeFileSync(`${data}.journal`, journal.replace(`"generation":${header.generation}`, `"generation":${header.generation - 1}`));
    expect(readDataFile(data)!.zones.z).toBeUndefined();
  });

  it('removes temporary files a killed emulator left behind', async () => {
    const data = fresh();
    const stray = join(dir, `.${data.split('/').pop()}.424242.tmp`);
    writeFileSync(stray, 'half');
    appendFileSync(join(dir, 'unrelated.tmp'), 'x');
    const emu = await startEmulator({ dataFile: data });
    await emu.close();
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(join(dir, 'unrelated.tmp'))).toBe(true);
  });
});
