/**
 * `logfilter waf-legacy …`: the previous managed WAF of a zone (packages, groups, rules, URI-based overrides),
 * mainly to find and delete the overrides that block the migration. These calls stop working once the zone has
 * migrated.
 */
import { Option, type Command } from 'commander';
import { wafLegacy, type WafOverride, type WafOverrideInput } from '@logfilter/api';
import type { CliContext } from '../context.js';
import { EXIT_OK, UsageError } from '../errors.js';
import { readStructured } from '../api/structured-input.js';
import { apiCall, idArg, makeClient, printDryRun, withConnectionOptions, type ConnectionFlags } from '../api/client.js';
import { short, table } from '../api/table.js';
import { confirmDestructive, withYes } from '../api/confirm.js';

interface LegacyFlags extends ConnectionFlags {
  package?: string;
  name?: string;
  mode?: 'on' | 'off';
  group?: string;
  description?: string;
  overridden?: keyof typeof OVERRIDDEN;
  match?: 'all' | 'any';
  dryRun?: boolean;
  sensitivity?: string;
  actionMode?: string;
  file?: string;
  yes?: boolean;
}

/** `--overridden` in words, as the API's rule search takes it (`mode`: DIS, CHL, BLK, SIM). */
const OVERRIDDEN = { disable: 'DIS', challenge: 'CHL', block: 'BLK', simulate: 'SIM' } as const;
const matchOption = () => new Option('--match <how>', 'all searches must match, or any one (the API\'s default: all)').choices(['all', 'any']);

function overrideRows(items: WafOverride[]): string[][] {
  return items.map((o) => [o.id, o.urls.join(', '), Object.entries(o.rules ?? {}).map(([k, v]) => `${k}=${v}`).join(' '), o.paused ? 'yes' : 'no', short(o.description, 40)]);
}

export function registerWafLegacy(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const group = program.command('waf-legacy').description('the previous managed WAF of a zone: packages, groups, rules and URI-based overrides');
  const out = (flags: ConnectionFlags, json: unknown, human: string) => {
    ctx.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : human);
    setExit(EXIT_OK);
  };
  const pkgOption = (c: Command) => c.addOption(new Option('--package <package_id>', 'WAF package id (see `waf-legacy packages`)').argParser(idArg).makeOptionMandatory());

  withConnectionOptions(group.command('packages').description('list the WAF packages'))
    .option('--name <text>', 'only packages whose name holds this text')
    .action(async (flags: LegacyFlags) => {
      const client = makeClient(ctx, flags);
      const items = await apiCall(`listing the WAF packages of zone ${flags.zone} failed`, () => wafLegacy.listPackages(client, flags.zone, { search: { name: flags.name } }));
      out(flags, items, table(['ID', 'NAME', 'DETECTION', 'SENSITIVITY', 'ACTION MODE'], items.map((p) => [p.id, p.name, p.detection_mode ?? '', p.sensitivity ?? '', p.action_mode ?? ''])));
    });

  pkgOption(withConnectionOptions(group.command('groups').description('list the rule groups of a package')))
    .option('--name <text>', 'only groups whose name holds this text')
    .addOption(new Option('--mode <mode>', 'only groups in this mode').choices(['on', 'off']))
    .addOption(matchOption())
    .action(async (flags: LegacyFlags) => {
      const client = makeClient(ctx, flags);
      const items = await apiCall(`listing the groups of package ${flags.package} failed`, () =>
        wafLegacy.listGroups(client, flags.zone, flags.package!, { search: { name: flags.name, mode: flags.mode }, match: flags.match }),
      );
      out(flags, items, table(['ID', 'NAME', 'MODE', 'RULES'], items.map((g) => [g.id, g.name, g.mode, String(g.rules_count ?? '')])));
    });

  pkgOption(withConnectionOptions(group.command('rules').description('list the rules of a package')))
    .option('--group <group_id>', 'only rules of this group')
    .option('--description <text>', 'only rules whose description holds this text')
    .addOption(new Option('--overridden <mode>', 'only rules overridden to this mode (a rule at its default is not)').choices(Object.keys(OVERRIDDEN)))
    .addOption(matchOption())
    .action(async (flags: LegacyFlags) => {
      const client = makeClient(ctx, flags);
      const search = { group_id: flags.group, description: flags.description, mode: flags.overridden === undefined ? undefined : OVERRIDDEN[flags.overridden] };
      const items = await apiCall(`listing the rules of package ${flags.package} failed`, () => wafLegacy.listRules(client, flags.zone, flags.package!, { search, match: flags.match }));
      out(flags, items, table(['ID', 'GROUP', 'MODE', 'DEFAULT', 'DESCRIPTION'], items.map((r) => [r.id, r.group?.name ?? '', r.mode, r.default_mode ?? '', short(r.description, 50)])));
    });

  withConnectionOptions(group.command('package').description('show a package; --sensitivity / --action-mode change the core rule set\'s').argument('<package-id>', '', idArg))
    .option('--sensitivity <level>', 'high, medium, low or off (anomaly packages)')
    .option('--action-mode <mode>', 'simulate, block or challenge (anomaly packages)')
    .action(async (id: string, flags: LegacyFlags) => {
      const client = makeClient(ctx, flags);
      const change = { ...(flags.sensitivity !== undefined ? { sensitivity: flags.sensitivity } : {}), ...(flags.actionMode !== undefined ? { action_mode: flags.actionMode } : {}) };
      const pkg = await apiCall(`${Object.keys(change).length > 0 ? 'changing' : 'reading'} WAF package ${id} failed`, () =>
        Object.keys(change).length > 0 ? wafLegacy.updatePackage(client, flags.zone, id, change) : wafLegacy.getPackage(client, flags.zone, id),
      );
      out(flags, pkg, table(['ID', 'NAME', 'DETECTION', 'SENSITIVITY', 'ACTION MODE'], [[pkg.id, pkg.name, pkg.detection_mode ?? '', pkg.sensitivity ?? '', pkg.action_mode ?? '']]));
    });

  pkgOption(withConnectionOptions(group.command('group-mode').description('turn a rule group on or off').argument('<group-id>', '', idArg).argument('<mode>', 'on or off'))).action(
    async (id: string, mode: string, flags: LegacyFlags) => {
      const client = makeClient(ctx, flags);
      const changed = await apiCall(`changing WAF group ${id} failed`, () => wafLegacy.updateGroup(client, flags.zone, flags.package!, id, mode));
      out(flags, changed, `WAF group ${changed.id} (${changed.name}) is now ${changed.mode}\n`);
    },
  );

  pkgOption(withConnectionOptions(group.command('rule-mode').description('set the mode of a rule (default, disable, simulate, block, challenge; on/off in the core rule set)').argument('<rule-id>', '', idArg).argument('<mode>'))).action(
    async (id: string, mode: string, flags: LegacyFlags) => {
      const client = makeClient(ctx, flags);
      const changed = await apiCall(`changing WAF rule ${id} failed`, () => wafLegacy.updateRule(client, flags.zone, flags.package!, id, mode));
      out(flags, changed, `WAF rule ${changed.id} is now in mode ${changed.mode}\n`);
    },
  );

  const overrides = group.command('overrides').description('URI-based overrides (list, get, delete); they block the migration');

  withConnectionOptions(overrides.command('list').description('list the overrides')).action(async (flags: LegacyFlags) => {
    const client = makeClient(ctx, flags);
    const items = await apiCall(`listing the WAF overrides of zone ${flags.zone} failed`, () => wafLegacy.listOverrides(client, flags.zone));
    out(flags, items, items.length === 0 ? `no overrides in zone ${flags.zone}\n` : table(['ID', 'URLS', 'RULES', 'PAUSED', 'DESCRIPTION'], overrideRows(items)));
  });

  withConnectionOptions(overrides.command('get').description('show one override').argument('<override-id>', '', idArg)).action(async (id: string, flags: LegacyFlags) => {
    const client = makeClient(ctx, flags);
    const item = await apiCall(`reading WAF override ${id} failed`, () => wafLegacy.getOverride(client, flags.zone, id));
    out(flags, item, table(['ID', 'URLS', 'RULES', 'PAUSED', 'DESCRIPTION'], overrideRows([item])));
  });

  withConnectionOptions(overrides.command('create').description('create a URI-based override from a JSON or YAML file {urls, rules, groups, …}'))
    .requiredOption('--file <file>', 'the override as JSON or YAML (- for standard input)')
    .action(async (flags: LegacyFlags) => {
      const { name, value } = await readStructured(flags.file!, ctx);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${name}: expected an override object {urls, rules, groups, …}`);
      const client = makeClient(ctx, flags);
      const created = await apiCall(`creating a WAF override in zone ${flags.zone} failed`, () => wafLegacy.createOverride(client, flags.zone, value as WafOverrideInput));
      out(flags, created, `created WAF override ${created.id} for ${created.urls.join(', ')}\n`);
    });

  withConnectionOptions(withYes(overrides.command('delete').description('delete an override (asks first on a terminal; --yes otherwise)').argument('<override-id>', '', idArg)))
    .option('--dry-run', 'print the request instead of sending it (credentials redacted)')
    .action(async (id: string, flags: LegacyFlags) => {
      await confirmDestructive(ctx, flags, `delete WAF override ${id} of zone ${flags.zone}`);
      const client = makeClient(ctx, flags);
      if (flags.dryRun) {
        printDryRun(ctx, [client.describeRequest('DELETE', `/zones/${encodeURIComponent(flags.zone)}/firewall/waf/overrides/${encodeURIComponent(id)}`)]);
        return setExit(EXIT_OK);
      }
      await apiCall(`deleting WAF override ${id} failed`, () => wafLegacy.deleteOverride(client, flags.zone, id));
      out(flags, { id, deleted: true }, `deleted WAF override ${id} of zone ${flags.zone}\n`);
    });
}
