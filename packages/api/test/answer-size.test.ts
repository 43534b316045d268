/**
 * The client reads at most `maxAnswerBytes` of an answer (default 64 MiB): a Content-Length over it is refused
 * before the body is read, and a body that grows past it (chunked, endless) is cut off as it streams. Either way
 * an ApiAnswerTooLargeError (kind invalid-response), never the whole body in memory, never a wait for the timeout.
 * Real HTTP against a raw server on 127.0.0.1 that counts what it managed to send.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiAnswerTooLargeError, ApiConfigError, ApiInvalidResponseError, DEFAULT_MAX_ANSWER_BYTES, LogfilterClient } from '@logfilter/api';
import { failure } from './support.js';

const MiB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** A server whose every answer is `answer(res)`; `sent()` is how many body bytes it wrote before the client left. */
async function fakeServer(answer: (res: ServerResponse, count: (n: number) => void) => void) {
  let sent = 0;
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    req.resume();
    answer(res, (n) => (sent += n));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/client/v4`,
    sent: () => sent,
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Writes the JSON envelope's start, then `x` forever (or until `total`), as fast as the client reads. */
function endless(status: number, total = Infinity, headers: Record<string, string> = {}) {
  return (res: ServerResponse, count: (n: number) => void) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.write('{"result":"');
    let written = 0;
    const pump = () => {
      while (written < total && !res.destroyed) {
        written += CHUNK.length;
        count(CHUNK.length);
        if (!res.write(CHUNK)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end('","success":true,"errors":[],"messages":[]}');
    };
    res.on('close', () => (written = total));
    pump();
  };
}

const client = (baseUrl: string, extra: object = {}) => new LogfilterClient({ baseUrl, token: 't', env: {}, retries: 0, timeoutMs: 120_000, ...extra });

describe('answers too large to read', () => {
  it('a body with no length that never ends stops at the default 64 MiB, read as it streams', async () => {
    const s = await fakeServer(endless(200));
    try {
      const e = await failure(client(s.baseUrl).listJobs('z'));
      expect(e).toBeInstanceOf(ApiAnswerTooLargeError);
      expect(e).toBeInstanceOf(ApiInvalidResponseError);
      expect([e.kind, e.status]).toEqual(['invalid-response', 200]);
      expect((e as ApiAnswerTooLargeError).limitBytes).toBe(64 * MiB);
      expect((e as ApiAnswerTooLargeError).declaredBytes).toBeUndefined();
      expect(DEFAULT_MAX_ANSWER_BYTES).toBe(64 * MiB);
      // the client stopped reading: the server got no further than the limit and what sockets buffer
      await new Promise((r) => setTimeout(r, 50));
      expect(s.sent()).toBeGreaterThan(64 * MiB);
      expect(s.sent()).toBeLessThan(96 * MiB);
    } finally {
      await s.close();
    }
  }, 120_000);

  it('maxAnswerBytes sets the limit; an answer of exactly that size is read', async () => {
    const exact = await fakeServer((res) => {
      const body = JSON.stringify({ result: [], success: true, errors: [], messages: [], pad: '' });
      const padded = body.replace('"pad":""', `"pad":"${'y'.repeat(MiB - body.length)}"`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(padded);
    });
    try {
      expect((await client(exact.baseUrl, { maxAnswerBytes: MiB }).listJobs('z')).items).toEqual([]);
      // one byte less and the same answer is too large
      const e = await failure(client(exact.baseUrl, { maxAnswerBytes: MiB - 1 }).listJobs('z'));
      expect(e).toBeInstanceOf(ApiAnswerTooLargeError);
      expect((e as ApiAnswerTooLargeError).limitBytes).toBe(MiB - 1);
    } finally {
      await exact.close();
    }
  });

  it('a Content-Length over the limit is refused before the body is read', async () => {
    const s = await fakeServer((res, count) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 * MiB) });
      res.write('{"result":"');
      count(11);
      // and then nothing: a client that waited for the body would wait for its timeout
    });
    try {
      const e = await failure(client(s.baseUrl, { timeoutMs: 60_000 }).listJobs('z'));
      expect(e).toBeInstanceOf(ApiAnswerTooLargeError);
      expect([e.kind, e.status]).toEqual(['invalid-response', 200]);
      expect((e as ApiAnswerTooLargeError).declaredBytes).toBe(2 * 1024 * MiB);
      expect((e as ApiAnswerTooLargeError).limitBytes).toBe(64 * MiB);
    } finally {
      await s.close();
    }
  }, 120_000);

  it('a POST whose answer is too large may have been applied, and is not resent', async () => {
    const s = await fakeServer(endless(200));
    try {
      const e = await failure(client(s.baseUrl, { maxAnswerBytes: MiB, retries: 3 }).createJob('z', { destination_conf: 'https://logs.example.com/in', name: 'big' }));
      expect(e).toBeInstanceOf(ApiAnswerTooLargeError);
      expect(e.mayHaveApplied).toBe(true);
      expect(s.requests()).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('a CSV export (text answer) is bounded the same way', async () => {
    const s = await fakeServer((res, count) => {
      endless(200, Infinity, { 'content-type': 'text/csv' })(res, count);
    });
    try {
      const e = await failure(client(s.baseUrl, { maxAnswerBytes: MiB }).request('GET', '/zones/z/page_shield/scripts', 'any', { text: true }));
      expect(e).toBeInstanceOf(ApiAnswerTooLargeError);
    } finally {
      await s.close();
    }
  });

  it('maxAnswerBytes out of range is refused', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 53]) {
      expect(() => new LogfilterClient({ baseUrl: 'http://127.0.0.1:1/client/v4', token: 't', env: {}, maxAnswerBytes: bad })).toThrow(ApiConfigError);
    }
  });
});
