/**
 * `logfilter jobs create|list|get|update|delete --zone Z | --account A`: log export jobs of a zone or an account. A filter is compiled and
 * checked before it is sent; `--dry-run` prints the request instead of sending it (credentials redacted).
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DATASETS, DEFAULT_DATASET, decompile, getDataset } from '@logfilter/core';
import { oneOf, suggestion } from '../did-you-mean.js';
import { formatLogpullOptions, parseLogpullOptions, scopePath, type CreateJobInput, type Job, type JobOutputOptions, type Scope, type UpdateJobInput } from '@logfilter/api';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { apiCall, makeClient, printDryRun } from '../api/client.js';
import { scopeLabel, scopeOf, withScopeOptions, type ScopeFlags } from '../api/scope.js';
import { readFilter } from '../api/filter-input.js';
import { readOutputOptions } from '../api/output-options.js';
import { confirmDestructive, withYes } from '../api/confirm.js';
import { enableFlag, withEnableSwitch } from '../options.js';
import { givenChallengeToken, ownershipChallenge } from '../api/ownership.js';
import { destinationExists, needsOwnershipChallenge, validateOrigin, validateOwnershipChallenge } from '@logfilter/api';

interface JobFlags extends ScopeFlags {
  id?: string;
  filter?: string;
  name?: string;
  destination?: string;
  dataset?: string;
  fields?: string;
  timestamps?: string;
  outputOptions?: string;
  kind?: string;
  frequency?: string;
  maxUploadBytes?: number;
  maxUploadRecords?: number;
  maxUploadIntervalSeconds?: number;
  ownershipChallenge?: string;
  ownershipChallengeFile?: string;
  enable?: boolean;
  disable?: boolean;
  enabled?: boolean;
  disabled?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

const TIMESTAMPS = ['rfc3339', 'unix', 'unixnano'];

/** The upload limits of a job (the provider's schema): 0 (no limit set) or a whole number in the range; its flag. */
const UPLOAD_LIMITS = [
  { key: 'max_upload_bytes', flag: '--max-upload-bytes', prop: 'maxUploadBytes', min: 5_000_000, max: 1_000_000_000, what: 'uncompressed bytes of a batch' },
  { key: 'max_upload_records', flag: '--max-upload-records', prop: 'maxUploadRecords', min: 1_000, max: 1_000_000, what: 'log lines of a batch' },
  { key: 'max_upload_interval_seconds', flag: '--max-upload-interval-seconds', prop: 'maxUploadIntervalSeconds', min: 30, max: 300, what: 'seconds between batches' },
] as const;

function uploadLimit(min: number, max: number): (value: string) => number {
  return (value: string) => {
    const n = Number(value.trim());
    if (!/^[0-9]+$/.test(value.trim()) || (n !== 0 && (n < min || n > max))) throw new InvalidArgumentError(`expected 0 (no limit) or a whole number from ${min} to ${max}`);
    return n;
  };
}

/** Sets the flags' upload limits and frequency in a create or update body. */
function setLimits(body: CreateJobInput | UpdateJobInput, flags: JobFlags): void {
  for (const l of UPLOAD_LIMITS) if (flags[l.prop] !== undefined) body[l.key] = flags[l.prop];
  if (flags.frequency !== undefined) body.frequency = flags.frequency as CreateJobInput['frequency'];
}

/**
 * `--output-options FILE` with --fields and --timestamps written into it (the provider ignores logpull_options
 * beside output_options); a flag and the file giving the same member is a usage error.
 */
async function givenOutputOptions(ctx: CliContext, flags: JobFlags, dataset: string): Promise<JobOutputOptions | undefined> {
  if (flags.outputOptions === undefined) return undefined;
  if (flags.outputOptions === '-' && flags.filter === '-') throw new UsageError('--output-options -: standard input is already the --filter; give one of them as a file');
  const file = await readOutputOptions(flags.outputOptions, ctx, dataset);
  if (flags.fields !== undefined && file.field_names !== undefined) throw new UsageError('--fields: the --output-options file gives field_names too: give one of the two');
  if (flags.timestamps !== undefined && file.timestamp_format !== undefined) throw new UsageError('--timestamps: the --output-options file gives timestamp_format too: give one of the two');
  return outputOptions(file, flags, dataset) ?? file;
}

function jobId(positional: string | undefined, flags: JobFlags): string {
  const id = positional ?? flags.id;
  if (id === undefined) throw new UsageError('a job id is needed: give it as an argument or with --id');
  if (positional !== undefined && flags.id !== undefined && positional !== flags.id) throw new UsageError('two different job ids given');
  if (!/^[0-9]+$/.test(id)) throw new UsageError(`job id "${id}" is not a number`);
  return id;
}

/** The provider's job names (its OpenAPI pattern, which its API enforces): checked before anything is sent. */
function jobName(name: string): string {
  if (name.length > 512) throw new UsageError(`--name: a job name has at most 512 characters (this one has ${name.length})`);
  const bad = /[^a-zA-Z0-9.-]/u.exec(name);
  if (bad) throw new UsageError(`--name: ${JSON.stringify(bad[0])} at character ${bad.index + 1}: a job name holds only letters, digits, "-" and "."`);
  return name;
}

function parseFields(text: string, dataset: string): string[] {
  const fields = text.split(',').map((f) => f.trim()).filter((f) => f !== '');
  if (fields.length === 0) throw new UsageError('--fields: give a comma-separated list of log field names');
  const schema = getDataset(dataset);
  for (const f of fields) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(f)) throw new UsageError(`--fields: "${f}" is not a field name`);
    if (schema && !schema.byName.has(f)) throw new UsageError(`--fields: ${f} is not a field of dataset ${dataset}${suggestion(f, schema.byName.keys())}`);
  }
  return [...new Set(fields)];
}

/** Sets fields= and timestamps= in an options string, keeping every other option (e.g. CVE-2021-44228). */
function logpullOptions(current: string | null | undefined, flags: JobFlags, dataset: string): string | undefined {
  if (flags.fields === undefined && flags.timestamps === undefined) return undefined;
  const opts = parseLogpullOptions(current);
  const set = (k: string, v: string) => {
    const at = opts.findIndex(([key]) => key === k);
    if (at >= 0) opts[at] = [k, v];
    else opts.push([k, v]);
  };
  if (flags.fields !== undefined) set('fields', parseFields(flags.fields, dataset).join(','));
  if (flags.timestamps !== undefined) set('timestamps', flags.timestamps);
  return formatLogpullOptions(opts);
}

/**
 * The same change for a job that carries `output_options`: the provider ignores `logpull_options` beside them,
 * so --fields and --timestamps set `field_names` and `timestamp_format` there, keeping its other options.
 */
function outputOptions(current: Job['output_options'], flags: JobFlags, dataset: string): JobOutputOptions | undefined {
  if (!current || (flags.fields === undefined && flags.timestamps === undefined)) return undefined;
  const next: JobOutputOptions = { ...current };
  if (flags.fields !== undefined) next.field_names = parseFields(flags.fields, dataset);
  if (flags.timestamps !== undefined) next.timestamp_format = flags.timestamps as JobOutputOptions['timestamp_format'];
  return next;
}

function jobOptions(cmd: Command, create: boolean): Command {
  cmd
    .option('--filter <file>', 'filter: a .logfilter source or filter JSON (- for standard input)')
    .option('--name <name>', 'job name')
    .option(create ? '--destination <url>' : '--destination <url>', 'destination_conf: object store URL with a region query parameter')
    .option('--dataset <name>', create ? 'dataset of the job (default: the filter\'s dataset line, else http_requests)' : 'dataset the filter is checked against (default: the job\'s)')
    .option('--fields <list>', 'comma-separated log fields (logpull_options fields=; output_options.field_names with --output-options or, on update, when the job has output_options)')
    .addOption(new Option('--timestamps <format>', 'timestamp format (logpull_options timestamps=; output_options.timestamp_format with --output-options or, on update, when the job has output_options)').choices(TIMESTAMPS));
  if (create) cmd.addOption(new Option('--kind <kind>', 'kind of job: edge (edge log delivery, http_requests only) or "" (the default); it cannot change later').choices(['edge', '']));
  cmd
    .option('--output-options <file>', 'output_options: a JSON or YAML object (field_names, timestamp_format, output_type, sample_rate, ...; - for standard input)')
    .addOption(new Option('--frequency <frequency>', 'batch frequency (deprecated by the provider for the --max-upload-* limits)').choices(['high', 'low']));
  for (const l of UPLOAD_LIMITS) cmd.addOption(new Option(`${l.flag} <n>`, `${l.key}: most ${l.what}, ${l.min}-${l.max}, or 0 for no limit`).argParser(uploadLimit(l.min, l.max)));
  return cmd
    .option('--ownership-challenge <token>', 'ownership challenge token of the destination')
    .option('--ownership-challenge-file <file>', 'read the ownership challenge token from this file')
    .option('--dry-run', 'print the request instead of sending it (credentials redacted)');
}

/** The flag that names a scope again, for the commands a message suggests. */
function scopeFlags(scope: Scope): string {
  if (typeof scope === 'string') return `--zone ${scope}`;
  return 'zone' in scope ? `--zone ${scope.zone}` : `--account ${scope.account}`;
}

/** `kind`, `output_options`, `frequency`, the upload limits and the last run's state, where the job has them. */
function optionalJobLines(job: Job): [string, unknown][] {
  const j = job as Job & Record<string, unknown>;
  const lines: [string, unknown][] = [];
  if (typeof j.kind === 'string' && j.kind !== '') lines.push(['kind', j.kind]);
  if (j.output_options !== undefined && j.output_options !== null) lines.push(['output_options', JSON.stringify(j.output_options)]);
  for (const k of ['frequency', 'max_upload_bytes', 'max_upload_records', 'max_upload_interval_seconds', 'last_complete', 'last_error', 'error_message']) {
    if (j[k] !== undefined && j[k] !== null && j[k] !== '') lines.push([k, j[k]]);
  }
  return lines;
}

function printJob(ctx: CliContext, job: Job): void {
  const lines: [string, unknown][] = [
    ['id', job.id],
    ['name', job.name ?? ''],
    ['dataset', job.dataset ?? ''],
    ['enabled', job.enabled ?? ''],
    ['destination', job.destination_conf ?? ''],
    ['logpull_options', job.logpull_options ?? ''],
    // the newer and rarer settings only when the job has them, so a plain job reads as before
    ...optionalJobLines(job),
    ['filter', job.filter ?? ''],
  ];
  // values in one column: 17 wide, or wider when a long key (max_upload_interval_seconds) is shown
  const width = Math.max(17, ...lines.map(([k]) => k.length + 2));
  for (const [k, v] of lines) ctx.stdout.write(`${`${k}:`.padEnd(width)}${String(v)}`.trimEnd() + '\n');
  if (job.filter) {
    const d = decompile(job.filter);
    // indent each line that has text; the source's own final newline ends the output (no trailing blanks)
    if (d.ok && d.source) ctx.stdout.write(`filter source:\n${d.source.replace(/\n+$/, '').replace(/^(?=.)/gm, '  ')}\n`);
  }
}

export function registerJobs(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  // `logpush`: the provider's own name for log export jobs, which its users type
  const jobs = program.command('jobs').alias('logpush').description('log export jobs of a zone or an account (create, list, get, update, delete)');
  const out = (flags: ScopeFlags, json: unknown, human: string) => {
    ctx.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : human);
    setExit(EXIT_OK);
  };

  withScopeOptions(jobOptions(jobs.command('create').description('create a job; its filter is compiled and checked first'), true)).action(async (flags: JobFlags) => {
    const scope = scopeOf(flags);
    if (flags.destination === undefined) throw new UsageError("required option '--destination <url>' not specified");
    const filter = flags.filter !== undefined ? await readFilter(flags.filter, ctx, flags.dataset) : undefined;
    const dataset = flags.dataset ?? filter?.dataset ?? DEFAULT_DATASET;
    if (!getDataset(dataset)) oneOf('--dataset', dataset, [...DATASETS.keys()], 'dataset');
    // The provider's schema: edge log delivery is only supported for the http_requests dataset.
    if (flags.kind === 'edge' && dataset !== 'http_requests') throw new UsageError(`--kind edge: an edge job exports http_requests, not ${dataset}`);
    const body: CreateJobInput = { destination_conf: flags.destination, dataset };
    if (flags.name !== undefined) body.name = jobName(flags.name);
    if (flags.kind !== undefined) body.kind = flags.kind as CreateJobInput['kind'];
    const output = await givenOutputOptions(ctx, flags, dataset);
    if (output !== undefined) body.output_options = output;
    const logpull = output === undefined ? logpullOptions(undefined, flags, dataset) : undefined;
    if (logpull !== undefined) body.logpull_options = logpull;
    setLimits(body, flags);
    // Read before any call (and shown by --dry-run): an unreadable file is a usage error (exit 2), nothing is sent.
    const given = givenChallengeToken(ctx, flags);
    if (given !== undefined) body.ownership_challenge = given;
    if (filter) body.filter = filter.json;
    const client = makeClient(ctx, flags);
    if (flags.dryRun) {
      printDryRun(ctx, [client.describeRequest('POST', `${scopePath(scope)}/logexport/jobs`, body)]);
      return setExit(EXIT_OK);
    }
    // Before creating: the destination's ownership (challenge flow), whether a job already writes there, the origin.
    const token = await ownershipChallenge(ctx, client, scope, flags.destination, flags);
    if (token !== undefined) body.ownership_challenge = token;
    const dest = flags.destination;
    if (await apiCall('checking the destination failed', () => destinationExists(client, scope, dest))) {
      ctx.stderr.write(`warning: a job of ${scopeLabel(scope)} already writes to this destination\n`);
    }
    if (body.logpull_options) {
      const origin = await apiCall('checking the log options failed', () => validateOrigin(client, scope, body.logpull_options!));
      if (!origin.valid) throw new UsageError(`--fields/--timestamps: the API refuses these options: ${origin.message}`);
    }
    const job = await apiCall(`creating a job in ${scopeLabel(scope)} failed`, () => client.createJob(scope, body), `logfilter jobs list ${scopeFlags(scope)}`);
    out(flags, job, `created job ${job.id}${job.name ? ` (${job.name})` : ''} in ${scopeLabel(scope)}\n`);
  });

  withScopeOptions(
    jobs
      .command('validate')
      .description('check a destination and log options before creating a job: ownership challenge, existing jobs, options')
      .requiredOption('--destination <url>', 'destination_conf to check')
      .option('--ownership-challenge <token>', 'ownership challenge token to check')
      .option('--ownership-challenge-file <file>', 'read the token to check from this file')
      .option('--dataset <name>', 'dataset of the options (default http_requests)')
      .option('--fields <list>', 'comma-separated log fields (logpull_options fields=)')
      .addOption(new Option('--timestamps <format>', 'timestamp format (logpull_options timestamps=)').choices(TIMESTAMPS)),
  ).action(async (flags: JobFlags & { destination: string }) => {
    const scope = scopeOf(flags);
    const dataset = flags.dataset ?? DEFAULT_DATASET;
    if (!getDataset(dataset)) throw new UsageError(`--dataset: unknown dataset "${dataset}"`);
    const logpull = logpullOptions(undefined, flags, dataset);
    // Read before any call, as `create` reads it: an unreadable file is a usage error (exit 2), nothing is sent.
    const token = givenChallengeToken(ctx, flags);
    const client = makeClient(ctx, flags);
    const exists = await apiCall('checking the destination failed', () => destinationExists(client, scope, flags.destination));
    const needs = needsOwnershipChallenge(flags.destination);
    const ownership = !needs ? 'not needed' : token === undefined ? 'not given' : (await apiCall('checking the ownership challenge failed', () => validateOwnershipChallenge(client, scope, flags.destination, token!))) ? 'valid' : 'invalid';
    const origin = logpull === undefined ? undefined : await apiCall('checking the log options failed', () => validateOrigin(client, scope, logpull));
    const ok = !exists && (ownership === 'valid' || ownership === 'not needed') && (origin === undefined || origin.valid);
    const report = { destination: flags.destination.split('?')[0], exists, ownership, ...(origin ? { logpull_options: logpull, origin } : {}), valid: ok };
    const human = [
      `destination:     ${exists ? 'a job already writes there' : 'no job writes there'}`,
      `ownership:       ${ownership}`,
      ...(origin ? [`logpull_options: ${origin.valid ? 'valid' : `refused: ${origin.message}`}`] : []),
    ].join('\n');
    ctx.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${human}\n`);
    setExit(ok ? EXIT_OK : EXIT_FAILURE);
  });

  withScopeOptions(jobs.command('list').description('list the jobs of a zone or an account')).action(async (flags: JobFlags) => {
    const scope = scopeOf(flags);
    const client = makeClient(ctx, flags);
    const list = await apiCall(`listing the jobs of ${scopeLabel(scope)} failed`, () => client.listAllJobs(scope));
    const rows = list.map((j) => [String(j.id), j.name ?? '', j.dataset ?? '', String(j.enabled ?? ''), j.destination_conf ?? '']);
    const head = ['ID', 'NAME', 'DATASET', 'ENABLED', 'DESTINATION'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const fmt = (r: string[]) => `${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')}\n`;
    out(flags, list, list.length === 0 ? `no jobs in ${scopeLabel(scope)}\n` : [head, ...rows].map(fmt).join(''));
  });

  withScopeOptions(jobs.command('get').description('show one job').argument('[job-id]').option('--id <job_id>', 'job id')).action(
    async (id: string | undefined, flags: JobFlags) => {
      const scope = scopeOf(flags);
      const client = makeClient(ctx, flags);
      const job = await apiCall(`reading job ${jobId(id, flags)} of ${scopeLabel(scope)} failed`, () => client.getJob(scope, jobId(id, flags)));
      if (flags.json) return out(flags, job, '');
      printJob(ctx, job);
      setExit(EXIT_OK);
    },
  );

  withScopeOptions(
    withEnableSwitch(jobOptions(jobs.command('update').description('change a job; only the given fields are sent').argument('[job-id]').option('--id <job_id>', 'job id'), false), 'enable the job', 'disable the job'),
  ).action(async (id: string | undefined, flags: JobFlags) => {
    const scope = scopeOf(flags);
    const jid = jobId(id, flags);
    const enabled = enableFlag(flags);
    // Read before any call, as create and validate read it: an unreadable file is a usage error, nothing is sent.
    const token = givenChallengeToken(ctx, flags);
    const client = makeClient(ctx, flags);
    // The job's dataset decides what the filter and fields are checked against; options other than fields and
    // timestamps are kept, so the current job is read first when they change (a given --output-options file replaces them).
    const needsCurrent = flags.dataset === undefined && (flags.filter !== undefined || flags.fields !== undefined || flags.outputOptions !== undefined) || (flags.fields !== undefined || flags.timestamps !== undefined) && flags.outputOptions === undefined;
    const current = needsCurrent ? await apiCall(`reading job ${jid} of ${scopeLabel(scope)} failed`, () => client.getJob(scope, jid)) : undefined;
    const dataset = flags.dataset ?? current?.dataset ?? DEFAULT_DATASET;
    if (current?.dataset && flags.dataset && current.dataset !== flags.dataset) {
      throw new UsageError(`--dataset ${flags.dataset}: job ${jid} exports ${current.dataset}, and a job's dataset cannot change`);
    }
    const body: UpdateJobInput = {};
    if (flags.filter !== undefined) body.filter = (await readFilter(flags.filter, ctx, dataset, flags.dataset !== undefined ? '--dataset' : `the dataset of job ${jid}`)).json;
    if (flags.name !== undefined) body.name = jobName(flags.name);
    if (flags.destination !== undefined) body.destination_conf = flags.destination;
    // A given file replaces the job's output_options (as the API's PUT does); else the flags change the job's.
    const output = flags.outputOptions !== undefined ? await givenOutputOptions(ctx, flags, dataset) : outputOptions(current?.output_options, flags, dataset);
    if (output !== undefined) body.output_options = output;
    const logpull = output === undefined ? logpullOptions(current?.logpull_options, flags, dataset) : undefined;
    if (logpull !== undefined) body.logpull_options = logpull;
    if (token !== undefined) body.ownership_challenge = token;
    if (enabled !== undefined) body.enabled = enabled;
    setLimits(body, flags);
    if (Object.keys(body).length === 0) throw new UsageError('nothing to update: give --filter, --name, --destination, --fields, --timestamps, --output-options, --frequency, --max-upload-bytes, --max-upload-records, --max-upload-interval-seconds, --enable or --disable');
    if (flags.dryRun) {
      printDryRun(ctx, [client.describeRequest('PUT', `${scopePath(scope)}/logexport/jobs/${jid}`, body)]);
      return setExit(EXIT_OK);
    }
    const job = await apiCall(`updating job ${jid} of ${scopeLabel(scope)} failed`, () => client.updateJob(scope, jid, body));
    out(flags, job, `updated job ${job.id}${job.name ? ` (${job.name})` : ''} in ${scopeLabel(scope)}\n`);
  });

  withScopeOptions(
    withYes(jobs.command('delete').description('delete a job (asks first on a terminal; --yes otherwise)').argument('[job-id]').option('--id <job_id>', 'job id').option('--dry-run', 'print the request instead of sending it')),
  ).action(async (id: string | undefined, flags: JobFlags) => {
    const scope = scopeOf(flags);
    const jid = jobId(id, flags);
    await confirmDestructive(ctx, flags, `delete job ${jid} of ${scopeLabel(scope)}`);
    const client = makeClient(ctx, flags);
    if (flags.dryRun) {
      printDryRun(ctx, [client.describeRequest('DELETE', `${scopePath(scope)}/logexport/jobs/${jid}`)]);
      return setExit(EXIT_OK);
    }
    await apiCall(`deleting job ${jid} of ${scopeLabel(scope)} failed`, () => client.deleteJob(scope, jid));
    out(flags, { id: Number(jid) }, `deleted job ${jid} in ${scopeLabel(scope)}\n`);
  });
}
