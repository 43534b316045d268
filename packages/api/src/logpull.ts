/** `logpull_options` of a job (emulator README, "Behaviour": jobs): a query-string style list joined with `&`. */

export type LogpullOptions = [key: string, value: string][];

export function parseLogpullOptions(text: string | null | undefined): LogpullOptions {
  if (!text) return [];
  const body = text.startsWith('?') ? text.slice(1) : text;
  return body
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)];
    });
}

export function formatLogpullOptions(options: LogpullOptions): string {
  return options.map(([k, v]) => `${k}=${v}`).join('&');
}

/** The names in `fields=...`, or undefined when the job has no explicit field list. */
export function logpullFields(text: string | null | undefined): string[] | undefined {
  const entry = parseLogpullOptions(text).find(([k]) => k === 'fields');
  return entry ? entry[1].split(',').filter((f) => f !== '') : undefined;
}

/** Sets (or adds) one option, keeping the others and their order. */
export function withOption(text: string | null | undefined, key: string, value: string): string {
  const opts = parseLogpullOptions(text);
  const at = opts.findIndex(([k]) => k === key);
  if (at >= 0) opts[at] = [key, value];
  else opts.push([key, value]);
  return formatLogpullOptions(opts);
}

/** Adds field names to `fields=...` (when the job has an explicit list), keeping every other option. */
export function withFields(text: string | null | undefined, add: readonly string[]): string {
  const fields = logpullFields(text) ?? [];
  const merged = [...fields, ...add.filter((f) => !fields.includes(f))];
  return withOption(text, 'fields', merged.join(','));
}
