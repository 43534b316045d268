/**
 * The Web Worker that scans logs, so that the page stays responsive on a large file: it reads the file as a
 * stream (decompressing gzip in the browser with DecompressionStream), runs scan.ts and posts progress.
 * Messages in: { filter, input: File | string, keep }; out: progress, done, or error (a damaged .gz, say).
 */
import { createBlockScanner, type FilterDocument } from '@logfilter/core';
import { isGzip, scanStream, sliceStream, type ScanProgress, type ScanResult } from './scan.js';

export type ScanRequest = { filter: FilterDocument; input: Blob | string; keep: number };
export type ScanReply = { type: 'progress'; progress: ScanProgress; size: number } | { type: 'done'; result: ScanResult; size: number; gzip: boolean; received: number } | { type: 'error'; message: string };

const post = (m: ScanReply) => (self as unknown as Worker).postMessage(m);

// The page starts this worker before a file comes (main.ts keeps one ready): compiling the core's WebAssembly
// line kernel now, while it waits, keeps it out of the scan's time.
createBlockScanner({ where: { key: 'a', operator: 'eq', value: 'b' } });

self.onmessage = async (e: MessageEvent<ScanRequest>) => {
  // when the request arrived, on the clock the page shares (its worker start-up is the time before)
  const received = performance.timeOrigin + performance.now();
  const { filter, keep } = e.data;
  const blob = typeof e.data.input === 'string' ? new Blob([e.data.input]) : e.data.input;
  try {
    const gzip = isGzip(new Uint8Array(await blob.slice(0, 2).arrayBuffer()));
    let stream: ReadableStream<Uint8Array> = sliceStream(blob);
    let read = 0;
    if (gzip) {
      // progress in compressed bytes: the file's size is the only total known before the end
      stream = stream
        .pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ transform: (chunk, c) => ((read += chunk.length), c.enqueue(chunk)) }))
        .pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>);
    }
    const result = await scanStream(filter, stream, {
      keep,
      readBytes: gzip ? () => read : undefined,
      onProgress: (progress) => post({ type: 'progress', progress, size: blob.size }),
    });
    post({ type: 'done', result, size: blob.size, gzip, received });
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    post({ type: 'error', message: name === 'TypeError' || name === 'DataError' ? 'the file is not valid gzip (damaged or cut short)' : `the file could not be read: ${String(err)}` });
  }
};
