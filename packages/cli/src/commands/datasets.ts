/**
 * `logfilter datasets fields DATASET [--zone Z | --account A]`: the fields of a log export dataset — the API's list
 * with --zone or --account (log export jobs exist at both scopes), the local table (the core's, what filters are
 * checked against) without them or with --offline.
 */
import type { Command } from 'commander';
import { DATASETS, getDataset } from '@logfilter/core';
import { datasetFields } from '@logfilter/api';
import type { CliContext } from '../context.js';
import { EXIT_OK, UsageError } from '../errors.js';
import { apiCall, idArg, makeClient, withClientOptions } from '../api/client.js';
import { scopeOf, type ScopeFlags } from '../api/scope.js';
import { Option } from 'commander';

interface DatasetFlags extends ScopeFlags {
  offline?: boolean;
}

export function registerDatasets(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const datasets = program.command('datasets').description('log export datasets and their fields');
  withClientOptions(
    datasets
      .command('fields')
      .description("list a dataset's fields: the API's list with --zone or --account, else the local table")
      .argument('<dataset>', `dataset name (${[...DATASETS.keys()].join(', ')})`)
      .addOption(new Option('--zone <zone_id>', 'ask the API of this zone').argParser(idArg))
      .addOption(new Option('--account <account_id>', 'ask the API of this account (instead of --zone)').argParser(idArg))
      .option('--offline', 'use the local table even with --zone or --account'),
  ).action(async (dataset: string, flags: DatasetFlags) => {
    const local = getDataset(dataset);
    let fields: Record<string, string>;
    let source: 'api' | 'local';
    if ((flags.zone !== undefined || flags.account !== undefined) && !flags.offline) {
      const scope = scopeOf(flags); // both given: a usage error
      const client = makeClient(ctx, flags);
      fields = await apiCall(`reading the fields of ${dataset} failed`, () => datasetFields(client, scope, dataset));
      source = 'api';
    } else {
      if (!local) throw new UsageError(`unknown dataset "${dataset}" (known: ${[...DATASETS.keys()].join(', ')})`);
      fields = Object.fromEntries(local.fields.map((f) => [f.name, f.description]));
      source = 'local';
    }
    if (flags.json) ctx.stdout.write(`${JSON.stringify({ dataset, source, fields }, null, 2)}\n`);
    else {
      const width = Math.max(0, ...Object.keys(fields).map((k) => k.length)) + 2;
      for (const [name, description] of Object.entries(fields)) ctx.stdout.write(`${name.padEnd(width)}${description}\n`);
    }
    setExit(EXIT_OK);
  });
}
