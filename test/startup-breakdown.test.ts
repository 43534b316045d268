/**
 * The e2e suite's breakdown of a cold open into steps (test/e2e/startup-breakdown.mjs): which events bound
 * each step, that events outside an open's window are ignored, and the medians the summary prints.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error: a plain .mjs module of the e2e suite, without type declarations
import { breakdownOf, medianSteps, readTrace } from './e2e/startup-breakdown.mjs';

type Open = { load?: number; explorer?: number; open: number; squiggle: number; marks?: [string, number][]; moments?: Record<string, number> };
type Breakdown = { total: number; steps: Record<string, number>; warm: boolean };
const breakdown = breakdownOf as (events: { event: string; at: number }[], open: Open) => Breakdown;

/**
 * One cold open's events, `base` ms after the epoch: the server thread starts as the extension loads, the
 * client once the bundle is evaluated, before VS Code calls activate().
 */
const coldEvents = (base: number) => [
  { event: 'extension-host-start', at: base + 300 },
  { event: 'extension-load', at: base + 1500 },
  { event: 'server-process-start', at: base + 1502 },
  { event: 'extension-evaluated', at: base + 1540 },
  { event: 'client-start', at: base + 1541 },
  { event: 'server-loaded', at: base + 1600 },
  { event: 'server-initialize', at: base + 1650 },
  { event: 'client-ready', at: base + 1660 },
  { event: 'server-first-diagnostics', at: base + 1700 },
  { event: 'client-first-diagnostics', at: base + 1705 },
  { event: 'extension-activate', at: base + 1800 },
];

describe('startup breakdown', () => {
  it('splits open → squiggle into the steps between the events', () => {
    const b = breakdown(coldEvents(1000), { load: 1000, explorer: 2000, open: 2200, squiggle: 2900 });
    expect(b.total).toBe(700);
    expect(b.steps).toEqual({
      workbench: 1000,
      'exthost-start': 300,
      activation: 300,
      'extension-load': 40,
      'to-diagnostics': 165,
      'to-squiggle': 195,
      context: 260,
      handshake: 119,
      'first-diagnostics': 45,
      'open-to-client': 505,
      'server-start': 2,
      'server-load': 98,
      'server-idle': 50,
      'first-check': 50,
    });
    // the critical steps add up to the click → squiggle total
    const critical = ['activation', 'extension-load', 'to-diagnostics', 'to-squiggle'];
    expect(critical.reduce((sum, k) => sum + b.steps[k]!, 0)).toBe(b.total);
  });

  it('takes only the events inside the open (a later open’s or an earlier host’s are ignored)', () => {
    const events = [...coldEvents(0), ...coldEvents(10_000)];
    const b = breakdown(events, { load: 10_000, explorer: 11_000, open: 11_400, squiggle: 12_000 });
    expect(b.steps['exthost-start']).toBe(300);
    expect(b.steps.activation).toBe(100);
    expect(b.steps['to-squiggle']).toBe(295);
    // a warm open has no page load and no start-up events: only what it has is reported
    expect(breakdown(events, { open: 20_000, squiggle: 20_100 })).toEqual({ total: 100, steps: {}, warm: true });
    const warm = [...events, { event: 'client-first-diagnostics', at: 20_060 }];
    expect(breakdown(warm, { open: 20_000, squiggle: 20_100 })).toEqual({ total: 100, steps: { 'open-to-client': 60, 'to-squiggle': 40 }, warm: true });
    // with the server's didOpen and first diagnostics, the warm open is split at the server
    const warmServer = [...warm, { event: 'server-did-open', at: 20_030 }, { event: 'server-first-diagnostics', at: 20_045 }];
    expect(breakdown(warmServer, { open: 20_000, squiggle: 20_100 }).steps).toEqual({ 'open-to-server': 30, 'server-check': 15, 'to-client': 15, 'open-to-client': 60, 'to-squiggle': 40 });
  });

  it('splits a warm open from the click to the squiggle painted: workbench, client, server, client, page', () => {
    const events = [
      ...coldEvents(0),
      { event: 'client-did-open', at: 20_200 },
      { event: 'server-did-open', at: 20_203 },
      { event: 'server-first-diagnostics', at: 20_209 },
      { event: 'client-first-diagnostics', at: 20_215 },
    ];
    const marks: [string, number][] = [
      ['code/didResolveTextFileEditorModel', 20_150],
      ['code/didSetInputToTextFileEditor', 20_180],
    ];
    const moments = { click: 20_000, text: 20_190, tokens: 20_195, squiggle: 20_290, painted: 20_300 };
    const b = breakdown(events, { open: 20_000, squiggle: 20_300, marks, moments });
    expect(b.total).toBe(300);
    expect(b.warm).toBe(true);
    expect(b.steps).toMatchObject({
      'editor-open': 150,
      'editor-input': 180,
      'to-text': 190,
      'to-tokens': 195,
      'to-did-open': 200,
      'to-server': 3,
      'server-check': 6,
      'to-client': 6,
      'to-squiggle': 85,
      'squiggle-frame': 10,
    });
    // the warm critical steps and to-squiggle add up to the total
    const critical = ['to-did-open', 'to-server', 'server-check', 'to-client', 'to-squiggle'];
    expect(critical.reduce((sum, k) => sum + b.steps[k]!, 0)).toBe(b.total);
    expect(medianSteps([b])).toMatch(/by owner: code-server 285, both 9, server 6$/);
    // a cold open has none of the warm-only steps, and its owner sums leave the warm ones out
    const cold = breakdown([...coldEvents(1000), { event: 'client-did-open', at: 2670 }, { event: 'server-did-open', at: 2680 }], { load: 1000, explorer: 2000, open: 2200, squiggle: 2900 });
    expect(cold.warm).toBe(false);
    expect(Object.keys(cold.steps)).not.toContain('to-did-open');
    expect(medianSteps([cold])).toMatch(/by owner: code-server 495, extension 40, both 165$/);
  });

  it("splits the activation step with the workbench's marks, taking those after the click for the click's steps", () => {
    const marks: [string, number][] = [
      // the page's start: a file model read before the click (a restored editor) is not the opened file's
      ['code/didResolveTextFileEditorModel', 1700],
      ['code/didHandleExtensionPoints', 1900],
      ['code/didResolveTextFileEditorModel', 2300],
      ['code/didResolveTextFileEditorModel', 2350],
    ];
    const b = breakdown(coldEvents(1000), { load: 1000, explorer: 2000, open: 2200, squiggle: 2900, marks });
    expect(b.steps['extension-points']).toBe(900);
    expect(b.steps['editor-open']).toBe(100);
    expect(b.steps['editor-to-extension']).toBe(200);
    // they split `activation`
    expect(b.steps['editor-open']! + b.steps['editor-to-extension']!).toBe(b.steps.activation);
  });

  it('prints the median of each step and the sum per owner over the critical steps', () => {
    const opens = [0, 10_000, 20_000].map((base, i) => breakdown(coldEvents(base), { load: base, explorer: base + 1000, open: base + 1400, squiggle: base + 1900 + i * 100 }));
    const text = medianSteps(opens) as string;
    expect(text).toContain('activation 100,');
    expect(text).toContain('to-squiggle 295');
    // code-server: activation 100 + to-squiggle 295; extension: 40; both: to-diagnostics 165. The client's
    // and the server's own steps run inside or beside them: not counted again.
    expect(text).toMatch(/by owner: code-server 395, extension 40, both 165$/);
    expect(medianSteps([breakdown([], { open: 0, squiggle: 10 })])).toBe('');
    // a trace without the extension's events (an older build): the page's steps alone, no owner sums
    expect(medianSteps([breakdown([], { load: 0, explorer: 700, open: 800, squiggle: 900 })])).toBe('workbench 700');
  });

  it('reads a trace file in time order, skipping a torn line', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-breakdown-'));
    try {
      const file = path.join(dir, 'trace.ndjson');
      writeFileSync(file, '{"event":"b","at":20,"pid":1}\n{"event":"a","at":10,"pid":2}\n{"event":"c","at":3');
      expect((readTrace(file) as { event: string }[]).map((e) => e.event)).toEqual(['a', 'b']);
      expect(readTrace(path.join(dir, 'missing.ndjson'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
