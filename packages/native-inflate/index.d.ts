/** A gzip inflater's state, owned by the addon; freed with the handle. */
export type InflateHandle = { readonly __inflateHandle: unique symbol };

/**
 * ISA-L's inflater behind Node-API (src/isal_inflate.c has the contract).
 * `write` status: 0 more may follow, 1 the data ended cleanly with no input left, -1 damaged, cut short
 * (finish with no end), or junk after a member. `state[0]` = output room left, `state[1]` = input left unread
 * (zero padding after the last member stays unread).
 */
export interface NativeInflateBinding {
  create(): InflateHandle;
  write(
    handle: InflateHandle,
    finish: boolean,
    input: Uint8Array,
    inOff: number,
    inLen: number,
    out: Uint8Array,
    outOff: number,
    outLen: number,
    state: Uint32Array,
  ): -1 | 0 | 1;
  close(handle: InflateHandle): void;
}

/** The addon, or undefined (not built at install, or it failed to load) with the reason. */
export declare const binding: NativeInflateBinding | undefined;
export declare const reason: string | undefined;
