/** Shapes of ruleset and rule request bodies, shared by validation and the ruleset logic (no import cycle). */
import type { Rule } from './state.js';

/** A rule as sent: the service assigns version and last_updated, and the id of a new rule. */
export type RuleInput = Omit<Rule, 'id' | 'version' | 'last_updated' | 'description' | 'enabled' | 'ref' | 'categories'> & {
  id?: string;
  description?: string;
  enabled?: boolean;
  ref?: string;
};

/** Where a rule goes: exactly one of before / after / index (README, "Behaviour": `position`). */
export type Position = { before: string } | { after: string } | { index: number };

export interface RulesetInput {
  name?: string;
  kind?: string;
  phase?: string;
  description?: string;
  rules?: RuleInput[];
}
