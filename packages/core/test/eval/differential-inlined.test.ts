/**
 * The differential test again with V8's wasm inlining on and the kernel optimized from its first call (the CLI
 * turns inlining on for large inputs: packages/cli/src/eval/wasm-inlining.ts): the optimized, inlined kernel
 * must answer as the reference does. The flags are set before anything here compiles the kernel (it is compiled
 * on first use); they are process-wide, so other test files run in the same process only gain the same coverage.
 */
import v8 from 'node:v8';

v8.setFlagsFromString('--wasm-inlining');
v8.setFlagsFromString('--no-liftoff');
await import('./differential.test.js');
