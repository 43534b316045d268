/**
 * V8's wasm-into-wasm inlining, for the line kernel. Node 20's V8 (11.3) has it behind a flag, off (later V8s
 * inline by default). Inlined, the kernel's small helpers ($str, $ws, $lookup, $fingerprint, $num...) stop
 * costing a call each in the scan loop, which also stops spilling its SIMD constants around those calls. With
 * V8's baseline compiler (Liftoff) off as well, the kernel is optimized when it is compiled, without the call
 * counts of a first run, and every one of its helpers is inlined (with those counts, the rarer ones, $str and
 * $lookup, stayed calls). The bench's nested filter (F3) over 64 MB of export lines, the fastest of 9 passes,
 * three runs of each: 36.5-38.6 ms as Node 20 runs it, 34.8-36.1 with inlining, 33.7-33.9 with both flags;
 * compiling the kernel takes ~3-5 ms either way.
 *
 * The flags are process-wide (the workers' isolates share them) and read when V8 compiles the kernel, so they
 * are set before it is first compiled; nothing else in `eval` compiles WebAssembly. Only for inputs large enough
 * that the gain outweighs loading `node:v8` (its streams and heap utilities): ~1.5 ms where the worker threads
 * already loaded most of that, ~8 ms where nothing had.
 */
/** Inputs (gzip weighed as inflated) from which inlining pays when workers are used. */
export const INLINING_MIN_BYTES = 48 << 20;
/** The same on one thread, where loading node:v8 costs the most. */
export const INLINING_MIN_BYTES_ALONE = 256 << 20;

/** Whether inlining pays for an input of `weight` bytes (gzip weighed as inflated) read by `workers` workers and this thread. */
export function inliningPays(weight: number, workers: number): boolean {
  return weight >= (workers >= 1 ? INLINING_MIN_BYTES : INLINING_MIN_BYTES_ALONE);
}

const MAJOR = Number(process.versions.node.split('.')[0]);
let enabled = false;

/** Whether enableWasmInlining set the flag in this process. */
export function wasmInliningEnabled(): boolean {
  return enabled;
}

/** Turns the inlining on (once); false where this Node's V8 is not known to need the flag. */
export function enableWasmInlining(): boolean {
  if (enabled) return true;
  if (MAJOR !== 20 && MAJOR !== 21) return false;
  enabled = true;
  try {
    const v8 = process.getBuiltinModule('node:v8');
    v8.setFlagsFromString('--wasm-inlining');
    v8.setFlagsFromString('--no-liftoff');
  } catch {
    // an embedding without node:v8: the kernel runs without inlining
  }
  return true;
}
