/**
 * `--zone Z` or `--account A`: where the rulesets commands act (the API's two scopes). Exactly one is needed.
 */
import { Option, type Command } from 'commander';
import type { Scope } from '@logfilter/api';
import { UsageError } from '../errors.js';
import { idArg, withClientOptions, type ClientFlags } from './client.js';

export interface ScopeFlags extends ClientFlags {
  zone?: string;
  account?: string;
}

export function withScopeOptions(cmd: Command): Command {
  return withClientOptions(
    cmd.addOption(new Option('--zone <zone_id>', 'act on this zone').argParser(idArg)).addOption(new Option('--account <account_id>', 'act on this account (instead of --zone)').argParser(idArg)),
  );
}

export function scopeOf(flags: ScopeFlags): Scope {
  if (flags.zone !== undefined && flags.account !== undefined) throw new UsageError('give --zone or --account, not both');
  if (flags.zone !== undefined) return { zone: flags.zone };
  if (flags.account !== undefined) return { account: flags.account };
  throw new UsageError('give --zone <zone_id> or --account <account_id>');
}

/** "zone Z" / "account A", for messages. */
export function scopeLabel(scope: Scope): string {
  if (typeof scope === 'string') return `zone ${scope}`;
  return 'zone' in scope ? `zone ${scope.zone}` : `account ${scope.account}`;
}
