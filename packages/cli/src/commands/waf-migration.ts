/**
 * `logfilter waf-migration check|plan|start|finish|status --zone Z`: the guided move from the previous managed
 * WAF to the new managed rules (README, "logfilter waf-migration"). `finish` is irreversible: it asks on a terminal,
 * needs --yes otherwise, and --dry-run prints exactly the request it would send.
 */
import { stringify } from 'yaml';
import type { Command } from 'commander';
import {
  checkMigration,
  getMigrationConfig,
  getMigrationStatus,
  migrate,
  migrationRequest,
  MIGRATION_PHASE,
  wafLegacy,
  isUriOverride,
  type ExecuteOverride,
  type LogfilterClient,
  type MigrationConfig,
  type MigrationMode,
  type Rule,
} from '@logfilter/api';
import type { CliContext } from '../context.js';
import { CliError, EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { writeFileAtomic } from '../io.js';
import { apiCall, makeClient, printDryRun, withConnectionOptions, type ConnectionFlags } from '../api/client.js';
import { readStructured, rulesFrom } from '../api/structured-input.js';
import { confirm, isInteractive, withYes } from '../api/confirm.js';
import { shellQuote, short, table } from '../api/table.js';
import path from 'node:path';

interface MigrationFlags extends ConnectionFlags {
  config?: string;
  output?: string;
  validation?: boolean;
  yes?: boolean;
  dryRun?: boolean;
}

/** The overrides of each execute rule as rows: what the new managed rules will do differently from their defaults. */
async function planText(client: LogfilterClient, zone: string, config: MigrationConfig): Promise<string> {
  const parts: string[] = [];
  for (const rule of config.rules) {
    const params = (rule.action_parameters ?? {}) as { id?: string; overrides?: { rules?: ExecuteOverride[]; categories?: { category: string; action?: string; enabled?: boolean }[] } };
    if (rule.action !== 'execute' || typeof params.id !== 'string') {
      parts.push(`rule ${rule.action} (${short(rule.expression)})\n`);
      continue;
    }
    // Names and descriptions of the managed rules make the table readable; without them it still shows ids.
    const managed = await client.getRuleset(zone, params.id).catch(() => undefined);
    const byId = new Map<string, Rule>((managed?.rules ?? []).map((r) => [r.id, r]));
    const overrides = params.overrides?.rules ?? [];
    const categories = params.overrides?.categories ?? [];
    parts.push(`execute ${managed?.name ?? 'ruleset'} ${params.id} when ${rule.expression}${rule.enabled === false ? ' (disabled)' : ''}\n`);
    if (overrides.length === 0 && categories.length === 0) {
      parts.push('  no overrides: every managed rule keeps its default action\n');
      continue;
    }
    const rows = overrides.map((o) => {
      const target = byId.get(o.id);
      return [o.id, target?.ref ?? '', short(target?.description, 44), o.action ?? `(${target?.action ?? 'default'})`, o.enabled === false ? 'no' : 'yes'];
    });
    for (const c of categories) rows.push([`category ${c.category}`, '', '', c.action ?? '(default)', c.enabled === false ? 'no' : 'yes']);
    parts.push(table(['RULE', 'REPLACES', 'DESCRIPTION', 'ACTION', 'ENABLED'], rows).replace(/^(?=.)/gm, '  '));
  }
  return parts.join('');
}

/** The configuration to send: --config FILE, else the one validation mode runs, else the API's proposal. */
async function configFor(ctx: CliContext, client: LogfilterClient, flags: MigrationFlags): Promise<MigrationConfig> {
  if (flags.config !== undefined) {
    const { name, value } = await readStructured(flags.config, ctx);
    const configName = value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { name?: unknown }).name === 'string' ? (value as { name: string }).name : 'default';
    return { name: configName, rules: rulesFrom(value, name) };
  }
  const status = await apiCall(`reading the migration status of zone ${flags.zone} failed`, () => getMigrationStatus(client, flags.zone));
  if (status.migration_state === 'validation') {
    const current = await apiCall(`reading the ${MIGRATION_PHASE} entry point of zone ${flags.zone} failed`, () => client.getEntrypoint(flags.zone, MIGRATION_PHASE));
    return { name: current.name ?? 'default', rules: current.rules.map(({ version: _v, last_updated: _u, categories: _c, ...rule }) => rule) };
  }
  return apiCall(`reading the proposed configuration of zone ${flags.zone} failed`, () => getMigrationConfig(client, flags.zone));
}

export function registerWafMigration(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const group = program.command('waf-migration').description('move a zone from the previous managed WAF to the new managed rules (check, plan, start, finish, status)');
  const out = (flags: ConnectionFlags, json: unknown, human: string, code = EXIT_OK) => {
    ctx.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : human);
    setExit(code);
  };

  withConnectionOptions(group.command('check').description('can the zone migrate? (exit 1 when not, with the reasons)')).action(async (flags: ConnectionFlags) => {
    const client = makeClient(ctx, flags);
    const result = await apiCall(`checking zone ${flags.zone} failed`, () => checkMigration(client, flags.zone));
    if (result.compatible) return out(flags, result, `zone ${flags.zone} can migrate (migration_state ${result.migration_state})\n`);
    const lines = [`zone ${flags.zone} cannot migrate now (migration_state ${result.migration_state}):\n`];
    const reasons = result.reasons ?? [];
    if (reasons.length === 0) lines.push('  the API gives no reason; URI-based overrides of the previous WAF are the usual one\n');
    for (const reason of reasons) lines.push(`  - ${reason.message}\n`);
    // URI-based overrides are the case a user can fix: list them with the command that deletes each one.
    if (result.migration_state !== 'migrated') {
      const overrides = await wafLegacy.listOverrides(client, flags.zone).catch(() => []);
      const blocking = overrides.filter(isUriOverride);
      if (blocking.length > 0) {
        lines.push('URI-based overrides to delete first:\n');
        lines.push(table(['ID', 'URLS', 'DESCRIPTION'], blocking.map((o) => [o.id, o.urls.join(', '), short(o.description, 40)])).replace(/^(?=.)/gm, '  '));
        // one command per override, ready to paste (--yes: deleting is confirmed by running them)
        lines.push('delete them with:\n');
        for (const o of blocking) lines.push(`  logfilter waf-legacy overrides delete ${shellQuote(o.id)} --zone ${shellQuote(flags.zone)} --yes\n`);
      }
    }
    out(flags, result, lines.join(''), EXIT_FAILURE);
  });

  withConnectionOptions(
    group
      .command('plan')
      .description('show the proposed configuration as a table of overrides; --output saves it to edit and pass to start/finish --config')
      .option('--output <file>', 'save the configuration to this file (.yaml/.yml as YAML, else JSON)'),
  )
    .action(async (flags: MigrationFlags) => {
      // an empty name would resolve to the working directory: refused before anything is asked of the API
      if (flags.output === '') throw new UsageError('--output must name a file');
      const client = makeClient(ctx, flags);
      const config = await apiCall(`reading the proposed configuration of zone ${flags.zone} failed`, () => getMigrationConfig(client, flags.zone));
      if (flags.output !== undefined) {
        const yaml = /\.ya?ml$/i.test(flags.output);
        await writeFileAtomic(path.resolve(ctx.cwd, flags.output), yaml ? stringify(config) : `${JSON.stringify(config, null, 2)}\n`);
      }
      const saved = flags.output !== undefined ? `saved to ${flags.output}; edit it and pass it with --config\n` : '';
      out(flags, config, `proposed configuration "${config.name}" for zone ${flags.zone}:\n${await planText(client, flags.zone, config)}${saved}`);
    });

  /** start --validation and finish share this: the configuration, the request, a dry run or the call. */
  const run = async (flags: MigrationFlags, mode: MigrationMode) => {
    const mustConfirm = mode === 'pending' && !flags.yes && !flags.dryRun;
    // Refused before any call: a script without --yes learns it at once, and nothing is read or sent.
    if (mustConfirm && !isInteractive(ctx)) throw new UsageError('finish is irreversible: confirm on a terminal, or pass --yes (see exactly what is sent with --dry-run)');
    const client = makeClient(ctx, flags);
    const config = await configFor(ctx, client, flags);
    const request = migrationRequest(flags.zone, config, mode);
    if (flags.dryRun) {
      printDryRun(ctx, [client.describeRequest(request.method, request.path, request.body)]);
      return setExit(EXIT_OK);
    }
    if (mustConfirm) {
      const question = `finishing the migration of zone ${flags.zone} is irreversible: the previous WAF is disabled and its API stops working. Continue?`;
      if (!(await confirm(ctx, question))) throw new CliError('not confirmed; nothing was sent', EXIT_FAILURE);
    }
    const entry = await apiCall(`${mode === 'validation' ? 'starting validation mode' : 'finishing the migration'} of zone ${flags.zone} failed`, () => migrate(client, flags.zone, config, mode));
    const status = await apiCall(`reading the migration status of zone ${flags.zone} failed`, () => getMigrationStatus(client, flags.zone));
    const human =
      mode === 'validation'
        ? `zone ${flags.zone} is in validation mode: the new managed rules run first, the previous ones still run (entry point ${entry.id} version ${entry.version})\n`
        : `zone ${flags.zone} has migrated: the new managed rules run, the previous WAF is disabled (entry point ${entry.id} version ${entry.version})\n`;
    out(flags, { entrypoint: entry, status }, human);
  };

  withConnectionOptions(group.command('start').description('start validation mode (Enterprise): new and previous rules both run, the new first'))
    .option('--validation', 'validation mode (required: the final switch is `finish`)')
    .option('--config <file>', 'the configuration to send (JSON or YAML, e.g. from plan --output); default: the proposed one')
    .option('--dry-run', 'print the request instead of sending it (credentials redacted)')
    .action(async (flags: MigrationFlags) => {
      if (!flags.validation) throw new UsageError('start needs --validation (Enterprise zones); to switch over for good use `logfilter waf-migration finish`');
      await run(flags, 'validation');
    });

  withYes(withConnectionOptions(group.command('finish').description('switch the zone to the new managed rules for good (irreversible)')))
    .option('--config <file>', 'the configuration to send (JSON or YAML); default: the one validation mode runs, else the proposed one')
    .option('--dry-run', 'print exactly the request that would be sent, and send nothing')
    .action(async (flags: MigrationFlags) => run(flags, 'pending'));

  withConnectionOptions(group.command('status').description('the migration state and which rules run')).action(async (flags: ConnectionFlags) => {
    const client = makeClient(ctx, flags);
    const status = await apiCall(`reading the migration status of zone ${flags.zone} failed`, () => getMigrationStatus(client, flags.zone));
    const text = Object.entries(status)
      .map(([k, v]) => `${`${k}:`.padEnd(23)}${v === null || v === undefined ? '-' : typeof v === 'object' ? (Array.isArray(v) ? v.join(', ') : JSON.stringify(v)) : String(v)}\n`)
      .join('');
    out(flags, status, text);
  });
}
