// Types of gen-line-kernel.mjs, for the test that calls it.
export type KernelLayout = Record<string, number | string>;
export function layoutValues(layout?: KernelLayout): KernelLayout;
export function instantiate(text: string, values: KernelLayout): string;
export function assemble(text: string): Promise<Uint8Array>;
export function generate(): Promise<string>;
