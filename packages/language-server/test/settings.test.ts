/**
 * Settings the server cannot use are told (a `window/showMessage` warning, see server.ts), not silently
 * replaced: an editor without a settings schema (Neovim, Helix, Emacs) passes them by hand.
 */
import { describe, expect, it } from 'vitest';
import { readSettings, settingsProblems } from '../src/settings.js';

describe('settingsProblems', () => {
  it('says nothing of good settings, absent ones, or empty strings (the editor default)', () => {
    expect(settingsProblems({ logfilter: { dataset: 'firewall_events', maxOperators: 10, maxBytes: 500, defaultPhase: 'magic_transit' } })).toEqual([]);
    expect(settingsProblems({ dataset: 'any' })).toEqual([]);
    expect(settingsProblems({})).toEqual([]);
    expect(settingsProblems(null)).toEqual([]);
    expect(settingsProblems({ dataset: '', defaultPhase: '' })).toEqual([]);
  });

  it.each([
    [{ dataset: 'firewall_event' }, ['logfilter.dataset', 'firewall_events']],
    [{ logfilter: { dataset: 42 } }, ['logfilter.dataset']],
    [{ maxOperators: 0 }, ['logfilter.maxOperators', '30']],
    [{ maxOperators: '10' }, ['logfilter.maxOperators']],
    [{ maxBytes: 1.5 }, ['logfilter.maxBytes', '1000']],
    [{ maxBytes: -1 }, ['logfilter.maxBytes']],
    [{ defaultPhase: 'magic_transt' }, ['logfilter.defaultPhase', 'magic_transit']],
  ])('tells %j, naming the setting (and what it means instead)', (raw, words) => {
    const problems = settingsProblems(raw);
    expect(problems).toHaveLength(1);
    for (const w of words) expect(problems[0]).toContain(w);
  });

  it('tells every bad setting at once', () => {
    expect(settingsProblems({ dataset: 'x', maxOperators: 'y', maxBytes: 'z', defaultPhase: 'w' })).toHaveLength(4);
  });

  it('uses the defaults for bad limits, as documented', () => {
    expect(readSettings({ maxOperators: 0, maxBytes: 'x' })).toMatchObject({ maxOperators: 30, maxBytes: 1000 });
  });
});
