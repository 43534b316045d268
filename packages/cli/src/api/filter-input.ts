/**
 * `--filter FILE` of the job commands: a .logfilter source or filter JSON (any form decompile accepts), compiled
 * and checked with every check of the core, limits included. A filter with errors is never sent.
 */
import { check, ANY_DATASET, DEFAULT_DATASET } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { CliError, EXIT_FAILURE, UsageError } from '../errors.js';
import { readInput } from '../io.js';
import { reportDiagnostics } from '../options.js';
import { refuseRuleForFilter } from '../wrong-command.js';
import { filterInputIsJson } from '../file-language.js';

export interface CompiledFilter {
  /** Canonical compact filter JSON: the text the job's `filter` field carries. */
  json: string;
  /** The dataset the filter was written for (its dataset line, --dataset, or the default). */
  dataset: string;
}

/**
 * `datasetFrom` names where `dataset` came from, for the error when the filter's dataset line disagrees: the
 * `--dataset` flag, or the job being changed (`jobs update` without --dataset checks against the job's).
 */
export async function readFilter(file: string, ctx: CliContext, dataset: string | undefined, datasetFrom = '--dataset'): Promise<CompiledFilter> {
  const input = await readInput(file, ctx);
  // one call checks either kind of input, on the user's own text (diagnostics point into the file they
  // wrote), and hands back the canonical JSON the job's `filter` field carries
  const checked = check(input.text, { dataset, accept: filterInputIsJson(input.name, input.text) ? 'json' : 'json-or-source' });
  if (!checked.ok) refuseRuleForFilter(input.name, input.text, 'check');
  reportDiagnostics(ctx, input.name, input.text, checked.diagnostics, 'text');
  if (!checked.ok) throw refused(input.name, checked.diagnostics.filter((d) => d.severity === 'error').length);
  const json = checked.json;
  let used: string;
  if (checked.input === 'json') {
    used = dataset ?? DEFAULT_DATASET;
  } else {
    used = checked.dataset;
    if (dataset !== undefined && used !== ANY_DATASET && used !== dataset) {
      // The user's inputs disagree and nothing was sent: an input error, exit 2.
      throw new UsageError(`${input.name} is written for dataset ${used} but ${datasetFrom} is ${dataset}; make them agree`);
    }
  }
  if (json === undefined) throw refused(input.name, 1);
  return { json, dataset: used === ANY_DATASET ? (dataset ?? DEFAULT_DATASET) : used };
}

function refused(name: string, errors: number): CliError {
  return new CliError(`${name}: the filter has ${errors} error${errors === 1 ? '' : 's'} (above); nothing was sent. Fix the filter and run again`, EXIT_FAILURE);
}
