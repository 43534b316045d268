/**
 * The task runner with its real worker thread (the server bundle, as the server starts it): large tasks run
 * one at a time off the main thread, and a waiting task for an older version of a document is dropped with
 * ContentModified when a newer one arrives.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LSPErrorCodes } from 'vscode-languageserver/node.js';
import { compile } from '@logfilter/core';
import { INLINE_LIMIT, isSuperseded, TaskRunner } from '../src/runner.js';
import { DEFAULT_SETTINGS } from '../src/settings.js';
import { selectPublished } from '../src/convert.js';
import { filterSemanticTokens } from '../src/semantic-encoding.js';
import { serverScript } from './support/server-bundle.js';

const line = 'ClientRequestHost == "api.example.com" and EdgeResponseStatus >= 500\n';
const large = (n: number) => `BotScore < ${10 ** n} or ` + ('or ' + line).repeat(Math.ceil((INLINE_LIMIT * 2) / (line.length + 3))).slice(3);
const compileTask = (text: string) => ({ kind: 'compile' as const, text, settings: DEFAULT_SETTINGS });
const settle = <T>(p: Promise<T>) => p.then((value) => ({ value }), (error: unknown) => ({ error }));

let runner: TaskRunner | undefined;
afterEach(() => runner?.dispose());

describe('TaskRunner', () => {
  it('runs a large task in the worker with the same result as inline', async () => {
    runner = new TaskRunner(() => undefined, await serverScript());
    const text = large(1);
    const r = await runner.run(compileTask(text), { uri: 'file:///a', version: 1 });
    const inline = compile(text, { dataset: DEFAULT_SETTINGS.dataset, maxOperators: DEFAULT_SETTINGS.maxOperators, maxBytes: DEFAULT_SETTINGS.maxBytes });
    // the worker sends back only what is published (at most MAX_PUBLISHED, errors first)
    const published = selectPublished(inline.diagnostics);
    expect(r.diagnostics.map((d) => [d.code, d.start, d.end])).toEqual(published.kept.map((d) => [d.code, d.start, d.end]));
    expect(r.omitted?.count ?? 0).toBe(published.omitted?.count ?? 0);
    expect(r.stats).toEqual(inline.stats);
  }, 60_000);

  it('drops a waiting task for an older version of the same document, and keeps the others', async () => {
    const logs: string[] = [];
    runner = new TaskRunner((m) => logs.push(m), await serverScript());
    const a = 'file:///a.logfilter';
    const v1 = settle(runner.run(compileTask(large(1)), { uri: a, version: 1 })); // starts at once
    const v2 = settle(runner.run(compileTask(large(2)), { uri: a, version: 2 })); // waits, then is replaced
    const other = settle(runner.run(compileTask(large(3)), { uri: 'file:///b.logfilter', version: 1 }));
    const folding = settle(runner.run({ kind: 'folding', text: large(4) }, { uri: a, version: 2 })); // another kind
    const v3 = settle(runner.run(compileTask(large(5)), { uri: a, version: 3 }));
    const sameVersion = settle(runner.run(compileTask(large(6)), { uri: a, version: 3 }));

    const [r1, r2, rOther, rFolding, r3, rSame] = await Promise.all([v1, v2, other, folding, v3, sameVersion]);
    expect('error' in r2 && isSuperseded(r2.error)).toBe(true);
    expect((r2 as { error: { code: number } }).error.code).toBe(LSPErrorCodes.ContentModified);
    expect('value' in rFolding).toBe(true);
    // each kept task answered for its own text
    const stats = (r: object) => ('value' in r ? (r.value as { stats: unknown }).stats : r);
    const inlineStats = (n: number) => compile(large(n), { dataset: DEFAULT_SETTINGS.dataset }).stats;
    expect([r1, rOther, r3, rSame].map(stats)).toEqual([1, 3, 5, 6].map(inlineStats));
    expect(logs).toEqual([]);
  }, 60_000);

  it('stops the work of a closed document, running or waiting, and goes on with the others', async () => {
    const logs: string[] = [];
    runner = new TaskRunner((m) => logs.push(m), await serverScript());
    const a = 'file:///closed.logfilter';
    const running = settle(runner.run(compileTask(large(1)), { uri: a, version: 1 }));
    const other = settle(runner.run(compileTask(large(2)), { uri: 'file:///open.logfilter', version: 1 }));
    const waiting = settle(runner.run({ kind: 'folding', text: large(3) }, { uri: a, version: 1 }));
    runner.forget(a);
    const [r1, r2, r3] = await Promise.all([running, other, waiting]);
    expect([r1, r3].map((r) => 'error' in r && isSuperseded(r.error))).toEqual([true, true]);
    expect('value' in r2 && (r2.value as { stats: unknown }).stats).toEqual(compile(large(2), { dataset: DEFAULT_SETTINGS.dataset }).stats);
    // the worker started again: a later large task runs there with the same answer
    expect((await runner.run(compileTask(large(4)), { uri: 'file:///later', version: 1 })).stats).toEqual(compile(large(4), { dataset: DEFAULT_SETTINGS.dataset }).stats);
    expect(logs).toEqual([]);
  }, 60_000);

  it('settles every task it holds when disposed', async () => {
    runner = new TaskRunner(() => undefined, await serverScript());
    const running = settle(runner.run(compileTask(large(1)), { uri: 'file:///a', version: 1 }));
    const waiting = settle(runner.run(compileTask(large(2)), { uri: 'file:///b', version: 1 }));
    runner.dispose();
    const [r1, r2] = await Promise.all([running, waiting]);
    expect('error' in r1 && 'error' in r2).toBe(true);
  }, 60_000);

  it('moves semantic tokens back from the worker as a typed array, equal to the inline encoding', async () => {
    runner = new TaskRunner(() => undefined, await serverScript());
    const text = large(7);
    const r = await runner.run({ kind: 'highlight', text, dataset: DEFAULT_SETTINGS.dataset }, { uri: 'file:///h', version: 1 });
    expect(r).toBeInstanceOf(Uint32Array);
    expect(Array.from(r)).toEqual(Array.from(filterSemanticTokens(text, DEFAULT_SETTINGS.dataset)));
    expect(r.length).toBeGreaterThan(1000);
  }, 60_000);

  it('runs small tasks inline, never dropping them', async () => {
    runner = new TaskRunner(() => undefined, '/nonexistent/worker.cjs');
    const small = 'BotScore < 5';
    const results = await Promise.all([1, 2, 3].map((v) => runner!.run(compileTask(small), { uri: 'file:///s', version: v })));
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
  });

  it('falls back to inline work when the worker cannot start, losing no task', async () => {
    const logs: string[] = [];
    runner = new TaskRunner((m) => logs.push(m), '/nonexistent/worker.cjs');
    const first = settle(runner.run(compileTask(large(1)), { uri: 'file:///a', version: 1 }));
    const second = settle(runner.run(compileTask(large(2)), { uri: 'file:///b', version: 1 }));
    const [r1, r2] = await Promise.all([first, second]);
    // the worker never started: both tasks run here instead
    expect('value' in r1 && 'value' in r2).toBe(true);
    expect(logs.join('\n')).toMatch(/worker/);
    // and later large tasks run inline
    expect((await runner.run(compileTask(large(3)), { uri: 'file:///c', version: 1 })).stats.operators).toBeGreaterThan(30);
  }, 60_000);
});
