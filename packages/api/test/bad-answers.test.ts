/**
 * The bad-input audit of the client: an answer whose status and headers arrived but whose body was cut off (the
 * server closed the connection mid-body) is a network failure that says so: it carries the status it got, where it
 * used to read as "cannot reach the API" with no status. Real HTTP against a raw server on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LogfilterClient } from '@logfilter/api';
import { failure } from './support.js';

async function cutShort(status: number) {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"result":[{"id":1');
    setImmediate(() => res.socket?.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests: () => requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('an answer cut off after its status', () => {
  it('GET: kind network with the status received, retried as a network failure is', async () => {
    const s = await cutShort(200);
    try {
      const c = new LogfilterClient({ baseUrl: `${s.origin}/client/v4`, token: 't', env: {}, retries: 1, retryDelayMs: 1 });
      const e = await failure(c.listJobs('z'));
      expect([e.kind, e.status, e.mayHaveApplied]).toEqual(['network', 200, false]);
      expect(s.requests()).toBe(2);
    } finally {
      await s.close();
    }
  });

  it('POST: not resent, and it may have been applied (the server answered)', async () => {
    const s = await cutShort(200);
    try {
      const c = new LogfilterClient({ baseUrl: `${s.origin}/client/v4`, token: 't', env: {}, retries: 3, retryDelayMs: 1 });
      const e = await failure(c.createJob('z', { destination_conf: 'https://logs.example.com/in', name: 'cut' }));
      expect([e.kind, e.status, e.mayHaveApplied]).toEqual(['network', 200, true]);
      expect(s.requests()).toBe(1);
    } finally {
      await s.close();
    }
  });
});
