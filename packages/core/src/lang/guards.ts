/**
 * Checks of a public function's arguments. A value of the wrong type or range is the calling program's mistake,
 * not user input: it is a TypeError or RangeError naming the function and the argument, thrown at the call,
 * instead of a failure deep inside or a result that silently ignores it (user input is still never thrown on).
 */

/** How a value is named in those errors: its kind, never its content. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

/** `value` must be a string (source text, filter JSON text). */
export function expectText(value: unknown, fn: string, what: string, hint = ''): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`${fn} takes ${what} (a string); got ${kindOf(value)}${hint}`);
}

/** The options argument: undefined and null mean none; anything but an object is refused. */
export function optionsOf<T extends object>(options: T | null | undefined, fn: string): T | Record<string, never> {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) throw new TypeError(`${fn}: options must be an object; got ${kindOf(options)}`);
  return options;
}

/** An optional limit: a non-negative integer, or Infinity for none. */
export function expectLimit(value: unknown, fn: string, name: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number') throw new TypeError(`${fn}: ${name} must be a number; got ${kindOf(value)}`);
  if (!(value === Infinity || (Number.isInteger(value) && value >= 0))) throw new RangeError(`${fn}: ${name} must be a non-negative integer; got ${value}`);
}

/** An optional option that takes one of a few strings (a rule kind). */
export function expectOneOf(value: unknown, allowed: readonly string[], fn: string, name: string): void {
  if (value !== undefined && !allowed.includes(value as string)) throw new RangeError(`${fn}: ${name} must be ${allowed.map((a) => `'${a}'`).join(' or ')}; got ${typeof value === 'string' ? `'${value.slice(0, 40)}'` : kindOf(value)}`);
}

/** An optional string option (a dataset name). */
export function expectOptionalString(value: unknown, fn: string, name: string): void {
  if (value !== undefined && typeof value !== 'string') throw new TypeError(`${fn}: ${name} must be a string; got ${kindOf(value)}`);
}
