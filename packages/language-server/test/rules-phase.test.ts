/**
 * The default phase for rules (setting `logfilter.defaultPhase`): used when a `.rule` file has no `# phase:`
 * header and a ruleset JSON file names no `phase`; the document's own phase wins. Given as an initialization
 * option, pushed with didChangeConfiguration, or pulled with workspace/configuration; an unknown phase is
 * told (window/showMessage) and rules are then checked without a phase. Through the real server over stdio.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DidChangeConfigurationNotification, MessageType } from 'vscode-languageserver-protocol/node.js';
import { startSession, type Session } from './support/harness.js';

const NETWORK = 'magic_transit';
let pushed: Session;
let pulled: Session;

beforeAll(async () => {
  [pushed, pulled] = await Promise.all([
    startSession({ initializationOptions: { logfilter: { defaultPhase: NETWORK } } }),
    startSession({ configuration: { defaultPhase: NETWORK } }),
  ]);
}, 180_000);
afterAll(() => {
  pushed?.stop();
  pulled?.stop();
});

const codesAndRanges = (ds: { code?: unknown; range: unknown }[]) => ds.map((d) => [d.code, d.range]);

describe('default phase for rules', { timeout: 120_000 }, () => {
  it('applies to a .rule file without a phase header: diagnostics and completion', async () => {
    for (const s of [pushed, pulled]) {
      const f = await s.open('<|http.host|> eq "a" or tcp.dstport eq 80', { kind: 'rule' });
      expect(codesAndRanges(await f.diagnostics())).toEqual([['rule-unavailable-in-phase', f.ranges[0]]]);
      const labels = (await s.expectCompletion('tcp.dstport eq 80 or <|>', 'rule')).items.map((i) => i.label);
      expect(labels).toContain('tcp.dstport');
      expect(labels).not.toContain('http.host');
    }
  });

  it('gives way to the file\u2019s own phase (header, ruleset phase)', async () => {
    const header = await pushed.open('# phase: http_request_firewall_custom\nhttp.host eq "a" or <|tcp.dstport|> eq 80', { kind: 'rule' });
    expect(codesAndRanges(await header.diagnostics())).toEqual([['rule-unavailable-in-phase', header.ranges[0]]]);
    const inHeaderPhase = (await pushed.expectCompletion('# phase: http_request_firewall_custom\nhttp.host eq "a" or <|>', 'rule')).items.map((i) => i.label);
    expect(inHeaderPhase).toContain('http.host');
    expect(inHeaderPhase).not.toContain('tcp.dstport');

    const own = await pushed.open('{"phase": "http_request_firewall_custom", "rules": [{"expression": "http.host eq \\"a\\" or <|tcp.dstport|> eq 80"}]}', { kind: 'ruleset.json' });
    expect(codesAndRanges(await own.diagnostics())).toEqual([['rule-unavailable-in-phase', own.ranges[0]]]);
    const none = await pushed.open('{"rules": [{"expression": "<|http.host|> eq \\"a\\" or tcp.dstport eq 80"}]}', { kind: 'ruleset.json' });
    expect(codesAndRanges(await none.diagnostics())).toEqual([['rule-unavailable-in-phase', none.ranges[0]]]);
    const inDefault = (await pushed.expectCompletion('{"rules": [{"expression": "tcp.dstport eq 80 or <|>"}]}', 'ruleset.json')).items.map((i) => i.label);
    expect(inDefault).toContain('tcp.dstport');
    expect(inDefault).not.toContain('http.host');
  });

  it('re-checks open rules when the setting changes; an unknown phase is told and checks go on without one', async () => {
    const f = await pushed.open('http.host eq "a" or tcp.dstport eq 80', { kind: 'rule' });
    expect((await f.diagnostics()).map((d) => d.code)).toEqual(['rule-unavailable-in-phase']);
    const before = pushed.messages.length;
    await pushed.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: { logfilter: { defaultPhase: 'magic_transt' } } });
    expect(await pushed.waitForDiagnostics(f.uri, (d) => d.length === 0)).toEqual([]);
    const told = pushed.messages.slice(before);
    expect(told.map((m) => m.type)).toEqual([MessageType.Warning]);
    expect(told[0].message).toContain('magic_transit');

    // pulled: the client's answer changes, then it says so
    const g = await pulled.open('http.host eq "a" or tcp.dstport eq 80', { kind: 'rule' });
    expect((await g.diagnostics()).map((d) => d.code)).toEqual(['rule-unavailable-in-phase']);
    pulled.configuration.value = { defaultPhase: 'http_request_firewall_custom' };
    await pulled.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    const d = await pulled.waitForDiagnostics(g.uri, (x) => x.length === 1 && x[0].range.start.character > 0);
    expect(d.map((x) => [x.code, x.range.start.character])).toEqual([['rule-unavailable-in-phase', 'http.host eq "a" or '.length]]);
  });

  it('an unknown phase in the initialization options is told too', async () => {
    const s = await startSession({ initializationOptions: { defaultPhase: 'nope' } });
    try {
      const f = await s.open('http.host eq "a" or tcp.dstport eq 80', { kind: 'rule' });
      expect(await f.diagnostics()).toEqual([]);
      expect(s.messages.map((m) => m.type)).toEqual([MessageType.Warning]);
    } finally {
      s.stop();
    }
  });
});
