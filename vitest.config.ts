import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// One config for the whole monorepo. Packages are imported from their sources so a test never runs
// against a stale dist/; the CLI and server end-to-end tests spawn the built bins on purpose.
export default defineConfig({
  resolve: {
    alias: {
      '@logfilter/core': src('core'),
      '@logfilter/api': src('api'),
      '@logfilter/emulator': src('emulator'),
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts', 'grammars/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/e2e/**'],
    testTimeout: 20000,
    hookTimeout: 30000,
  },
});
