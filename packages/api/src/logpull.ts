/** `logpull_options` of a job (emulator README, "Behaviour": jobs): a query-string style list joined with `&`. */

export type LogpullOptions = [key: string, value: string][];

/**
 * The options part of `logpull_options`: the provider's schema lets it be the query string of a logpull call,
 * with or without its `?`, or the call's full URL ("copy the url (full url or just the query string) of your
 * call here"). One rule for the client and the emulator.
 */
export function logpullQuery(text: string): string {
  const query = text.indexOf('?');
  return query >= 0 && (query === 0 || /^https?:\/\//i.test(text)) ? text.slice(query + 1) : text;
}

export function parseLogpullOptions(text: string | null | undefined): LogpullOptions {
  if (!text) return [];
  return logpullQuery(text)
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
