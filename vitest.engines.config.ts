import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:engines`: the differential tests on the real engines (DuckDB, and ClickHouse through chdb
// when scripts/install-chdb.sh has installed it). Kept out of `npm test`: they take minutes, not seconds.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ['test/engines/**/*.engine-test.ts'],
      exclude: ['**/node_modules/**'],
      testTimeout: 300000,
      hookTimeout: 120000,
    },
  }),
);
