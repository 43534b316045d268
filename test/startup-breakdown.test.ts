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

type Open = { load?: number; explorer?: number; open: number; squiggle: number };
type Breakdown = { total: number; steps: Record<string, number> };
const breakdown = breakdownOf as (events: { event: string; at: number }[], open: Open) => Breakdown;

/** One cold open's events, `base` ms after the epoch. */
const coldEvents = (base: number) => [
  { event: 'extension-host-start', at: base + 300 },
  { event: 'extension-load', at: base + 1500 },
  { event: 'extension-evaluated', at: base + 1540 },
  { event: 'extension-activate', at: base + 1560 },
  { event: 'server-process-start', at: base + 1580 },
  { event: 'server-loaded', at: base + 1700 },
  { event: 'server-initialize', at: base + 1710 },
  { event: 'server-first-diagnostics', at: base + 1800 },
  { event: 'client-first-diagnostics', at: base + 1805 },
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
      context: 20,
      spawn: 20,
      'server-load': 120,
      handshake: 10,
      'first-check': 90,
      'to-client': 5,
      'to-squiggle': 95,
    });
  });

  it('takes only the events inside the open (a later open’s or an earlier host’s are ignored)', () => {
    const events = [...coldEvents(0), ...coldEvents(10_000)];
    const b = breakdown(events, { load: 10_000, explorer: 11_000, open: 11_400, squiggle: 12_000 });
    expect(b.steps['exthost-start']).toBe(300);
    expect(b.steps.activation).toBe(100);
    expect(b.steps['to-squiggle']).toBe(195);
    // a warm open has no page load and no start-up events: only what it has is reported
    expect(breakdown(events, { open: 20_000, squiggle: 20_100 })).toEqual({ total: 100, steps: {} });
  });

  it('prints the median of each step and the sum per owner from the click on', () => {
    const opens = [0, 10_000, 20_000].map((base, i) => breakdown(coldEvents(base), { load: base, explorer: base + 1000, open: base + 1400, squiggle: base + 1900 + i * 100 }));
    const text = medianSteps(opens) as string;
    expect(text).toContain('activation 100,');
    expect(text).toContain('to-squiggle 195');
    // code-server: activation 100 + context 20 + to-squiggle 195; extension: 40 + 20; server: 120; both: 10 + 90 + 5
    expect(text).toMatch(/by owner: code-server 315, extension 60, server 120, both 105$/);
    expect(medianSteps([breakdown([], { open: 0, squiggle: 10 })])).toBe('');
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
