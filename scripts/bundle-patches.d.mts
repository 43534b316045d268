// Types of bundle-patches.mjs, for the test that checks its patches.
export const CHAR_CODE_TABLE_ORIGINAL: string;
export const CHAR_CODE_TABLE_FILL: string;
export const REFERENCE_IMPORT: string;
export const REFERENCE_IMPORT_TYPE: string;
export const REFERENCE_LOAD: string;
export const REFERENCE_LOAD_LAZY: string;
export const PICOCOLORS_PROBE_ORIGINAL: string;
export const PICOCOLORS_PROBE_DROPPED: string;
export function applyPatches(file: string, source: string, commonjs?: boolean): string;
export function startUpPatches(options: { commonjs: boolean }): { name: string; setup(b: unknown): void };
