/**
 * fast-check generators of well-typed filters and log lines over `http_requests` fields of every column
 * kind: strings (one with a documented domain), integers (beyond 2^53 too), a float, a boolean, `int or
 * string` timestamps, and arrays of strings and of integers. Filter values and line values are drawn from
 * overlapping pools, so conditions hold on some lines and not on others; strings include the empty string,
 * quotes, backslashes, NUL, non-ASCII and astral characters, and numeric-looking text.
 */
import fc from 'fast-check';

type Kind = 'string' | 'int' | 'float' | 'bool' | 'int-or-string' | 'array-string' | 'array-int';

export const FIELDS: Record<string, Kind> = {
  ClientRequestHost: 'string',
  ClientRequestPath: 'string',
  CacheCacheStatus: 'string',
  EdgeResponseStatus: 'int',
  ClientRequestBytes: 'int',
  EdgeResponseCompressionRatio: 'float',
  CacheReserveUsed: 'bool',
  EdgeStartTimestamp: 'int-or-string',
  BotTags: 'array-string',
  BotDetectionIDs: 'array-int',
};
const NAMES = Object.keys(FIELDS);

export interface Pools {
  strings: string[];
  /** Integers as JSON text. */
  ints: string[];
  floats: string[];
  timestampStrings: string[];
  /** Numeric strings the checker takes on an int field (JSON text, quoted). */
  numericStrings: string[];
}

/** Values every reader agrees on: integers a double holds exactly, strings numeric or not by any rule. */
export const SAFE: Pools = {
  strings: ['', 'a', 'ab', 'abc', 'b', 'api.example.com', '/static/x.js', 'hit', 'miss', 'q"b', 'a\\b', "it's", 'é', '日本', '🚀x', 'x\u0000y', 'line\nfeed', '30', '-5', '1e3', '2.50', 'true', 'NULL'],
  ints: ['0', '1', '-1', '30', '500', '404', '-9007199254740991', '9007199254740991'],
  floats: ['0.5', '1.5', '-2.25', '0', '3', '1e2', '2.5e-1'],
  timestampStrings: ['2024-01-01T00:00:00Z', '1700000000', '17', '', 'x'],
  numericStrings: ['"30"', '"500"', '"-1"', '"0"'],
};

/**
 * The exact domain: integers beyond 2^53 (nanosecond timestamps one apart, the int64 limits) and strings
 * outside the JSON number grammar that a looser reading takes as numbers (`030`, ` 30`, `+5`, `.5`).
 */
export const EXACT: Pools = {
  strings: [...SAFE.strings, '030', ' 30', '+5', '.5', '1700000000123456789', '-0'],
  ints: [...SAFE.ints, '9007199254740992', '9007199254740993', '1700000000123456789', '1700000000123456790', '-9223372036854775808', '9223372036854775807'],
  floats: SAFE.floats,
  timestampStrings: [...SAFE.timestampStrings, '1700000000123456789', '030'],
  numericStrings: [...SAFE.numericStrings, '"1700000000123456789"', '"9007199254740993"'],
};

const json = (s: string) => JSON.stringify(s);
const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);

/** Needles no number's digits contain. */
const TEXT_NEEDLES = ['2024-', 'T00', 'Z', 'x', '2024-01-01T00:00:00Z', 'é'];

const OPS: Record<Kind, string[]> = {
  string: ['eq', '!eq', 'startsWith', '!startsWith', 'endsWith', '!endsWith', 'contains', '!contains', 'in', '!in'],
  int: ['eq', '!eq', 'lt', 'leq', 'gt', 'geq', 'in', '!in'],
  float: ['eq', '!eq', 'lt', 'leq', 'gt', 'geq'],
  bool: ['eq', '!eq'],
  'int-or-string': ['eq', '!eq', 'lt', 'leq', 'gt', 'geq', 'startsWith', '!startsWith', 'endsWith', '!endsWith', 'contains', '!contains', 'in', '!in'],
  'array-string': ['contains', '!contains', 'in', '!in'],
  'array-int': ['contains', '!contains', 'in', '!in'],
};

/** Filters (JSON text) and log lines (JSON text) drawing on these pools. */
export function generators(p: Pools, options: { textTimestamps?: boolean } = {}): { filterJson: fc.Arbitrary<string>; logLine: fc.Arbitrary<string> } {

  /** A string value: mostly from the pool, sometimes any unicode text. */
  const stringValue = fc.oneof({ weight: 4, arbitrary: pick(p.strings) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) });
  /** A number the checker takes on an int field: an integer, or a numeric string in its grammar. */
  const intValue = fc.oneof({ weight: 4, arbitrary: pick(p.ints) }, { weight: 1, arbitrary: pick(p.numericStrings) });

  function scalarFor(kind: Kind, op: string): fc.Arbitrary<string> {
    switch (kind) {
      case 'string':
      case 'array-string':
        return stringValue.map(json);
      case 'int':
      case 'array-int':
        return intValue;
      case 'float':
        return fc.oneof(pick(p.floats), pick(p.ints.slice(0, 6)));
      case 'bool':
        return pick(['true', 'false']);
      case 'int-or-string':
        if (['lt', 'leq', 'gt', 'geq'].includes(op)) return pick(p.ints);
      // Where the engine holds these fields as text (ClickHouse), a string operator sees a number's digits:
      // its needles then avoid digits and the empty string, the one documented difference.
      if (options.textTimestamps && !['eq', '!eq', 'in', '!in'].includes(op)) return pick(TEXT_NEEDLES).map(json);
      return fc.oneof(pick(p.ints), pick(p.timestampStrings).map(json), stringValue.map(json));
    }
  }


  /** One condition as JSON text. */
  const condition: fc.Arbitrary<string> = pick(NAMES).chain((key) => {
    const kind = FIELDS[key]!;
    return pick(OPS[kind]).chain((op) => {
      const value = op === 'in' || op === '!in' ? fc.array(scalarFor(kind, op), { minLength: 1, maxLength: 4 }).map((xs) => `[${xs.join(',')}]`) : scalarFor(kind, op);
      return value.map((v) => `{"key":${json(key)},"operator":${json(op)},"value":${v}}`);
    });
  });

  /** A filter node: conditions nested in and/or up to three levels. */
  const node: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      condition,
      fc.tuple(pick(['and', 'or']), fc.array(tie('node'), { minLength: 2, maxLength: 4 })).map(([k, items]) => `{"${k}":[${items.join(',')}]}`),
    ),
  })).node;

  const filterJson: fc.Arbitrary<string> = node.map((n) => `{"where":${n}}`);

  function lineValue(kind: Kind): fc.Arbitrary<string> {
    switch (kind) {
      case 'string':
        return stringValue.map(json);
      case 'int':
        return pick(p.ints);
      case 'float':
        return pick(p.floats);
      case 'bool':
        return pick(['true', 'false']);
      case 'int-or-string':
        return fc.oneof(pick(p.ints), pick(p.timestampStrings).map(json));
      case 'array-string':
        return fc.array(stringValue.map(json), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`);
      case 'array-int':
        return fc.array(pick(p.ints), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`);
    }
  }

  /** A log line (JSON text): each field absent, null, or a value of its type. */
  const logLine: fc.Arbitrary<string> = fc
    .tuple(...NAMES.map((k) => fc.oneof({ weight: 1, arbitrary: fc.constant<string | undefined>(undefined) }, { weight: 1, arbitrary: fc.constant('null') }, { weight: 5, arbitrary: lineValue(FIELDS[k]!) })))
    .map((values) => `{${NAMES.flatMap((k, i) => (values[i] === undefined ? [] : [`${json(k)}:${values[i]}`])).join(',')}}`);
  return { filterJson, logLine };
}
