/**
 * The optional native inflater (@logfilter/native-inflate: ISA-L behind Node-API, built at install where ISA-L's
 * headers are), loaded on first use. `LOGFILTER_INFLATE=zlib` turns it off (Node's zlib then inflates
 * everything), for comparing the two and as a way out should the system library misbehave; it is read at each
 * file (a worker thread gets its parent's environment), so a test can run both in one process.
 */
import { createRequire } from 'node:module';
import type { NativeInflateBinding } from '@logfilter/native-inflate';

let loaded: { binding?: NativeInflateBinding; reason?: string } | undefined;

function load(): { binding?: NativeInflateBinding; reason?: string } {
  if (process.env.LOGFILTER_INFLATE === 'zlib') return { reason: 'turned off by LOGFILTER_INFLATE=zlib' };
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)('@logfilter/native-inflate') as { binding?: NativeInflateBinding; reason?: string };
  } catch {
    loaded = { reason: 'not installed' };
  }
  return loaded;
}

/** The native inflater, or undefined when it is not there (not built, not installed, or turned off). */
export function nativeInflate(): NativeInflateBinding | undefined {
  return load().binding;
}

/** Which inflater eval uses for files, and why not the native one when it does not (the benches print it). */
export function inflaterInUse(): { name: 'isa-l' | 'zlib'; reason?: string } {
  const { binding, reason } = load();
  return binding ? { name: 'isa-l' } : { name: 'zlib', reason };
}
