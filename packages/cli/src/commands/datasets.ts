/**
 * `logfilter datasets fields DATASET [--zone Z]`: the fields of a log export dataset — the API's list with --zone,
 * the local table (the core's, what filters are checked against) without it or with --offline.
 */
import type { Command } from 'commander';
import { DATASETS, getDataset } from '@logfilter/core';
import { datasetFields } from '@logfilter/api';
import type { CliContext } from '../context.js';
import { EXIT_OK, UsageError } from '../errors.js';
import { apiCall, idArg, makeClient, withClientOptions, type ClientFlags } from '../api/client.js';
import { Option } from 'commander';

interface DatasetFlags extends ClientFlags {
  zone?: string;
  offline?: boolean;
}

export function registerDatasets(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  const datasets = program.command('datasets').description('log export datasets and their fields');
  withClientOptions(
    datasets
      .command('fields')
      .description("list a dataset's fields: the API's list with --zone, else the local table")
      .argument('<dataset>', `dataset name (${[...DATASETS.keys()].join(', ')})`)
      .addOption(new Option('--zone <zone_id>', 'ask the API of this zone').argParser(idArg))
      .option('--offline', 'use the local table even with --zone'),
  ).action(async (dataset: string, flags: DatasetFlags) => {
    const local = getDataset(dataset);
    let fields: Record<string, string>;
    let source: 'api' | 'local';
    if (flags.zone !== undefined && !flags.offline) {
      const client = makeClient(ctx, flags);
      const zone = flags.zone;
      fields = await apiCall(`reading the fields of ${dataset} failed`, () => datasetFields(client, zone, dataset));
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
