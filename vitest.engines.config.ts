import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// `npm run test:engines`: the differential tests on the real engines (DuckDB, and ClickHouse through chdb
// when scripts/install-chdb.sh has installed it). Kept out of `npm test`: they take minutes, not seconds.
export default defineConfig({
  resolve: { alias: { '@logfilter/core': src('core') } },
  test: {
    include: ['test/engines/**/*.engine-test.ts'],
    testTimeout: 300000,
    hookTimeout: 120000,
    // one engine at a time: the machine is shared, and each engine already uses the cores it needs
    fileParallelism: false,
  },
});
