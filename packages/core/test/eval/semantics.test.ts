/**
 * Every edge of docs/language.md#evaluation as an explicit case, checked on the compiled predicate, the raw-line
 * matcher, the block scanner (shortcut and validating) and the reference evaluator alike.
 */
import { describe, expect, it } from 'vitest';
import { createMatcher, createLineMatcher, createBlockScanner, createExplainer, parseExact } from '../../src/eval/index.js';
import { refLine } from './reference.js';
import { nodeHooks } from './harness.js';

type Case = [line: string, key: string, operator: string, value: unknown, expected: boolean];

const encoder = new TextEncoder();

function allPaths(line: string, key: string, operator: string, value: unknown): boolean[] {
  const filter = { where: { key, operator, value } } as any;
  // parsed as the object API's callers should for exact big integers
  const parsed = parseExact(line);
  const scan = (validate: boolean, node: boolean) => {
    const bytes = encoder.encode(line + '\n');
    return createBlockScanner(filter, node ? nodeHooks : {}).scan(bytes, 0, bytes.length, { validate }).matched === 1;
  };
  const ex = createExplainer(filter);
  return [
    createMatcher(filter).test(parsed),
    createLineMatcher(filter).test(line),
    scan(false, false),
    scan(false, true),
    scan(true, true),
    ex.add(parsed as Record<string, unknown>),
    refLine(filter, line) === 'match',
  ];
}

function table(name: string, cases: Case[]) {
  describe(name, () => {
    it.each(cases)('%s %s %s %s → %s', (line, key, op, value, expected) => {
      expect(allPaths(line, key, op, value)).toEqual(Array(7).fill(expected));
    });
  });
}

const NEG: Array<[string, unknown]> = [
  ['!eq', 'x'],
  ['!startsWith', 'x'],
  ['!endsWith', 'x'],
  ['!contains', 'x'],
  ['!in', ['x']],
];
const POS: Array<[string, unknown]> = [
  ['eq', 'x'],
  ['lt', 5],
  ['leq', 5],
  ['gt', 5],
  ['geq', 5],
  ['startsWith', 'x'],
  ['endsWith', 'x'],
  ['contains', 'x'],
  ['in', ['x']],
];

table('absent and null fields: every ! operator holds, every positive one fails', [
  ...NEG.map(([op, v]): Case => ['{"a":1}', 'f', op, v, true]),
  ...NEG.map(([op, v]): Case => ['{"f":null}', 'f', op, v, true]),
  ...POS.map(([op, v]): Case => ['{"a":1}', 'f', op, v, false]),
  ...POS.map(([op, v]): Case => ['{"f":null}', 'f', op, v, false]),
  // Inherited names are not fields of the line.
  ['{"a":1}', 'constructor', '!eq', 'x', true],
  ['{"a":1}', 'toString', 'eq', 'x', false],
  ['{"__proto__":"x"}', '__proto__', 'eq', 'x', true],
  // Only top-level keys: a nested key with the same name is not looked up.
  ['{"o":{"f":"x"}}', 'f', 'eq', 'x', false],
  ['{"o":{"f":"x"}}', 'f', '!eq', 'x', true],
]);

table('equality: strings exactly, numbers numerically, booleans only with booleans', [
  ['{"f":"Example.com"}', 'f', 'eq', 'example.com', false],
  ['{"f":"example.com"}', 'f', 'eq', 'example.com', true],
  ['{"f":30}', 'f', 'eq', '30', true],
  ['{"f":"30"}', 'f', 'eq', 30, true],
  ['{"f":"30.0"}', 'f', 'eq', 30, true],
  ['{"f":3e1}', 'f', 'eq', '30', true],
  ['{"f":"30"}', 'f', 'eq', '30.0', false],
  ['{"f":"abc"}', 'f', 'eq', 30, false],
  ['{"f":30}', 'f', 'eq', 'abc', false],
  ['{"f":30}', 'f', '!eq', 'abc', true],
  ['{"f":" 30"}', 'f', 'eq', 30, false],
  // A numeric string is exactly a JSON number: exponents yes; spaces, '+', a leading '.', leading zeros no.
  ['{"f":"1e3"}', 'f', 'eq', 1000, true],
  ['{"f":1000}', 'f', 'eq', '1e3', true],
  ['{"f":"1E+3"}', 'f', 'eq', 1000, true],
  ['{"f":"+5"}', 'f', 'eq', 5, false],
  ['{"f":5}', 'f', 'eq', '+5', false],
  ['{"f":".5"}', 'f', 'eq', 0.5, false],
  ['{"f":0.5}', 'f', 'eq', '.5', false],
  ['{"f":"007"}', 'f', 'eq', 7, false],
  ['{"f":30}', 'f', 'eq', ' 30', false],
  ['{"f":"30 "}', 'f', 'eq', 30, false],
  ['{"f":"0x1e"}', 'f', 'eq', 30, false],
  ['{"f":"-0"}', 'f', 'eq', 0, true],
  ['{"f":true}', 'f', 'eq', true, true],
  ['{"f":true}', 'f', 'eq', 'true', false],
  ['{"f":"true"}', 'f', 'eq', true, false],
  ['{"f":1}', 'f', 'eq', true, false],
  ['{"f":false}', 'f', '!eq', true, true],
  ['{"f":[1]}', 'f', 'eq', 1, false],
  ['{"f":{"a":1}}', 'f', '!eq', 1, true],
]);

table('comparisons read both sides as numbers', [
  ['{"f":"30"}', 'f', 'lt', 31, true],
  ['{"f":30}', 'f', 'lt', '31', true],
  ['{"f":"30"}', 'f', 'geq', '30', true],
  ['{"f":"abc"}', 'f', 'lt', 31, false],
  ['{"f":"abc"}', 'f', 'geq', 31, false],
  ['{"f":30}', 'f', 'lt', 'abc', false],
  ['{"f":true}', 'f', 'gt', 0, false],
  ['{"f":-1.5}', 'f', 'leq', -1.5, true],
  ['{"f":1e3}', 'f', 'gt', 999, true],
  // Integers beyond 2^53 compare exactly, from the line's digits and the filter's (a bigint, as exactFilter gives).
  ['{"f":1715000000000610620}', 'f', 'gt', 1715000000000000000, true],
  ['{"f":1715000000000610620}', 'f', 'geq', '1715000000000610620', true],
  ['{"f":1715000000000610620}', 'f', 'eq', '1715000000000610621', false],
  ['{"f":1715000000000610620}', 'f', 'eq', 1715000000000610621n, false],
  ['{"f":1715000000000610620}', 'f', 'lt', 1715000000000610621n, true],
  ['{"f":1715000000000610620}', 'f', '!eq', 1715000000000610621n, true],
  ['{"f":1715000000000610620}', 'f', 'in', [1, 1715000000000610620n], true],
  ['{"f":[9007199254740993]}', 'f', 'contains', 9007199254740992, false],
  ['{"f":[9007199254740993]}', 'f', 'in', [9007199254740993n], true],
  ['{"f":"1715000000000610620"}', 'f', 'gt', 1715000000000610619n, true],
  ['{"f":-9223372036854775808}', 'f', 'leq', -9223372036854775807n, true],
]);

table('string operators hold only for string values', [
  ['{"f":"/static/app.js"}', 'f', 'startsWith', '/static/', true],
  ['{"f":"/static/app.js"}', 'f', '!startsWith', '/static/', false],
  ['{"f":"/api"}', 'f', '!startsWith', '/static/', true],
  ['{"f":123}', 'f', 'startsWith', '1', false],
  ['{"f":123}', 'f', '!startsWith', '1', true],
  ['{"f":"a.php"}', 'f', 'endsWith', '.php', true],
  ['{"f":["a.php"]}', 'f', 'endsWith', '.php', false],
  ['{"f":["a.php"]}', 'f', '!endsWith', '.php', true],
  ['{"f":"abc"}', 'f', 'contains', 'b', true],
  ['{"f":"abc"}', 'f', '!contains', 'b', false],
  ['{"f":true}', 'f', 'contains', 'true', false],
]);

table('arrays with contains and in', [
  ['{"f":["bing","google"]}', 'f', 'contains', 'bing', true],
  ['{"f":["bingbot"]}', 'f', 'contains', 'bing', false],
  ['{"f":["bingbot"]}', 'f', '!contains', 'bing', true],
  ['{"f":[7,8,9]}', 'f', 'contains', 8, true],
  ['{"f":[7,8,9]}', 'f', 'contains', '8', true],
  ['{"f":["8"]}', 'f', 'contains', 8, true],
  ['{"f":[true]}', 'f', 'contains', true, true],
  ['{"f":[]}', 'f', 'contains', 'x', false],
  ['{"f":[]}', 'f', '!contains', 'x', true],
  ['{"f":[null]}', 'f', 'contains', 'x', false],
  ['{"f":"us"}', 'f', 'in', ['us', 'ca'], true],
  ['{"f":"fr"}', 'f', 'in', ['us', 'ca'], false],
  ['{"f":"fr"}', 'f', '!in', ['us', 'ca'], true],
  ['{"f":500}', 'f', 'in', [500, 502], true],
  ['{"f":"500"}', 'f', 'in', [500, 502], true],
  ['{"f":500}', 'f', 'in', ['500'], true],
  ['{"f":["a","ca"]}', 'f', 'in', ['us', 'ca'], true],
  ['{"f":["a","b"]}', 'f', 'in', ['us', 'ca'], false],
  ['{"f":["a","b"]}', 'f', '!in', ['us', 'ca'], true],
  ['{"f":[1,2]}', 'f', 'in', ['2'], true],
  ['{"f":{"us":1}}', 'f', 'in', ['us'], false],
  ['{"f":true}', 'f', 'in', [true], true],
  ['{"f":true}', 'f', 'in', ['true'], false],
]);

table('escaped characters in raw lines still match', [
  ['{"f":"example\\u002ecom"}', 'f', 'eq', 'example.com', true],
  ['{"f":"a\\u0026b"}', 'f', 'eq', 'a&b', true],
  ['{"f":"\\/static\\/x"}', 'f', 'startsWith', '/static/', true],
  ['{"f":"x.ph\\u0070"}', 'f', 'endsWith', '.php', true],
  ['{"f":"x.ph\\u0050"}', 'f', 'endsWith', '.php', false],
  ['{"\\u0066":"us"}', 'f', 'in', ['us'], true],
  ['{"f":["\\u0062ing"]}', 'f', 'contains', 'bing', true],
  ['{"f":"caf\\u00e9"}', 'f', 'eq', 'café', true],
  ['{"f":"\\ud83d\\ude00"}', 'f', 'eq', '😀', true],
  ['{"f":"\\\\u0061"}', 'f', 'eq', '\\u0061', true],
  ['{"f":"\\\\u0061"}', 'f', 'eq', 'a', false],
  ['{"f":"say \\"hi\\""}', 'f', 'contains', '"hi"', true],
  // Key order, whitespace and duplicate keys: the last duplicate wins, as in JSON.parse.
  ['{ "g" : 1 , "f" : "x" }', 'f', 'eq', 'x', true],
  ['{"f":"x","f":"y"}', 'f', 'eq', 'x', false],
  ['{"f":"y","f":"x"}', 'f', 'eq', 'x', true],
  // The needle inside another field does not make a match.
  ['{"g":"\\"f\\":\\"x\\"","f":"z"}', 'f', 'eq', 'x', false],
]);
