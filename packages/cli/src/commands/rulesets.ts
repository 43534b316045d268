/**
 * `logfilter rulesets …`: rulesets of a zone (`--zone Z`) or an account (`--account A`), their versions, their
 * rules and the phase entry points (README, "logfilter rulesets"). Rules come from a JSON or YAML file; output is a human
 * table, or the API's objects with `--json`; writes take `--dry-run` (the request, credentials redacted).
 */
import { refuseInvalidExpressions, type ExpressionSource } from '../rules-check.js';
import { Option, type Command } from 'commander';
import { ApiError, RULE_ACTIONS, scopePath, type CreateRulesetInput, type LogfilterClient, type RuleInput, type RulePosition, type Ruleset, type RulesetSummary, type Scope } from '@logfilter/api';
import type { CliContext } from '../context.js';
import { CliError, EXIT_CONFLICT, EXIT_OK, UsageError } from '../errors.js';
import { enableFlag, phaseOption, positiveInt } from '../options.js';
import { oneOf } from '../did-you-mean.js';
import { confirmDestructive, withYes } from '../api/confirm.js';
import { apiCall, idArg, makeClient, printDryRun } from '../api/client.js';
import { scopeLabel, scopeOf, withScopeOptions, type ScopeFlags } from '../api/scope.js';
import { readStructured, ruleFrom, rulesFrom, rulesetFieldsFrom } from '../api/structured-input.js';
import { short, table } from '../api/table.js';

interface RulesetFlags extends ScopeFlags {
  file?: string;
  expectVersion?: string;
  force?: boolean;
  name?: string;
  kind?: string;
  phase?: string;
  description?: string;
  tag?: string;
  dryRun?: boolean;
  yes?: boolean;
  action?: string;
  expression?: string;
  disabled?: boolean;
  enabled?: boolean;
  enable?: boolean;
  disable?: boolean;
  before?: string;
  after?: string;
  index?: number;
}

const KINDS = ['custom', 'zone', 'root', 'managed'];

function summaryTable(items: RulesetSummary[]): string {
  return table(
    ['ID', 'NAME', 'KIND', 'PHASE', 'VERSION', 'LAST UPDATED'],
    items.map((r) => [r.id, r.name ?? '', r.kind ?? '', r.phase ?? '', r.version ?? '', r.last_updated ?? '']),
  );
}

export function rulesetText(rs: Ruleset): string {
  const head = [
    ['id', rs.id],
    ['name', rs.name ?? ''],
    ['kind', rs.kind ?? ''],
    ['phase', rs.phase ?? ''],
    ['version', rs.version ?? ''],
    ['last updated', rs.last_updated ?? ''],
    ...(rs.description ? [['description', rs.description]] : []),
  ]
    .map(([k, v]) => `${`${k}:`.padEnd(14)}${v}\n`)
    .join('');
  if (rs.rules.length === 0) return `${head}rules:        none\n`;
  const rows = rs.rules.map((r, i) => [String(i + 1), r.id, r.action, r.enabled === false ? 'no' : 'yes', short(r.description, 40), short(r.expression)]);
  return `${head}rules:\n${table(['#', 'ID', 'ACTION', 'ENABLED', 'DESCRIPTION', 'EXPRESSION'], rows).replace(/^(?=.)/gm, '  ')}`;
}

/** --before / --after / --index: at most one (the API takes exactly one); "" for --before means first, for --after last. */
function positionOf(flags: RulesetFlags, required: boolean): RulePosition | undefined {
  const given = [flags.before !== undefined, flags.after !== undefined, flags.index !== undefined].filter(Boolean).length;
  if (given > 1) throw new UsageError('give only one of --before, --after, --index');
  if (flags.before !== undefined) return { before: flags.before };
  if (flags.after !== undefined) return { after: flags.after };
  if (flags.index !== undefined) return { index: flags.index };
  if (required) throw new UsageError('give where to move the rule: --before <rule_id>, --after <rule_id> or --index <n>');
  return undefined;
}

function withPosition(cmd: Command): Command {
  return cmd
    .option('--before <rule_id>', 'place the rule before this rule ("" = first)')
    .option('--after <rule_id>', 'place the rule after this rule ("" = last)')
    .addOption(new Option('--index <n>', 'place the rule at this 1-based position').argParser(positiveInt));
}

function withRuleFields(cmd: Command): Command {
  return cmd
    .option('--file <file>', 'the rule as JSON or YAML (- for standard input)')
    .option('--action <action>', 'rule action (block, log, execute, skip, …)', (v: string) => oneOf('--action', v, RULE_ACTIONS, 'action'))
    .option('--expression <expr>', 'rule expression')
    .option('--description <text>', 'rule description')
    .addOption(new Option('--enable', 'the rule is enabled'))
    .addOption(new Option('--disable', 'the rule is disabled'))
    .addOption(new Option('--enabled').hideHelp())
    .addOption(new Option('--disabled').hideHelp());
}

/**
 * A rule from --file and/or the flags (flags win over the file's fields), and where its expressions were
 * written (the file, the --expression flag) for the check before sending.
 */
async function ruleInput(ctx: CliContext, flags: RulesetFlags, partial: boolean, sources: ExpressionSource[]): Promise<Partial<RuleInput>> {
  let rule: Partial<RuleInput> = {};
  if (flags.file !== undefined) {
    const { name, value, text, format } = await readStructured(flags.file, ctx);
    // the file may leave out what the flags give (and, for update, anything not changed)
    rule = ruleFrom(value, name, true);
    sources.push({ name, text, format, rule: true });
  }
  if (flags.expression !== undefined) sources.push({ name: '--expression', expression: flags.expression });
  const enabled = enableFlag(flags);
  if (flags.action !== undefined) rule.action = flags.action;
  if (flags.expression !== undefined) rule.expression = flags.expression;
  if (flags.description !== undefined) rule.description = flags.description;
  if (enabled !== undefined) rule.enabled = enabled;
  if (!partial && (rule.action === undefined || rule.expression === undefined)) {
    throw new UsageError('a rule needs an action and an expression: give --file, or --action and --expression');
  }
  return rule;
}

/** The `version` a ruleset file names (a ruleset as `rulesets get --json` prints it), if any. */
function baseVersion(value: unknown, name: string): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const version = (value as { version?: unknown }).version;
  if (version === undefined) return undefined;
  if ((typeof version === 'string' && /^[0-9]+$/.test(version)) || (typeof version === 'number' && Number.isInteger(version) && version > 0)) return String(version);
  throw new UsageError(`${name}: version: must be a version number such as "3"`);
}

export function registerRulesets(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const rulesets = program.command('rulesets').description('rulesets of a zone or an account: list, get, create, update, delete, versions, rules, entry points');
  const out = (flags: ScopeFlags, json: unknown, human: string) => {
    ctx.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : human);
    setExit(EXIT_OK);
  };
  /** Runs a write, or with --dry-run prints the request it would send. */
  const write = async <T>(flags: RulesetFlags, client: LogfilterClient, method: string, path: string, body: unknown, what: string, send: () => Promise<T>, sources?: ExpressionSource[]): Promise<T | undefined> => {
    // every expression is checked first, where the user wrote it (file, flag): an invalid one is refused here
    const phase = (body as { phase?: unknown } | undefined)?.phase ?? flags.phase;
    const check = sources ?? (body !== undefined ? [{ name: 'request body', body }] : []);
    // a --phase flag is what is sent (create, entrypoint put): it wins over a phase the file names
    refuseInvalidExpressions(ctx, check, typeof phase === 'string' ? { phase, phaseWins: flags.phase !== undefined } : {});
    if (flags.dryRun) {
      printDryRun(ctx, [client.describeRequest(method, path, body)]);
      setExit(EXIT_OK);
      return undefined;
    }
    return apiCall(what, send);
  };
  const cmd = (parent: Command, name: string, description: string) => withScopeOptions(parent.command(name).description(description));
  const dryRun = (c: Command) => c.option('--dry-run', 'print the request instead of sending it (credentials redacted)');
  const setup = (flags: ScopeFlags): [Scope, LogfilterClient] => [scopeOf(flags), makeClient(ctx, flags)];

  cmd(rulesets, 'list', 'list the rulesets (all pages)').action(async (flags: ScopeFlags) => {
    const [scope, client] = setup(flags);
    const items = await apiCall(`listing the rulesets of ${scopeLabel(scope)} failed`, () => client.listAllRulesets(scope));
    out(flags, items, items.length === 0 ? `no rulesets in ${scopeLabel(scope)}\n` : summaryTable(items));
  });

  // Older versions are `rulesets version <id> <version>`: a --version flag would be the program's own.
  cmd(rulesets, 'get', 'show a ruleset with its rules (the latest version)')
    .argument('<ruleset-id>', '', idArg)
    .action(async (id: string, flags: RulesetFlags) => {
      const [scope, client] = setup(flags);
      const rs = await apiCall(`reading ruleset ${id} of ${scopeLabel(scope)} failed`, () => client.getRuleset(scope, id));
      out(flags, rs, rulesetText(rs));
    });

  dryRun(
    cmd(rulesets, 'create', 'create a ruleset (fields from --file and/or flags; rules from --file)')
      .option('--file <file>', 'the ruleset as JSON or YAML: {name, kind, phase, description, rules} (- for standard input)')
      .option('--name <name>', 'ruleset name')
      .addOption(new Option('--kind <kind>', 'ruleset kind').choices(KINDS))
      .addOption(phaseOption('phase (e.g. http_request_firewall_custom)'))
      .option('--description <text>', 'description'),
  ).action(async (flags: RulesetFlags) => {
    const [scope, client] = setup(flags);
    let body: Partial<CreateRulesetInput> = {};
    const sources: ExpressionSource[] = [];
    if (flags.file !== undefined) {
      const { name, value, text, format } = await readStructured(flags.file, ctx);
      sources.push({ name, text, format });
      if (value === null || typeof value !== 'object') throw new UsageError(`${name}: expected a ruleset object {name, kind, phase, rules} or a list of rules`);
      body = { ...rulesetFieldsFrom(value, name), ...(Array.isArray(value) || (value as { rules?: unknown })?.rules !== undefined ? { rules: rulesFrom(value, name) } : {}) };
    }
    for (const field of ['name', 'kind', 'phase', 'description'] as const) if (flags[field] !== undefined) body[field] = flags[field];
    for (const field of ['name', 'kind', 'phase'] as const) if (body[field] === undefined) throw new UsageError(`a ruleset needs a ${field}: give --${field} or put it in --file`);
    const full = body as CreateRulesetInput;
    const rs = await write(flags, client, 'POST', `${scopePath(scope)}/rulesets`, full, `creating a ruleset in ${scopeLabel(scope)} failed`, () => client.createRuleset(scope, full), sources);
    if (rs) out(flags, rs, `created ruleset ${rs.id} (${rs.name}, ${rs.kind}, ${rs.phase}) in ${scopeLabel(scope)}\n`);
  });

  dryRun(
    withYes(cmd(rulesets, 'update', 'replace ALL rules of a ruleset with those of --file (a new version; asks first when rules would be dropped)'))
      .argument('<ruleset-id>', '', idArg)
      .requiredOption('--file <file>', 'the rules as JSON or YAML: a list, or an object with "rules" (- for standard input)')
      .option('--description <text>', 'new description')
      .option('--expect-version <version>', 'the version the change was made on (default: the "version" of --file, as `rulesets get --json` writes it); exit 3 if the ruleset has moved since')
      .option('--force', 'replace the rules even if the ruleset has moved since that version'),
  ).action(async (id: string, flags: RulesetFlags) => {
    const [scope, client] = setup(flags);
    const { name, value, text, format } = await readStructured(flags.file!, ctx);
    const fields = rulesetFieldsFrom(value, name);
    const body = { ...fields, ...(flags.description !== undefined ? { description: flags.description } : {}), rules: rulesFrom(value, name) };
    // The API takes a whole-ruleset PUT with no precondition: another writer's change since the version edited would
    // be dropped silently. So the version edited is read back first (a window of one round trip remains).
    if (flags.expectVersion !== undefined && !/^[0-9]+$/.test(flags.expectVersion)) throw new UsageError(`--expect-version: must be a version number such as 3, not "${short(flags.expectVersion)}"`);
    const base = flags.expectVersion ?? baseVersion(value, name);
    const checkVersion = base !== undefined && !flags.force && !flags.dryRun;
    // Fewer rules than the ruleset has drops rules (an empty file would drop them all): confirmed like a delete.
    const checkDrop = !flags.yes && !flags.dryRun;
    // an invalid expression is refused before anything is read or sent
    if (checkVersion || checkDrop) refuseInvalidExpressions(ctx, [{ name, text, format }], typeof body.phase === 'string' ? { phase: body.phase } : {});
    if (checkVersion || checkDrop) {
      const now = await apiCall(`reading ruleset ${id} of ${scopeLabel(scope)} failed`, () => client.getRuleset(scope, id));
      if (checkVersion && now.version !== base) {
        throw new CliError(
          `ruleset ${id} of ${scopeLabel(scope)} is at version ${now.version}, not ${base} (the version this change was made on): someone changed it meanwhile, and replacing ALL its rules would drop that change. Read it again (rulesets get --json) and redo the change, or pass --force to replace version ${now.version}`,
          EXIT_CONFLICT,
        );
      }
      if (checkDrop && body.rules.length < now.rules.length) {
        await confirmDestructive(ctx, flags, `replacing the ${now.rules.length} rule(s) of ruleset ${id} with ${body.rules.length} (dropping ${now.rules.length - body.rules.length})`);
      }
    }
    const rs = await write(flags, client, 'PUT', `${scopePath(scope)}/rulesets/${encodeURIComponent(id)}`, body, `updating ruleset ${id} of ${scopeLabel(scope)} failed`, () => client.updateRuleset(scope, id, body), [{ name, text, format }]);
    if (rs) out(flags, rs, `ruleset ${rs.id} is now at version ${rs.version} with ${rs.rules.length} rule(s)\n`);
  });

  dryRun(withYes(cmd(rulesets, 'delete', 'delete a ruleset and all its versions (asks first on a terminal; --yes otherwise)').argument('<ruleset-id>', '', idArg))).action(async (id: string, flags: RulesetFlags) => {
    const [scope, client] = setup(flags);
    await confirmDestructive(ctx, flags, `delete ruleset ${id} of ${scopeLabel(scope)} and all its versions`);
    const path = `${scopePath(scope)}/rulesets/${encodeURIComponent(id)}`;
    const done = await write(flags, client, 'DELETE', path, undefined, `deleting ruleset ${id} of ${scopeLabel(scope)} failed`, async () => (await client.deleteRuleset(scope, id), true));
    if (done) out(flags, { id, deleted: true }, `deleted ruleset ${id}\n`);
  });

  cmd(rulesets, 'versions', 'list the versions of a ruleset, newest first')
    .argument('<ruleset-id>', '', idArg)
    .action(async (id: string, flags: RulesetFlags) => {
      const [scope, client] = setup(flags);
      const items = await apiCall(`listing the versions of ruleset ${id} failed`, () => client.listRulesetVersions(scope, id));
      out(flags, items, table(['VERSION', 'LAST UPDATED', 'NAME'], items.map((v) => [v.version ?? '', v.last_updated ?? '', v.name ?? ''])));
    });

  cmd(rulesets, 'version', 'show one version of a ruleset (with --tag: only the rules of that category)')
    .argument('<ruleset-id>', '', idArg)
    .argument('<version>', '', idArg)
    .option('--tag <tag>', 'only the rules whose categories hold this tag')
    .action(async (id: string, version: string, flags: RulesetFlags) => {
      const [scope, client] = setup(flags);
      const rs = await apiCall(`reading version ${version} of ruleset ${id} failed`, () =>
        flags.tag !== undefined ? client.getRulesetVersionByTag(scope, id, version, flags.tag) : client.getRulesetVersion(scope, id, version),
      );
      out(flags, rs, rulesetText(rs));
    });

  dryRun(withYes(cmd(rulesets, 'delete-version', 'delete one version of a ruleset (not the only one, nor one an execute rule runs)').argument('<ruleset-id>', '', idArg).argument('<version>', '', idArg))).action(
    async (id: string, version: string, flags: RulesetFlags) => {
      const [scope, client] = setup(flags);
      await confirmDestructive(ctx, flags, `delete version ${version} of ruleset ${id}`);
      const path = `${scopePath(scope)}/rulesets/${encodeURIComponent(id)}/versions/${encodeURIComponent(version)}`;
      const done = await write(flags, client, 'DELETE', path, undefined, `deleting version ${version} of ruleset ${id} failed`, async () => (await client.deleteRulesetVersion(scope, id, version), true));
      if (done) out(flags, { id, version, deleted: true }, `deleted version ${version} of ruleset ${id}\n`);
    },
  );

  const rules = rulesets.command('rules').description('add, update, move and delete single rules of a ruleset');
  const rulePath = (scope: Scope, id: string, ruleId?: string) => `${scopePath(scope)}/rulesets/${encodeURIComponent(id)}/rules${ruleId !== undefined ? `/${encodeURIComponent(ruleId)}` : ''}`;

  dryRun(withPosition(withRuleFields(cmd(rules, 'add', 'add a rule (last, or where --before/--after/--index say)').argument('<ruleset-id>', '', idArg)))).action(
    async (id: string, flags: RulesetFlags) => {
      const [scope, client] = setup(flags);
      const position = positionOf(flags, false);
      const sources: ExpressionSource[] = [];
      const body = { ...((await ruleInput(ctx, flags, false, sources)) as RuleInput), ...(position ? { position } : {}) };
      const rs = await write(flags, client, 'POST', rulePath(scope, id), body, `adding a rule to ruleset ${id} failed`, () => client.addRule(scope, id, body), sources);
      if (rs) {
        const added = position ? undefined : rs.rules[rs.rules.length - 1];
        out(flags, rs, `${added ? `added rule ${added.id}` : 'added the rule'}; ruleset ${rs.id} is now at version ${rs.version}\n${rulesetText(rs)}`);
      }
    },
  );

  dryRun(withPosition(withRuleFields(cmd(rules, 'update', 'change fields of a rule (and move it with --before/--after/--index)').argument('<ruleset-id>', '', idArg).argument('<rule-id>', '', idArg)))).action(
    async (id: string, ruleId: string, flags: RulesetFlags) => {
      const [scope, client] = setup(flags);
      const position = positionOf(flags, false);
      const sources: ExpressionSource[] = [];
      const body = { ...(await ruleInput(ctx, flags, true, sources)), ...(position ? { position } : {}) };
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --file, rule fields (--action, --expression, …) or a position');
      const rs = await write(flags, client, 'PATCH', rulePath(scope, id, ruleId), body, `updating rule ${ruleId} failed`, () => client.updateRule(scope, id, ruleId, body), sources);
      if (rs) out(flags, rs, `updated rule ${ruleId}; ruleset ${rs.id} is now at version ${rs.version}\n${rulesetText(rs)}`);
    },
  );

  dryRun(withPosition(cmd(rules, 'move', 'move a rule: --before <rule_id>, --after <rule_id> or --index <n>').argument('<ruleset-id>', '', idArg).argument('<rule-id>', '', idArg))).action(
    async (id: string, ruleId: string, flags: RulesetFlags) => {
      const [scope, client] = setup(flags);
      const position = positionOf(flags, true)!;
      const rs = await write(flags, client, 'PATCH', rulePath(scope, id, ruleId), { position }, `moving rule ${ruleId} failed`, () => client.moveRule(scope, id, ruleId, position));
      if (rs) out(flags, rs, `moved rule ${ruleId}; ruleset ${rs.id} is now at version ${rs.version}\n${rulesetText(rs)}`);
    },
  );

  dryRun(withYes(cmd(rules, 'delete', 'delete a rule (asks first on a terminal; --yes otherwise)').argument('<ruleset-id>', '', idArg).argument('<rule-id>', '', idArg))).action(async (id: string, ruleId: string, flags: RulesetFlags) => {
    const [scope, client] = setup(flags);
    await confirmDestructive(ctx, flags, `delete rule ${ruleId} of ruleset ${id}`);
    const rs = await write(flags, client, 'DELETE', rulePath(scope, id, ruleId), undefined, `deleting rule ${ruleId} failed`, () => client.deleteRule(scope, id, ruleId));
    if (rs) out(flags, rs, `deleted rule ${ruleId}; ruleset ${rs.id} is now at version ${rs.version}\n`);
  });

  const entrypoint = rulesets.command('entrypoint').description('the entry point ruleset of a phase (get, put, versions)');
  const phased = (c: Command) =>
    c.addOption(phaseOption('phase name (e.g. http_request_firewall_custom)').makeOptionMandatory());

  phased(cmd(entrypoint, 'get', 'show the entry point of a phase (the latest version)')).action(async (flags: RulesetFlags) => {
    const [scope, client] = setup(flags);
    const rs = await apiCall(`reading the ${flags.phase} entry point of ${scopeLabel(scope)} failed`, () => client.getEntrypoint(scope, flags.phase!));
    out(flags, rs, rulesetText(rs));
  });

  phased(cmd(entrypoint, 'version', 'show one version of the entry point of a phase'))
    .argument('<version>', '', idArg)
    .action(async (version: string, flags: RulesetFlags) => {
      const [scope, client] = setup(flags);
      const rs = await apiCall(`reading version ${version} of the ${flags.phase} entry point failed`, () => client.getEntrypointVersion(scope, flags.phase!, version));
      out(flags, rs, rulesetText(rs));
    });

  dryRun(
    withYes(phased(cmd(entrypoint, 'put', 'replace ALL rules of the entry point of a phase (created if missing; asks first when rules would be dropped)')))
      .requiredOption('--file <file>', 'the rules as JSON or YAML: a list, or an object with "rules" (- for standard input)')
      .option('--description <text>', 'description'),
  ).action(async (flags: RulesetFlags) => {
    const [scope, client] = setup(flags);
    const phase = flags.phase!;
    const { name, value, text, format } = await readStructured(flags.file!, ctx);
    const { kind: _kind, phase: _phase, ...fields } = rulesetFieldsFrom(value, name);
    const body = { ...fields, ...(flags.description !== undefined ? { description: flags.description } : {}), rules: rulesFrom(value, name) };
    const path = `${scopePath(scope)}/rulesets/phases/${encodeURIComponent(phase)}/entrypoint`;
    // A PUT replaces every rule, as `rulesets update` does: dropping rules is confirmed like a delete. A phase
    // without an entry point (10003) has nothing to drop.
    if (!flags.yes && !flags.dryRun) {
      refuseInvalidExpressions(ctx, [{ name, text, format }], { phase, phaseWins: true });
      const now = await apiCall(`reading the ${phase} entry point of ${scopeLabel(scope)} failed`, async () => {
        try {
          return await client.getEntrypoint(scope, phase);
        } catch (e) {
          if (e instanceof ApiError && e.code === 10003) return undefined;
          throw e;
        }
      });
      if (now && body.rules.length < now.rules.length) {
        await confirmDestructive(ctx, flags, `replacing the ${now.rules.length} rule(s) of the ${phase} entry point (${now.id}) with ${body.rules.length} (dropping ${now.rules.length - body.rules.length})`);
      }
    }
    const rs = await write(flags, client, 'PUT', path, body, `updating the ${phase} entry point of ${scopeLabel(scope)} failed`, () => client.updateEntrypoint(scope, phase, body), [{ name, text, format }]);
    if (rs) out(flags, rs, `the ${phase} entry point (${rs.id}) is now at version ${rs.version} with ${rs.rules.length} rule(s)\n`);
  });

  phased(cmd(entrypoint, 'versions', 'list the versions of the entry point of a phase')).action(async (flags: RulesetFlags) => {
    const [scope, client] = setup(flags);
    const items = await apiCall(`listing the versions of the ${flags.phase} entry point failed`, () => client.listEntrypointVersions(scope, flags.phase!));
    out(flags, items, items.length === 0 ? `no ${flags.phase} entry point in ${scopeLabel(scope)}\n` : table(['VERSION', 'LAST UPDATED', 'NAME'], items.map((v) => [v.version ?? '', v.last_updated ?? '', v.name ?? ''])));
  });
}
