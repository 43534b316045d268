/**
 * The managed-rule migration (emulator README, "The migration (area E)"): compatibility check, proposed
 * configuration, status, and the entry point update with waf_migration that moves the zone. Irreversible.
 */
import type { CallOptions, LogfilterClient } from './client.js';
import { seg } from './client.js';
import type { RuleInput, Ruleset } from './types.js';

export const MIGRATION_PHASE = 'http_request_firewall_managed';

/** `pending` (also `1`): the new configuration, previous rules disabled; `validation` (also `2`): both run, Enterprise only. */
export type MigrationMode = 'pending' | 'validation';
const MODE_ALIASES: Record<string, MigrationMode> = { pending: 'pending', '1': 'pending', validation: 'validation', '2': 'validation' };

/** Reads a user's mode (`pending`, `validation`, `1`, `2`); undefined when it is none of them. */
export function parseMigrationMode(value: string): MigrationMode | undefined {
  return Object.hasOwn(MODE_ALIASES, value) ? MODE_ALIASES[value] : undefined;
}

export interface MigrationBlocker {
  code: string;
  message: string;
  override_ids?: string[];
}

export interface MigrationCheck {
  compatible: boolean;
  migration_state: string;
  /** Why not (emulator and later API versions); absent from some answers. */
  reasons?: MigrationBlocker[];
}

export interface ExecuteOverride {
  id: string;
  action?: string;
  enabled?: boolean;
  score_threshold?: number;
  sensitivity_level?: string;
}

/** The proposed configuration: sendable back unchanged as the entry point body. */
export interface MigrationConfig {
  name: string;
  rules: RuleInput[];
}

export interface MigrationStatus {
  migration_state: string;
  old_waf_status?: string;
  new_waf_status?: string;
  [field: string]: unknown;
}

const base = (zone: string) => `/zones/${seg(zone)}/waf_migration`;

export async function checkMigration(client: LogfilterClient, zone: string, opts: CallOptions = {}): Promise<MigrationCheck> {
  return (await client.request<MigrationCheck>('GET', `${base(zone)}/check?phase_two=1`, 'migrationCheck', opts)).result;
}

export async function getMigrationConfig(client: LogfilterClient, zone: string, opts: CallOptions = {}): Promise<MigrationConfig> {
  return (await client.request<MigrationConfig>('GET', `${base(zone)}/config?phase_two=1`, 'migrationConfig', opts)).result;
}

export async function getMigrationStatus(client: LogfilterClient, zone: string, opts: CallOptions = {}): Promise<MigrationStatus> {
  return (await client.request<MigrationStatus>('GET', `${base(zone)}/status`, 'migrationStatus', opts)).result;
}

/** The request `migrate` sends, for dry runs: method, path with its query, body. */
export function migrationRequest(zone: string, config: MigrationConfig, mode: MigrationMode) {
  return {
    method: 'PUT',
    path: `/zones/${seg(zone)}/rulesets/phases/${MIGRATION_PHASE}/entrypoint?waf_migration=${mode}&phase_two=1`,
    body: { name: config.name, rules: config.rules },
  };
}

/** Saves `config` as the zone's managed-rules entry point and moves the migration (`validation`, or `pending` = final). */
export async function migrate(client: LogfilterClient, zone: string, config: MigrationConfig, mode: MigrationMode, opts: CallOptions = {}): Promise<Ruleset> {
  const req = migrationRequest(zone, config, mode);
  return (await client.request<Ruleset>(req.method, req.path, 'ruleset', { ...opts, body: req.body })).result;
}
