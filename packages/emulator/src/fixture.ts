/**
 * The fixture file (`--fixture FILE`, `startEmulator({fixture})`): `{"accounts": {"a1": {}}, "zones": {"z1":
 * {"account": "a1", "plan": "enterprise", ...sections}}}`. Each API area reads its own section of a zone
 * (`page_guard`, ...); a section no area knows is left alone, so one file can feed every area. Loaded at start
 * and again on reset.
 */
import { readFileSync } from 'node:fs';
import type { EmulatorState } from './state.js';
import { loadPageGuardFixture } from './page-guard-fixture.js';

import { FixtureError } from './errors.js';

export { FixtureError };

export interface FixtureDocument {
  accounts?: Record<string, Record<string, unknown>>;
  zones?: Record<string, Record<string, unknown>>;
}

/** The areas that read a section of each zone, by section name. */
const ZONE_SECTIONS: Record<string, (section: unknown, where: string, state: EmulatorState, zoneId: string) => void> = {
  page_guard: (section, where, state, zoneId) => {
    state.zones[zoneId].page_guard = loadPageGuardFixture(section, where);
  },
};

export function readFixtureFile(file: string): FixtureDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new FixtureError(`cannot read fixture file ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text) as FixtureDocument;
  } catch (e) {
    throw new FixtureError(`fixture file ${file} is not JSON: ${(e as Error).message}`);
  }
}

/** Puts the fixture's zones into the state; throws FixtureError naming the path of the first bad value. */
export function applyFixture(state: EmulatorState, fixture: unknown): void {
  if (typeof fixture !== 'object' || fixture === null || Array.isArray(fixture)) throw new FixtureError('fixture: must be an object with "zones" (and "accounts")');
  const f = fixture as FixtureDocument;
  if (f.accounts !== undefined && (typeof f.accounts !== 'object' || f.accounts === null || Array.isArray(f.accounts))) throw new FixtureError('accounts: must be an object');
  if (f.zones === undefined) return;
  if (typeof f.zones !== 'object' || f.zones === null || Array.isArray(f.zones)) throw new FixtureError('zones: must be an object keyed by zone id');
  for (const [zoneId, zone] of Object.entries(f.zones)) {
    const where = `zones.${zoneId}`;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(zoneId)) throw new FixtureError(`${where}: "${zoneId}" is not a valid zone id`);
    if (typeof zone !== 'object' || zone === null || Array.isArray(zone)) throw new FixtureError(`${where}: must be an object`);
    if (zone.account !== undefined && (typeof zone.account !== 'string' || (f.accounts && !(zone.account in f.accounts)))) {
      throw new FixtureError(`${where}.account: "${String(zone.account)}" is not an account of the fixture`);
    }
    if (zone.plan !== undefined && typeof zone.plan !== 'string') throw new FixtureError(`${where}.plan: must be a string`);
    state.zones[zoneId] ??= { rulesets: [], jobs: [] };
    for (const [name, load] of Object.entries(ZONE_SECTIONS)) if (zone[name] !== undefined) load(zone[name], `${where}.${name}`, state, zoneId);
  }
}
