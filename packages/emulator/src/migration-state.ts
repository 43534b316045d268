/**
 * State of a zone's managed-rule migration (README, "The migration (area E)"). `start` is the only value the API documents;
 * `validation` and `migrated` are this emulator's names for the other two states (documented in the README).
 */
export const MIGRATION_STATES = ['start', 'validation', 'migrated'] as const;
export type MigrationStateName = (typeof MIGRATION_STATES)[number];

export interface MigrationState {
  state: MigrationStateName;
  /** When validation mode began (null outside it). */
  validation_started_at: string | null;
  /** When the zone migrated (null before). */
  migrated_at: string | null;
}

export function initialMigration(): MigrationState {
  return { state: 'start', validation_started_at: null, migrated_at: null };
}
