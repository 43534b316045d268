/** Shapes of the zone API resources (README, "Calls"; emulator README, "Paths"), as the client returns them. */

export interface ResultInfo {
  page: number;
  per_page: number;
  count: number;
  total_count: number;
  total_pages: number;
  /** Cursor lists (rulesets): the next page's cursor, in one of these two places. */
  cursor?: string;
  cursors?: { after?: string; before?: string };
}

export interface Page<T> {
  items: T[];
  info?: ResultInfo;
}

/** One page of a cursor list: `cursor` continues it, absent on the last page. */
export interface CursorPage<T> {
  items: T[];
  cursor?: string;
}

export interface CustomFieldName {
  name: string;
}

export interface LogCustomFieldParameters {
  request_fields?: CustomFieldName[];
  response_fields?: CustomFieldName[];
  cookie_fields?: CustomFieldName[];
}

/** The actions a ruleset rule can take (the API's list; `allow` is not one). The emulator's table is keyed by it. */
export const RULE_ACTIONS = [
  'block',
  'challenge',
  'compress_response',
  'ddos_dynamic',
  'execute',
  'force_connection_close',
  'js_challenge',
  'log',
  'log_custom_field',
  'managed_challenge',
  'redirect',
  'rewrite',
  'route',
  'score',
  'serve_error',
  'set_cache_control',
  'set_cache_settings',
  'set_cache_tags',
  'set_config',
  'skip',
  'transform_response_html',
] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

export interface Rule {
  id: string;
  version?: string;
  action: string;
  expression: string;
  description?: string;
  action_parameters?: Record<string, unknown>;
  enabled?: boolean;
  ref?: string;
  /** Only with the skip action. */
  logging?: { enabled: boolean };
  /** Tags of managed rules (read-only). */
  categories?: string[];
  last_updated?: string;
}

/** A rule as sent: the service assigns id (for new rules), version and last_updated. */
export type RuleInput = Omit<Rule, 'id' | 'version' | 'last_updated' | 'categories'> & { id?: string };

export type RulePosition = { before: string } | { after: string } | { index: number };

export interface RulesetSummary {
  id: string;
  name?: string;
  description?: string;
  kind?: string;
  phase?: string;
  version?: string;
  last_updated?: string;
}

export interface Ruleset extends RulesetSummary {
  rules: Rule[];
}

export interface CreateRulesetInput {
  name: string;
  kind: string;
  phase: string;
  description?: string;
  rules?: RuleInput[];
}

export interface UpdateRulesetInput {
  rules: RuleInput[];
  name?: string;
  description?: string;
  kind?: string;
  phase?: string;
}

/**
 * A job's `output_options`, the structured replacement of `logpull_options` (the provider ignores logpull_options
 * beside it). Those the provider's schema makes nullable take null as not set.
 */
export interface JobOutputOptions {
  field_names?: string[];
  output_type?: 'ndjson' | 'csv';
  /** In (0, 1]. */
  sample_rate?: number | null;
  timestamp_format?: 'unixnano' | 'unix' | 'rfc3339' | 'rfc3339ms' | 'rfc3339ns';
  /** Replace `${` with `x{` in the output. */
  'CVE-2021-44228'?: boolean | null;
  /** The same option as spelt by the provider's published schema (and the SDKs generated from it). */
  'CVE-2021-4428'?: boolean | null;
  batch_prefix?: string | null;
  batch_suffix?: string | null;
  field_delimiter?: string | null;
  record_delimiter?: string | null;
  record_prefix?: string | null;
  record_suffix?: string | null;
  record_template?: string | null;
}

export interface Job {
  id: number;
  name?: string | null;
  dataset?: string;
  destination_conf?: string;
  logpull_options?: string | null;
  output_options?: JobOutputOptions | null;
  filter?: string | null;
  enabled?: boolean;
  frequency?: string;
  /** `edge`, or absent / `""` for the default kind. */
  kind?: string;
  max_upload_bytes?: number;
  max_upload_records?: number;
  max_upload_interval_seconds?: number;
  last_complete?: string | null;
  last_error?: string | null;
  error_message?: string | null;
  [extra: string]: unknown;
}

export interface CreateJobInput {
  destination_conf: string;
  name?: string;
  dataset?: string;
  logpull_options?: string;
  output_options?: JobOutputOptions | null;
  ownership_challenge?: string;
  /** The filter document as a JSON string (see @logfilter/core compile). */
  filter?: string;
  enabled?: boolean;
  /** `edge` (http_requests only) or `""`; it cannot change after creation. */
  kind?: '' | 'edge' | null;
  /** 5,000,000 to 1,000,000,000, or 0 / null for not set. */
  max_upload_bytes?: number | null;
  /** 1,000 to 1,000,000, or 0 / null for not set. */
  max_upload_records?: number | null;
  /** 30 to 300, or 0 / null for not set. */
  max_upload_interval_seconds?: number | null;
  /** Deprecated by the provider in favour of the max_upload_* limits. */
  frequency?: 'high' | 'low' | null;
}

export type UpdateJobInput = Partial<Omit<CreateJobInput, 'filter' | 'logpull_options'>> & {
  filter?: string | null;
  logpull_options?: string | null;
};
