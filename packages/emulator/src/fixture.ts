/**
 * The fixture file: zones and accounts to start from, for tests and for users' own offline test beds. The file's
 * top level (`zones`, `accounts`, a zone's `account` and `plan`) is read here; every other key of a zone belongs to
 * an API area, which registers it (routing.ts `zoneFixture`), so one file serves every area. Every error names the
 * place in the file (`zones.z1.waf.overrides[0].urls`) and what is wrong.
 */
import { PLANS, emptyState, newAccount, newZone, setOwn, type EmulatorState, type Plan } from './state.js';
import type { Area } from './routing.js';
import { clip } from './errors.js';
import { MAX_DEPTH, tooDeep } from './depth.js';

export class FixtureError extends Error {}

export type Warn = (message: string) => void;

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Readers of fixture values: each returns the value, or throws FixtureError naming `at`. */
export const read = {
  object(value: unknown, at: string): Record<string, unknown> {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new FixtureError(`${at}: must be an object`);
    return value as Record<string, unknown>;
  },
  array(value: unknown, at: string): unknown[] {
    if (!Array.isArray(value)) throw new FixtureError(`${at}: must be an array`);
    return value;
  },
  string(value: unknown, at: string, fallback?: string): string {
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value !== 'string') throw new FixtureError(`${at}: must be a string`);
    return value;
  },
  /** Ids may be given as numbers in hand-written files ("rules": {"100015": …} keys, `"id": 7`). */
  id(value: unknown, at: string, fallback: () => string): string {
    if (value === undefined) return fallback();
    if (typeof value === 'number' && Number.isInteger(value)) return String(value);
    if (typeof value !== 'string' || value === '') throw new FixtureError(`${at}: must be a non-empty string`);
    return value;
  },
  boolean(value: unknown, at: string, fallback: boolean): boolean {
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') throw new FixtureError(`${at}: must be true or false`);
    return value;
  },
  integer(value: unknown, at: string, fallback: number): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new FixtureError(`${at}: must be an integer`);
    return value;
  },
  oneOf<T extends string>(value: unknown, at: string, allowed: readonly T[], fallback: T): T {
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw new FixtureError(`${at}: must be one of ${allowed.join(', ')}`);
    return value as T;
  },
  /**
   * Keys a section does not know are ignored with a warning (a typo would otherwise silently give the default,
   * while refusing them would break fixtures that carry more than the emulator reads, e.g. copied API objects).
   */
  keys(value: Record<string, unknown>, at: string, known: readonly string[], warn: Warn): void {
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) warn(`${at}.${key}: unknown key, ignored (known here: ${known.length > 0 ? known.join(', ') : 'none'})`);
    }
  },
  /** A priority or other integer, also when written as a string of digits (as the previous API answers them). */
  integerLike(value: unknown, at: string, fallback: number): number {
    if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) return Number(value);
    return read.integer(value, at, fallback);
  },
};

const ZONE_KEYS = ['account', 'plan'] as const;

/** What a zone id the emulator does not have is: an empty zone created on first use, or refused as the provider refuses it. */
export const UNLISTED_ZONES = ['create', 'refuse'] as const;
export type UnlistedZones = (typeof UNLISTED_ZONES)[number];

/** The fixture's top-level `unlisted_zones` (default `create`); a value outside the two stops the start. */
export function unlistedZones(fixture: unknown): UnlistedZones {
  if (fixture === null || typeof fixture !== 'object' || Array.isArray(fixture)) return 'create';
  return read.oneOf<UnlistedZones>((fixture as Record<string, unknown>).unlisted_zones, 'unlisted_zones', UNLISTED_ZONES, 'create');
}


/**
 * Builds the starting state from a parsed fixture. Zones and accounts it does not name behave as before: created
 * on first use, zones on the Enterprise plan. A zone's `account` is created if the fixture has no such account.
 */
export function stateFromFixture(fixture: unknown, areas: readonly Area[], warn: Warn = () => {}): EmulatorState {
  const deep = tooDeep(fixture, 'fixture');
  if (deep) throw new FixtureError(`${deep}: nested more than ${MAX_DEPTH} levels deep`);
  const state = emptyState();
  const top = read.object(fixture, 'fixture');
  read.keys(top, 'fixture', ['zones', 'accounts', 'unlisted_zones'], warn);
  unlistedZones(top);
  const hooks = areas.flatMap((area) => (area.zoneFixture ? [area.zoneFixture] : []));
  const zoneKeys = [...ZONE_KEYS, ...hooks.flatMap((hook) => hook.keys)];
  for (const [accountId, raw] of Object.entries(read.object(top.accounts ?? {}, 'accounts'))) {
    if (!ID.test(accountId)) throw new FixtureError(`accounts.${clip(accountId)}: not a valid account id (letters, digits, - and _)`);
    read.keys(read.object(raw, `accounts.${accountId}`), `accounts.${accountId}`, [], warn);
    setOwn(state.accounts, accountId, newAccount());
  }
  for (const [zoneId, raw] of Object.entries(read.object(top.zones ?? {}, 'zones'))) {
    const at = `zones.${zoneId}`;
    if (!ID.test(zoneId)) throw new FixtureError(`zones.${clip(zoneId)}: not a valid zone id (letters, digits, - and _)`);
    const fields = read.object(raw, at);
    read.keys(fields, at, zoneKeys, warn);
    const zone = newZone();
    // Plans are names: "Enterprise" is read as enterprise.
    zone.plan = read.oneOf<Plan>(typeof fields.plan === 'string' ? fields.plan.toLowerCase() : fields.plan, `${at}.plan`, PLANS, 'enterprise');
    if (fields.account !== undefined) {
      zone.account = read.string(fields.account, `${at}.account`);
      if (!ID.test(zone.account)) throw new FixtureError(`${at}.account: not a valid account id (letters, digits, - and _; "${clip(zone.account)}")`);
      if (!Object.hasOwn(state.accounts, zone.account)) setOwn(state.accounts, zone.account, newAccount());
    }
    for (const hook of hooks) hook.apply(fields, zone, at, warn);
    setOwn(state.zones, zoneId, zone);
  }
  return state;
}
