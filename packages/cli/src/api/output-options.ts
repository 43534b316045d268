/**
 * A job's `output_options` from a JSON or YAML file (`jobs create|update --output-options FILE`), checked before
 * anything is sent against the provider's members, types and bounds; a problem names the file, the line and column
 * of the member and what is wrong (exit 2, the user's input).
 */
import type { JobOutputOptions } from '@logfilter/api';
import { getDataset, lineColumn, lineStarts, parseJson, type JsonValue } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { suggestion } from '../did-you-mean.js';
import { UsageError } from '../errors.js';
import { parseLocatedYaml } from '../yaml-located.js';
import { readStructured } from './structured-input.js';

/** Each member: its type and, for a closed set, its values. The Log4Shell option in both of the provider's spellings. */
const MEMBERS: Record<string, { type: 'names' | 'enum' | 'rate' | 'boolean' | 'text'; values?: readonly string[]; nullable?: boolean }> = {
  field_names: { type: 'names' },
  output_type: { type: 'enum', values: ['ndjson', 'csv'] },
  timestamp_format: { type: 'enum', values: ['unixnano', 'unix', 'rfc3339', 'rfc3339ms', 'rfc3339ns'] },
  sample_rate: { type: 'rate', nullable: true },
  'CVE-2021-44228': { type: 'boolean', nullable: true },
  'CVE-2021-4428': { type: 'boolean', nullable: true },
  batch_prefix: { type: 'text', nullable: true },
  batch_suffix: { type: 'text', nullable: true },
  field_delimiter: { type: 'text', nullable: true },
  record_delimiter: { type: 'text', nullable: true },
  record_prefix: { type: 'text', nullable: true },
  record_suffix: { type: 'text', nullable: true },
  record_template: { type: 'text', nullable: true },
};

/** Reads and checks FILE (`-` for standard input); field names are checked against `dataset`'s fields. */
export async function readOutputOptions(file: string, ctx: CliContext, dataset: string): Promise<JobOutputOptions> {
  const input = await readStructured(file, ctx);
  const tree = input.format === 'json' ? parseJson(input.text).value : parseLocatedYaml(input.text).tree;
  const starts = lineStarts(input.text);
  const fail = (node: JsonValue | { start: number } | undefined, message: string): never => {
    const at = lineColumn(starts, Math.min(node?.start ?? 0, input.text.length));
    throw new UsageError(`${input.name}:${at.line}:${at.column}: --output-options: ${message}`);
  };
  if (!tree || tree.type !== 'object') return fail(tree, 'must be an object of output options (field_names, timestamp_format, output_type, ...)');
  const schema = getDataset(dataset);
  const seen = new Set<string>();
  for (const { key, value } of tree.properties) {
    const member = MEMBERS[key.value];
    if (!member) return fail(key, `unknown option "${key.value.slice(0, 60)}"${suggestion(key.value, Object.keys(MEMBERS)) || ` (known: ${Object.keys(MEMBERS).join(', ')})`}`);
    // JSON.parse would keep the last silently: the file says two things.
    if (seen.has(key.value)) return fail(key, `${key.value} is given twice`);
    seen.add(key.value);
    if (value.type === 'null' && member.nullable) continue;
    const name = key.value;
    switch (member.type) {
      case 'names':
        if (value.type !== 'array') return fail(value, `${name}: must be a list of log field names`);
        for (const item of value.items) {
          if (item.type !== 'string') return fail(item, `${name}: must be a list of log field names`);
          if (schema && !schema.byName.has(item.value)) return fail(item, `${name}: ${item.value} is not a field of dataset ${dataset}${suggestion(item.value, schema.byName.keys())}`);
        }
        break;
      case 'enum':
        if (value.type !== 'string' || !member.values!.includes(value.value)) return fail(value, `${name}: must be one of ${member.values!.join(', ')}`);
        break;
      case 'rate':
        if (value.type !== 'number' || !(Number(value.raw) > 0 && Number(value.raw) <= 1)) return fail(value, `${name}: must be a number greater than 0 and at most 1`);
        break;
      case 'boolean':
        if (value.type !== 'boolean') return fail(value, `${name}: must be true or false`);
        break;
      case 'text':
        if (value.type !== 'string') return fail(value, `${name}: must be a string`);
        break;
    }
  }
  return input.value as JobOutputOptions;
}
