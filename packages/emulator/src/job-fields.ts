/**
 * The job fields beyond the neutral description (README, "Paths": log export jobs in full; the provider's schema): `output_options`, the upload limits
 * and `kind`, each checked against its documented values and ranges so the emulator refuses what the provider
 * refuses. One table per concept: the limits' ranges, the output options' types.
 */
import { getDataset } from '@logfilter/core';
import { badRequest } from './errors.js';

/** Each upload limit: 0 (the default, "no limit set") or a value in its range. */
export const UPLOAD_LIMITS = {
  max_upload_bytes: { min: 5_000_000, max: 1_000_000_000 },
  max_upload_records: { min: 1_000, max: 1_000_000 },
  max_upload_interval_seconds: { min: 30, max: 300 },
} as const;

export const TIMESTAMP_FORMATS = ['unixnano', 'unix', 'rfc3339', 'rfc3339ms', 'rfc3339ns'] as const;
export const OUTPUT_TYPES = ['ndjson', 'csv'] as const;
export const JOB_KINDS = ['', 'edge'] as const;

/** The string-valued output options: prefixes, suffixes, delimiters and templates of records and batches. */
const TEXT_OPTIONS = ['batch_prefix', 'batch_suffix', 'field_delimiter', 'record_delimiter', 'record_prefix', 'record_suffix', 'record_template'] as const;

/**
 * The Log4Shell option (replace `${` with `x{`) in both spellings: the provider's published schema, and so the SDKs
 * generated from it, write CVE-2021-4428; its docs and logpull_options write CVE-2021-44228. Both are taken as sent.
 */
const LOG4SHELL_OPTIONS = ['CVE-2021-44228', 'CVE-2021-4428'] as const;

/** The output options the provider's schema makes nullable (not field_names, output_type, timestamp_format). */
const NULLABLE_OPTIONS = new Set<string>(['sample_rate', ...LOG4SHELL_OPTIONS, ...TEXT_OPTIONS]);

export interface OutputOptions {
  field_names?: string[];
  output_type?: string;
  sample_rate?: number;
  timestamp_format?: string;
  'CVE-2021-44228'?: boolean;
  'CVE-2021-4428'?: boolean;
  [text: string]: unknown;
}

/** The provider's schema for an ownership challenge token (logpush_ownership_challenge): its alphabet and length. */
export const CHALLENGE_PATTERN = '^[a-zA-Z0-9/+.\\-_]*$';
export const CHALLENGE_MAX_LENGTH = 4096;

export function checkChallengeToken(token: string): void {
  if (token.length > CHALLENGE_MAX_LENGTH || !new RegExp(CHALLENGE_PATTERN).test(token)) {
    throw badRequest('jobInvalid', `ownership_challenge: must be at most ${CHALLENGE_MAX_LENGTH} of the characters A-Z a-z 0-9 / + . - _ (the token the ownership call wrote)`, '/ownership_challenge');
  }
}

export function checkUploadLimits(body: Record<string, unknown>): void {
  for (const [name, range] of Object.entries(UPLOAD_LIMITS)) {
    const v = body[name];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || (v !== 0 && (v < range.min || v > range.max))) {
      throw badRequest('jobInvalid', `${name}: must be 0 or an integer from ${range.min} to ${range.max}`, `/${name}`);
    }
  }
}

export function checkKind(kind: unknown): void {
  if (kind !== undefined && kind !== null && !(JOB_KINDS as readonly unknown[]).includes(kind)) {
    throw badRequest('jobInvalid', `kind: must be "" or "edge"`, '/kind');
  }
}

/** `output_options` of a job of `dataset`: known keys, each of its type; field names of the dataset. */
export function checkOutputOptions(options: unknown, dataset: string): void {
  if (options === undefined || options === null) return;
  const where = (key: string) => `/output_options/${key}`;
  if (typeof options !== 'object' || Array.isArray(options)) throw badRequest('jobInvalid', 'output_options: must be an object', '/output_options');
  const schema = getDataset(dataset);
  for (const [key, value] of Object.entries(options as Record<string, unknown>)) {
    // Nullable in the provider's schema (logpush_output_options): null is "not set", as an SDK sends an unset option.
    if (value === null && NULLABLE_OPTIONS.has(key)) continue;
    switch (key) {
      case 'field_names':
        if (!Array.isArray(value) || value.some((f) => typeof f !== 'string')) throw badRequest('jobInvalid', 'output_options.field_names: must be an array of field names', where(key));
        (value as string[]).forEach((f, i) => {
          if (schema && !schema.byName.has(f)) throw badRequest('jobInvalid', `output_options.field_names: ${f} is not a field of ${dataset}`, `${where(key)}/${i}`);
        });
        break;
      case 'output_type':
        if (!(OUTPUT_TYPES as readonly unknown[]).includes(value)) throw badRequest('jobInvalid', `output_options.output_type: must be one of ${OUTPUT_TYPES.join(', ')}`, where(key));
        break;
      case 'timestamp_format':
        if (!(TIMESTAMP_FORMATS as readonly unknown[]).includes(value)) throw badRequest('jobInvalid', `output_options.timestamp_format: must be one of ${TIMESTAMP_FORMATS.join(', ')}`, where(key));
        break;
      case 'sample_rate':
        if (typeof value !== 'number' || !(value > 0 && value <= 1)) throw badRequest('jobInvalid', 'output_options.sample_rate: must be a number in (0, 1]', where(key));
        break;
      case 'CVE-2021-44228':
      case 'CVE-2021-4428':
        if (typeof value !== 'boolean') throw badRequest('jobInvalid', `output_options.${key}: must be a boolean`, where(key));
        break;
      default:
        if (!(TEXT_OPTIONS as readonly string[]).includes(key)) {
          throw badRequest('jobInvalid', `output_options: unknown option "${key.slice(0, 60)}" (known: field_names, output_type, sample_rate, timestamp_format, ${LOG4SHELL_OPTIONS.join(', ')}, ${TEXT_OPTIONS.join(', ')})`, where(key));
        }
        if (value !== null && typeof value !== 'string') throw badRequest('jobInvalid', `output_options.${key}: must be a string`, where(key));
    }
  }
}
