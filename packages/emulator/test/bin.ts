/** The emulator's real bin for the tests that spawn it, bundled from src/main.ts the way the build does. */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Writes the bundled bin to `outfile`, so a test that spawns it needs no prior `npm run build`. */
export async function bundleEmulatorBin(outfile: string): Promise<void> {
  await build({
    entryPoints: [fileURLToPath(new URL('../src/main.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    alias: {
      '@logfilter/core': fileURLToPath(new URL('../../core/src/index.ts', import.meta.url)),
      '@logfilter/api': fileURLToPath(new URL('../../api/src/index.ts', import.meta.url)),
    },
  });
}
