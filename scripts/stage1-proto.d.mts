// Types of stage1-proto.mjs, for the test that calls it.
export type Stage1Options = { emit?: 'none'; consts?: boolean; minCtl?: boolean; escapes?: boolean; quotes?: 'all' | 'open' | 'none'; shufti?: boolean };
export function stage1Wat(opt?: Stage1Options): string;
export function fusedWat(): string;
export function referenceStage1(bytes: Uint8Array, s: number, e: number, quotes?: 'all' | 'open' | 'none'): number[] | -1;
