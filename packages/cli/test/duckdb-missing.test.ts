/** Without @duckdb/node-api installed, `--engine duckdb` is a usage error naming the package (exit 2). */
import { describe, expect, it, vi } from 'vitest';
import { logfilter, tempDir, write } from './eval/support.js';

vi.mock('@duckdb/node-api', () => {
  throw new Error("Cannot find module '@duckdb/node-api'");
});

describe('eval --engine duckdb without DuckDB', () => {
  it('exits 2 and says which package to install', async () => {
    const dir = tempDir();
    write(dir, 'f.logfilter', 'ClientRequestHost == "a"\n');
    write(dir, 'l.ndjson', '{"ClientRequestHost":"a"}\n');
    const r = await logfilter(['eval', 'f.logfilter', 'l.ndjson', '--engine', 'duckdb'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('npm install @duckdb/node-api@1.5.5-r.5');
    expect(r.stdout).toBe('');
  });
});
