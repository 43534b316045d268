/**
 * `logfilter waf-legacy …`: the previous managed WAF of a zone (packages, groups, rules, URI-based overrides),
 * mainly to find and delete the overrides that block the migration. These calls stop working once the zone has
 * migrated.
 */
import type { Command } from 'commander';
import { wafLegacy, type WafOverride } from '@logfilter/api';
import type { CliContext } from '../context.js';
import { EXIT_OK } from '../errors.js';
import { apiCall, makeClient, printDryRun, withConnectionOptions, type ConnectionFlags } from '../api/client.js';
import { short, table } from '../api/table.js';

interface LegacyFlags extends ConnectionFlags {
  package?: string;
  dryRun?: boolean;
}

function overrideRows(items: WafOverride[]): string[][] {
  return items.map((o) => [o.id, o.urls.join(', '), Object.entries(o.rules ?? {}).map(([k, v]) => `${k}=${v}`).join(' '), o.paused ? 'yes' : 'no', short(o.description, 40)]);
}

export function registerWafLegacy(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const group = program.command('waf-legacy').description('the previous managed WAF of a zone: packages, groups, rules and URI-based overrides');
  const out = (flags: ConnectionFlags, json: unknown, human: string) => {
    ctx.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : human);
    setExit(EXIT_OK);
  };
  const pkgOption = (c: Command) => c.requiredOption('--package <package_id>', 'WAF package id (see `waf-legacy packages`)');

  withConnectionOptions(group.command('packages').description('list the WAF packages')).action(async (flags: LegacyFlags) => {
    const client = makeClient(ctx, flags);
    const items = await apiCall(`listing the WAF packages of zone ${flags.zone} failed`, () => wafLegacy.listPackages(client, flags.zone));
    out(flags, items, table(['ID', 'NAME', 'DETECTION', 'SENSITIVITY', 'ACTION MODE'], items.map((p) => [p.id, p.name, p.detection_mode ?? '', p.sensitivity ?? '', p.action_mode ?? ''])));
  });

  pkgOption(withConnectionOptions(group.command('groups').description('list the rule groups of a package'))).action(async (flags: LegacyFlags) => {
    const client = makeClient(ctx, flags);
    const items = await apiCall(`listing the groups of package ${flags.package} failed`, () => wafLegacy.listGroups(client, flags.zone, flags.package!));
    out(flags, items, table(['ID', 'NAME', 'MODE', 'RULES'], items.map((g) => [g.id, g.name, g.mode, String(g.rules_count ?? '')])));
  });

  pkgOption(withConnectionOptions(group.command('rules').description('list the rules of a package'))).action(async (flags: LegacyFlags) => {
    const client = makeClient(ctx, flags);
    const items = await apiCall(`listing the rules of package ${flags.package} failed`, () => wafLegacy.listRules(client, flags.zone, flags.package!));
    out(flags, items, table(['ID', 'GROUP', 'MODE', 'DEFAULT', 'DESCRIPTION'], items.map((r) => [r.id, r.group?.name ?? '', r.mode, r.default_mode ?? '', short(r.description, 50)])));
  });

  const overrides = group.command('overrides').description('URI-based overrides (list, get, delete); they block the migration');

  withConnectionOptions(overrides.command('list').description('list the overrides')).action(async (flags: LegacyFlags) => {
    const client = makeClient(ctx, flags);
    const items = await apiCall(`listing the WAF overrides of zone ${flags.zone} failed`, () => wafLegacy.listOverrides(client, flags.zone));
    out(flags, items, items.length === 0 ? `no overrides in zone ${flags.zone}\n` : table(['ID', 'URLS', 'RULES', 'PAUSED', 'DESCRIPTION'], overrideRows(items)));
  });

  withConnectionOptions(overrides.command('get').description('show one override').argument('<override-id>')).action(async (id: string, flags: LegacyFlags) => {
    const client = makeClient(ctx, flags);
    const item = await apiCall(`reading WAF override ${id} failed`, () => wafLegacy.getOverride(client, flags.zone, id));
    out(flags, item, table(['ID', 'URLS', 'RULES', 'PAUSED', 'DESCRIPTION'], overrideRows([item])));
  });

  withConnectionOptions(overrides.command('delete').description('delete an override').argument('<override-id>'))
    .option('--dry-run', 'print the request instead of sending it (credentials redacted)')
    .action(async (id: string, flags: LegacyFlags) => {
      const client = makeClient(ctx, flags);
      if (flags.dryRun) {
        printDryRun(ctx, [client.describeRequest('DELETE', `/zones/${encodeURIComponent(flags.zone)}/firewall/waf/overrides/${encodeURIComponent(id)}`)]);
        return setExit(EXIT_OK);
      }
      await apiCall(`deleting WAF override ${id} failed`, () => wafLegacy.deleteOverride(client, flags.zone, id));
      out(flags, { id, deleted: true }, `deleted WAF override ${id} of zone ${flags.zone}\n`);
    });
}
