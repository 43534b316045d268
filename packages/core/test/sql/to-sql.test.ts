import { describe, expect, it } from 'vitest';
import { columnDefinitions, compile, exactNumber, OPERATORS, SQL_DIALECTS, toSql, toSqlQuery, type SqlDialectName } from '@logfilter/core';

const cond = (key: string, operator: string, value: unknown) => JSON.stringify({ where: { key, operator, value } });
const sql = (json: string, dialect: SqlDialectName, dataset = 'http_requests', columns?: Record<string, string | { sql?: string; type?: never }>) => {
  const r = toSql(json, { dialect, dataset, columns });
  expect(r.ok, JSON.stringify(r.diagnostics)).toBe(true);
  return r.sql!;
};

describe('toSql: conditions', () => {
  it('writes a positive operator as (present AND p), a negative one as (absent OR NOT p)', () => {
    expect(sql(cond('ClientRequestHost', 'eq', 'a'), 'duckdb')).toBe(`("ClientRequestHost" IS NOT NULL AND "ClientRequestHost" = 'a')`);
    expect(sql(cond('ClientRequestHost', '!eq', 'a'), 'duckdb')).toBe(`("ClientRequestHost" IS NULL OR NOT ("ClientRequestHost" = 'a'))`);
    expect(sql(cond('ClientRequestHost', '!eq', 'a'), 'clickhouse')).toBe("(`ClientRequestHost` IS NULL OR NOT (`ClientRequestHost` = 'a'))");
  });

  it('spells each engine’s string functions, empty needles included', () => {
    expect(sql(cond('ClientRequestPath', 'startsWith', ''), 'duckdb')).toContain(`starts_with("ClientRequestPath", '')`);
    expect(sql(cond('ClientRequestPath', 'endsWith', '/x'), 'duckdb')).toContain(`ends_with("ClientRequestPath", '/x')`);
    expect(sql(cond('ClientRequestPath', 'contains', ''), 'duckdb')).toContain(`contains("ClientRequestPath", '')`);
    expect(sql(cond('ClientRequestPath', 'startsWith', 'a'), 'clickhouse')).toContain("startsWith(`ClientRequestPath`, 'a')");
    expect(sql(cond('ClientRequestPath', 'endsWith', 'a'), 'clickhouse')).toContain("endsWith(`ClientRequestPath`, 'a')");
    expect(sql(cond('ClientRequestPath', 'contains', 'a'), 'clickhouse')).toContain("position(`ClientRequestPath`, 'a') > 0");
  });

  it('tests array fields by element: contains, in, and their negations', () => {
    expect(sql(cond('BotTags', 'contains', 'api'), 'duckdb')).toBe(`("BotTags" IS NOT NULL AND list_contains("BotTags", 'api'))`);
    expect(sql(cond('BotTags', 'in', ['a', 'b']), 'duckdb')).toBe(`("BotTags" IS NOT NULL AND list_has_any("BotTags", ['a', 'b']))`);
    expect(sql(cond('BotTags', '!in', ['a', 'b']), 'duckdb')).toBe(`("BotTags" IS NULL OR NOT (list_has_any("BotTags", ['a', 'b'])))`);
    // ClickHouse arrays are never NULL (absent reads as []), and [] answers every operator as absent does
    expect(sql(cond('BotTags', '!contains', 'api'), 'clickhouse')).toBe("NOT (has(`BotTags`, 'api'))");
    expect(sql(cond('BotDetectionIDs', 'in', [1, 9223372036854775807n.toString()]), 'clickhouse')).toBe('hasAny(`BotDetectionIDs`, [toInt64(1), toInt64(9223372036854775807)])');
  });

  it('compares a string field in a list with IN, and booleans as booleans', () => {
    expect(sql(cond('ClientCountry', 'in', ['us', 'ca']), 'duckdb')).toBe(`("ClientCountry" IS NOT NULL AND "ClientCountry" IN ('us', 'ca'))`);
    expect(sql(cond('CacheReserveUsed', 'eq', true), 'clickhouse')).toBe('(`CacheReserveUsed` IS NOT NULL AND `CacheReserveUsed` = true)');
  });

  it('keeps integers beyond 2^53 exact, from the compiler’s JSON text', () => {
    const r = compile('EdgeResponseStatus > 1700000000123456789', { dataset: 'http_requests' });
    expect(sql(r.json!, 'duckdb')).toContain('"EdgeResponseStatus" > 1700000000123456789');
    expect(sql(r.json!, 'clickhouse')).toContain('`EdgeResponseStatus` > 1700000000123456789');
  });

  it('reads numeric strings by the JSON number grammar only', () => {
    // "30" is the number 30; "030", " 30", "+5" and ".5" are not numbers, so comparisons never hold
    expect(sql(cond('BotScore', 'lt', '30'), 'duckdb')).toBe('("BotScore" IS NOT NULL AND "BotScore" < 30)');
    for (const s of ['030', ' 30', '+5', '.5', '0x1F', 'Infinity']) {
      expect(sql(cond('BotScore', 'lt', s), 'duckdb')).toBe('false');
      expect(sql(cond('BotScore', 'geq', s), 'clickhouse')).toBe('false');
      expect(sql(cond('BotScore', '!eq', s), 'duckdb')).toBe('true');
    }
    // whole numbers written with a fraction or exponent equal an integer column's values
    expect(sql(cond('BotScore', 'eq', '1e3'), 'duckdb')).toBe('("BotScore" IS NOT NULL AND "BotScore" = 1000)');
    expect(exactNumber('2.50')).toEqual({ text: '2.5', integer: false });
    expect(exactNumber('-0')).toEqual({ text: '0', integer: true });
    expect(exactNumber('12e-1')).toEqual({ text: '1.2', integer: false });
    expect(exactNumber('1.2e1')).toEqual({ text: '12', integer: true });
    expect(exactNumber('030')).toBeUndefined();
  });

  it('folds comparisons beyond the int64 range of an integer column to constants', () => {
    const big = (op: string) => cond('EdgeResponseStatus', op, 1).replace('1}', '99999999999999999999}');
    expect(sql(big('lt'), 'duckdb')).toBe('"EdgeResponseStatus" IS NOT NULL');
    expect(sql(big('!eq'), 'duckdb')).toBe('true');
    expect(sql(big('gt'), 'clickhouse')).toBe('false');
    expect(sql(big('geq').replace('999', '-999'), 'clickhouse')).toBe('`EdgeResponseStatus` IS NOT NULL');
  });

  it('tells numbers from strings in `int or string` fields (DuckDB JSON) and reads them as text in ClickHouse', () => {
    const d = sql(cond('EdgeStartTimestamp', 'startsWith', '2024'), 'duckdb');
    expect(d).toBe(`("EdgeStartTimestamp" IS NOT NULL AND (json_type("EdgeStartTimestamp") = 'VARCHAR' AND starts_with(("EdgeStartTimestamp" ->> '$'), '2024')))`);
    expect(sql(cond('EdgeStartTimestamp', 'startsWith', '2024'), 'clickhouse')).toBe("(`EdgeStartTimestamp` IS NOT NULL AND startsWith(`EdgeStartTimestamp`, '2024'))");
  });

  it('generates SQL for every operator on every field type it allows, in both dialects', () => {
    const fields: Record<string, unknown> = { ClientRequestHost: 'x', EdgeResponseStatus: 500, CacheReserveUsed: true, EdgeStartTimestamp: 5, BotTags: 'x', BotDetectionIDs: 1, EdgeResponseCompressionRatio: 0.5 };
    for (const dialect of SQL_DIALECTS) {
      for (const op of OPERATORS) {
        for (const [field, v] of Object.entries(fields)) {
          const r = toSql(cond(field, op.name, op.shape === 'list' ? [v] : v), { dialect, dataset: 'http_requests' });
          expect(r.ok).toBe(true);
          // a negative operator always holds where the field is absent
          if (op.negative && r.sql !== 'true') expect(r.sql).toMatch(/IS NULL OR NOT|^NOT \(/);
        }
      }
    }
  });
});

describe('toSql: literals and names', () => {
  const hard = `q'b\\s"t\u0000é日本🚀\n`;
  it('escapes DuckDB strings by doubling quotes, keeps backslashes, joins NUL with chr(0)', () => {
    expect(sql(cond('ClientRequestHost', 'eq', hard), 'duckdb')).toBe(`("ClientRequestHost" IS NOT NULL AND "ClientRequestHost" = ('q''b\\s"t' || chr(0) || 'é日本🚀\n'))`);
  });
  it('escapes ClickHouse strings with backslashes (quote, backslash, NUL)', () => {
    expect(sql(cond('ClientRequestHost', 'eq', hard), 'clickhouse')).toBe("(`ClientRequestHost` IS NOT NULL AND `ClientRequestHost` = 'q\\'b\\\\s\"t\\0é日本🚀\n')");
  });
  it('quotes names per dialect, and takes a column mapping', () => {
    expect(sql(cond('x"y`z', 'eq', 'a'), 'duckdb', 'any')).toBe(`("x""y\`z" IS NOT NULL AND "x""y\`z" = 'a')`);
    expect(sql(cond('x"y`z', 'eq', 'a'), 'clickhouse', 'any')).toBe("(`x\"y\\`z` IS NOT NULL AND `x\"y\\`z` = 'a')");
    expect(sql(cond('ClientRequestHost', 'eq', 'a'), 'duckdb', 'http_requests', { ClientRequestHost: 'log.host' })).toBe(`(log.host IS NOT NULL AND log.host = 'a')`);
    // a mapped type changes the test: an int column compares numerically
    expect(toSql(cond('status', 'eq', '500'), { dialect: 'duckdb', dataset: 'any', columns: { status: { type: 'int' } } }).sql).toBe('("status" IS NOT NULL AND "status" = 500)');
  });
  it('nests and/or with parentheses and never emits a bare NOT over a nullable column', () => {
    const j = JSON.stringify({ where: { or: [{ and: [{ key: 'a', operator: 'eq', value: 'x' }, { key: 'b', operator: '!eq', value: 'y' }] }, { key: 'c', operator: '!startsWith', value: 'z' }] } });
    expect(sql(j, 'duckdb', 'any')).toBe(
      `(("a" IS NOT NULL AND "a" = 'x') AND ("b" IS NULL OR NOT ("b" = 'y'))) OR ("c" IS NULL OR NOT (starts_with("c", 'z')))`,
    );
  });
});

describe('toSql: bad input', () => {
  it('returns diagnostics, never throws', () => {
    expect(toSql('{"where":', { dialect: 'duckdb' }).diagnostics.map((d) => d.code)).toEqual(['invalid-json']);
    expect(toSql('{"where":{"key":"a","operator":"neq","value":1}}', { dialect: 'duckdb' }).diagnostics.map((d) => d.code)).toContain('unknown-operator');
    expect(toSql('{"where":{"key":"a","operator":"eq","value":1}}', { dialect: 'postgres' as SqlDialectName }).ok).toBe(false);
  });
  it('refuses a string value with a lone surrogate (it has no UTF-8 spelling: it would be U+FFFD), in every dialect', () => {
    for (const dialect of SQL_DIALECTS) {
      for (const json of [cond('ClientRequestHost', 'startsWith', '\ud83d'), cond('ClientRequestHost', 'in', ['a', 'x\udc00']), cond('ClientRequestHost', '!eq', '\ud800')]) {
        const r = toSql(json, { dialect });
        expect(r.ok, json).toBe(false);
        expect(r.diagnostics.map((d) => d.code)).toEqual(['invalid-node']);
        // the range is the value's
        const d = r.diagnostics[0]!;
        expect(json.slice(d.start, d.end)).toMatch(/^"x?\\u/);
      }
      // a pair is one character
      expect(toSql(cond('ClientRequestHost', 'eq', '\ud83d\ude00'), { dialect }).ok).toBe(true);
    }
  });
});

describe('toSqlQuery and column definitions', () => {
  const host = cond('ClientRequestHost', 'eq', 'a');
  it('queries a table or a file glob with the dataset’s columns', () => {
    expect(toSqlQuery(host, { dialect: 'duckdb', from: 'db.logs' }).sql).toBe(`SELECT * FROM "db"."logs" WHERE ("ClientRequestHost" IS NOT NULL AND "ClientRequestHost" = 'a');`);
    const file = toSqlQuery(host, { dialect: 'clickhouse', from: 'logs/*.ndjson.gz' }).sql!;
    // ClickHouse: each object read as text, the columns extracted by their exact names (JSONEachRow would match keys without case)
    expect(file).toMatch(/^SELECT \* FROM \(SELECT tupleElement\(__line, 1\) AS `AISecurityInjectionScore`, /);
    expect(file).toContain("FROM file('logs/*.ndjson.gz', 'JSONAsString', 'json String')))");
    expect(file).toContain("'Tuple(`AISecurityInjectionScore` Nullable(Int64), ");
    expect(file).not.toContain('JSONEachRow');
    expect(toSqlQuery(host, { dialect: 'duckdb', from: 'x.parquet' }).sql).toMatch(/^SELECT \* FROM read_parquet\('x\.parquet'\) WHERE /);
  });
  it('types columns from the dataset tables', () => {
    const fields = ['ClientRequestHost', 'CacheCacheStatus', 'EdgeResponseStatus', 'CacheReserveUsed', 'EdgeResponseCompressionRatio', 'EdgeStartTimestamp', 'BotTags', 'BotDetectionIDs', 'Cookies'];
    expect(columnDefinitions({ dataset: 'http_requests', dialect: 'duckdb', fields }).text).toBe(
      "{'ClientRequestHost': 'VARCHAR', 'CacheCacheStatus': 'VARCHAR', 'EdgeResponseStatus': 'BIGINT', 'CacheReserveUsed': 'BOOLEAN', 'EdgeResponseCompressionRatio': 'DOUBLE', 'EdgeStartTimestamp': 'JSON', 'BotTags': 'VARCHAR[]', 'BotDetectionIDs': 'BIGINT[]', 'Cookies': 'JSON'}",
    );
    expect(columnDefinitions({ dataset: 'http_requests', dialect: 'clickhouse', fields }).text).toBe(
      '`ClientRequestHost` Nullable(String), `CacheCacheStatus` LowCardinality(Nullable(String)), `EdgeResponseStatus` Nullable(Int64), `CacheReserveUsed` Nullable(Bool), `EdgeResponseCompressionRatio` Nullable(Float64), `EdgeStartTimestamp` Nullable(String), `BotTags` Array(String), `BotDetectionIDs` Array(Int64), `Cookies` Nullable(String)',
    );
  });
  it('a field listed twice is one column, at its first place (an engine refuses a column defined twice)', () => {
    for (const dialect of SQL_DIALECTS) {
      const once = columnDefinitions({ dataset: 'http_requests', dialect, fields: ['ClientRequestHost', 'EdgeResponseStatus'] });
      const twice = columnDefinitions({ dataset: 'http_requests', dialect, fields: ['ClientRequestHost', 'EdgeResponseStatus', 'ClientRequestHost'] });
      expect(twice.ok).toBe(true);
      expect(twice.columns).toEqual(once.columns);
      expect(twice.text).toBe(once.text);
    }
  });
  it('names unknown fields and datasets', () => {
    const r = columnDefinitions({ dataset: 'http_requests', dialect: 'duckdb', fields: ['ClientRequestHst'] });
    expect(r.ok).toBe(false);
    expect(r.errors[0]).toMatchObject({ code: 'unknown-field', name: 'ClientRequestHst' });
    expect(r.errors[0]!.suggestions).toContain('ClientRequestHost');
    expect(columnDefinitions({ dataset: 'nope', dialect: 'clickhouse' }).errors.map((e) => e.code)).toEqual(['unknown-dataset']);
  });
});
