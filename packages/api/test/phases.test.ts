/** The phases the client checks before sending are the ones the emulator (the API's stand-in) takes. */
import { describe, expect, it } from 'vitest';
import { PHASES } from '@logfilter/emulator';
import { RULESET_PHASES } from '../src/index.js';

describe('RULESET_PHASES', () => {
  it('is the emulator\'s table of phases', () => {
    expect([...RULESET_PHASES].sort()).toEqual([...PHASES].sort());
  });
});
