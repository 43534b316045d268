/**
 * `logfilter custom-fields show|set|add|remove --zone Z`: the custom log fields of a zone (README, "logfilter custom-fields").
 * add and remove only use the atomic rule calls (see @logfilter/api), so concurrent writers lose nothing; set
 * replaces on purpose. A failure says, from a fresh read, whether the change is in. Case rules and the limit of 40 are checked before anything is
 * sent. After a change, the zone's http_requests jobs that lack the log fields carrying custom fields are named,
 * and --update-jobs adds them.
 */
import type { Command } from 'commander';
import {
  addCustomFields,
  addFieldsToJob,
  ApiError,
  changeOutcome,
  CustomFieldsError,
  getCustomFields,
  jobsLackingCustomFields,
  removeCustomFields,
  setCustomFields,
  type ChangeResult,
  type CustomFields,
  type JobGap,
  type LogfilterClient,
} from '@logfilter/api';
import type { CliContext } from '../context.js';
import { CliError, EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { apiCall, collect, makeClient, toCliError, withConnectionOptions, type ConnectionFlags } from '../api/client.js';

interface FieldFlags extends ConnectionFlags {
  requestHeader: string[];
  responseHeader: string[];
  cookie: string[];
  updateJobs?: boolean;
}

function fieldsFrom(flags: FieldFlags): CustomFields {
  return { requestHeaders: flags.requestHeader, responseHeaders: flags.responseHeader, cookies: flags.cookie };
}

function describe(f: CustomFields): string {
  const list = (l: string[]) => (l.length ? l.join(', ') : '(none)');
  return `request headers:  ${list(f.requestHeaders)}\nresponse headers: ${list(f.responseHeaders)}\ncookies:          ${list(f.cookies)}\n`;
}

function jsonFields(f: CustomFields) {
  return { request_headers: f.requestHeaders, response_headers: f.responseHeaders, cookies: f.cookies };
}

function fieldOptions(cmd: Command): Command {
  return cmd
    .option('--request-header <name>', 'request header name, lower case (repeatable)', collect, [])
    .option('--response-header <name>', 'response header name, lower case (repeatable)', collect, [])
    .option('--cookie <name>', 'cookie name, with its exact capitalisation (repeatable)', collect, [])
    .option('--update-jobs', 'add Cookies, RequestHeaders or ResponseHeaders to the fields of the zone\'s http_requests jobs that lack them');
}

type Op = 'set' | 'add' | 'remove';

export function registerCustomFields(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const cmd = program.command('custom-fields').description('request headers, response headers and cookies added to HTTP request logs of a zone');

  withConnectionOptions(cmd.command('show').description('show the custom log fields of a zone')).action(async (flags: ConnectionFlags) => {
    const client = makeClient(ctx, flags);
    const state = await apiCall(`reading the custom fields of zone ${flags.zone} failed`, () => getCustomFields(client, flags.zone));
    if (flags.json) {
      const r = state.ruleset;
      ctx.stdout.write(`${JSON.stringify({ zone: flags.zone, ruleset_id: r?.id ?? null, version: r?.version ?? null, ...jsonFields(state.fields) }, null, 2)}\n`);
    } else {
      const head = state.ruleset ? `zone ${flags.zone}, ruleset ${state.ruleset.id} version ${state.ruleset.version}\n` : `zone ${flags.zone} has no custom field ruleset yet\n`;
      ctx.stdout.write(head + describe(state.fields));
    }
    setExit(EXIT_OK);
  });

  const change = (op: Op, description: string) =>
    withConnectionOptions(fieldOptions(cmd.command(op).description(description))).action(async (flags: FieldFlags) => {
      const fields = fieldsFrom(flags);
      const n = fields.requestHeaders.length + fields.responseHeaders.length + fields.cookies.length;
      if (n === 0) throw new UsageError(`${op}: give at least one --request-header, --response-header or --cookie`);
      const client = makeClient(ctx, flags);
      const fn = op === 'set' ? setCustomFields : op === 'add' ? addCustomFields : removeCustomFields;
      let result: ChangeResult;
      try {
        result = await fn(client, flags.zone, fields);
      } catch (e) {
        // Refused before anything was written (names, case, the limit of 40): nothing of it is in.
        if (e instanceof CustomFieldsError && e.reason !== 'empty') {
          if (flags.json) ctx.stdout.write(`${JSON.stringify({ zone: flags.zone, ok: false, applied: 'none', error: e.message }, null, 2)}\n`);
          throw Object.assign(new CliError(`custom-fields ${op} for zone ${flags.zone}: ${e.message}; nothing was changed`, EXIT_FAILURE), { printedJson: flags.json === true });
        }
        // A client that is not set up (no credentials, a bad base URL) sent nothing: a set-up error, exit 2.
        if (e instanceof ApiError && e.kind === 'config') throw toCliError(`custom-fields ${op} for zone ${flags.zone} failed`, e);
        // Anything else may have failed after a write: read the zone again and say what is actually there.
        const what = toCliError(`custom-fields ${op} for zone ${flags.zone} failed`, e).message;
        const outcome = await changeOutcome(client, flags.zone, op, fields);
        if (flags.json) ctx.stdout.write(`${JSON.stringify({ zone: flags.zone, ok: false, applied: outcome?.applied ?? 'unknown', error: what }, null, 2)}\n`);
        throw Object.assign(new CliError(`${what}; ${outcomeText(flags.zone, op, outcome)}`, EXIT_FAILURE), { printedJson: flags.json === true });
      }
      const gaps = await apiCall(`listing the jobs of zone ${flags.zone} failed`, () => jobsLackingCustomFields(client, flags.zone, result.fields));
      const updated = flags.updateJobs ? await updateJobs(client, flags.zone, gaps) : [];
      const pending = gaps.filter((g) => !updated.includes(g.job.id));
      if (flags.json) {
        ctx.stdout.write(
          `${JSON.stringify(
            {
              zone: flags.zone,
              ruleset_id: result.ruleset?.id ?? null,
              version: result.ruleset?.version ?? null,
              changed: result.changed,
              ...jsonFields(result.fields),
              jobs_missing_fields: pending.map((g) => ({ id: g.job.id, name: g.job.name ?? null, missing: g.missing, updatable: g.updatable })),
              updated_jobs: updated,
            },
            null,
            2,
          )}\n`,
        );
      } else {
        let text = result.changed ? `custom fields of zone ${flags.zone} updated${result.ruleset ? ` (ruleset ${result.ruleset.id}, version ${result.ruleset.version})` : ''}\n` : `custom fields of zone ${flags.zone} already as asked; nothing changed\n`;
        text += describe(result.fields);
        for (const id of updated) text += `job ${id}: added the missing log fields\n`;
        for (const g of pending) {
          const label = `job ${g.job.id}${g.job.name ? ` (${g.job.name})` : ''}`;
          text += g.updatable
            ? `${label} lacks ${g.missing.join(', ')} in its fields: its logs will not carry these custom fields; run again with --update-jobs to add them\n`
            : `${label} has no explicit fields list (output_options.field_names or logpull_options fields=): add ${g.missing.join(', ')} to it yourself (--update-jobs leaves it alone)\n`;
        }
        ctx.stdout.write(text);
      }
      setExit(EXIT_OK);
    });

  change('set', 'replace the custom fields of a zone with exactly the given ones');
  change('add', 'add custom fields, keeping the ones already configured');
  change('remove', 'remove custom fields, keeping the others');
}

/** After a failure: whether the change is in, from a fresh read of the zone (the truth, not a guess). */
function outcomeText(zone: string, op: Op, outcome: Awaited<ReturnType<typeof changeOutcome>>): string {
  if (!outcome) return `whether the change was applied is unknown (the zone could not be read again): check with logfilter custom-fields show --zone ${zone}`;
  if (outcome.applied === 'all') return 'read again afterwards: the change is in';
  if (outcome.applied === 'none') return 'read again afterwards: the change is not in';
  const names = [...outcome.present.requestHeaders, ...outcome.present.responseHeaders, ...outcome.present.cookies];
  return op === 'remove'
    ? `read again afterwards: only part of the change is in (still present: ${names.join(', ')})`
    : `read again afterwards: only part of the change is in (present: ${names.join(', ') || 'none'})`;
}

async function updateJobs(client: LogfilterClient, zone: string, gaps: JobGap[]): Promise<number[]> {
  const done: number[] = [];
  for (const g of gaps) {
    if (!g.updatable) continue;
    await apiCall(`adding ${g.missing.join(', ')} to job ${g.job.id} of zone ${zone} failed`, () => addFieldsToJob(client, zone, g));
    done.push(g.job.id);
  }
  return done;
}
