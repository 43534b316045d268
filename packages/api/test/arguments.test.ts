/**
 * The client's arguments as JavaScript may pass them: a missing scope or id, a non-string credential or base
 * URL, a fetch that is not a function are ApiConfigError before anything is sent (not a TypeError from inside,
 * not a request for the job "undefined", not a network error).
 */
import { describe, expect, it } from 'vitest';
import { ApiConfigError, LogfilterClient, PageGuardInputError } from '@logfilter/api';

const BASE = 'http://127.0.0.1:9/client/v4';
/** A call's failure, whether it throws at once or rejects. */
const attempt = (f: () => unknown) => Promise.resolve().then(f);

/** A client whose fetch records each request and answers an empty list. */
function recording(options: object = {}) {
  const sent: string[] = [];
  const fetch = (async (url: string) => {
    sent.push(url);
    return new Response(JSON.stringify({ success: true, errors: [], messages: [], result: [] }), { headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { sent, client: new LogfilterClient({ baseUrl: BASE, token: 't', fetch, env: {}, ...options }) };
}

describe('scopes and ids', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an object with neither zone nor account', { id: 'z' }],
  ])('a scope that is %s is an ApiConfigError, nothing sent', async (_, scope) => {
    const { sent, client } = recording();
    await expect(attempt(() => client.listJobs(scope as never))).rejects.toBeInstanceOf(ApiConfigError);
    await expect(attempt(() => client.createJob(scope as never, { destination_conf: 's3://b/p?region=us-east-1' }))).rejects.toBeInstanceOf(ApiConfigError);
    expect(sent).toEqual([]);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['NaN', Number.NaN],
    ['an object', { id: 1 }],
  ])('a job id that is %s is an ApiConfigError, nothing sent', async (_, id) => {
    const { sent, client } = recording();
    await expect(attempt(() => client.getJob('z', id as never))).rejects.toBeInstanceOf(ApiConfigError);
    await expect(attempt(() => client.deleteJob('z', id as never))).rejects.toBeInstanceOf(ApiConfigError);
    expect(sent).toEqual([]);
  });

  it('good scopes and ids still go out', async () => {
    const { sent, client } = recording();
    await client.listJobs('z1', { page: 1 });
    await client.listJobs({ account: 'a1' }, { page: 1 });
    await client.request('GET', `/zones/z1/logexport/jobs/${7}`);
    expect(sent.map((u) => new URL(u).pathname)).toEqual(['/client/v4/zones/z1/logpush/jobs', '/client/v4/accounts/a1/logpush/jobs', '/client/v4/zones/z1/logpush/jobs/7']);
  });
});

describe('client options', () => {
  it.each(['baseUrl', 'token', 'email', 'key', 'names'])('a %s that is not a string is an ApiConfigError that does not quote it', (name) => {
    let error: unknown;
    try {
      new LogfilterClient({ baseUrl: BASE, token: 't', env: {}, [name]: 123456789 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiConfigError);
    expect(String((error as Error).message)).not.toContain('123456789');
  });

  it('a fetch that is not a function is an ApiConfigError', () => {
    expect(() => new LogfilterClient({ baseUrl: BASE, token: 't', env: {}, fetch: 5 as never })).toThrow(ApiConfigError);
  });

  it('null options are no options (the environment is read)', () => {
    const saved = process.env.LOGFILTER_API_TOKEN;
    process.env.LOGFILTER_API_TOKEN = 'from-env';
    try {
      expect(new LogfilterClient(null).describeRequest('GET', '/zones/z/logexport/jobs').headers.Authorization).toBe('Bearer <redacted>');
    } finally {
      if (saved === undefined) delete process.env.LOGFILTER_API_TOKEN;
      else process.env.LOGFILTER_API_TOKEN = saved;
    }
  });
});

describe('the malicious rule', () => {
  it.each([['a number', 50], ['null', null], ['a threshold that is text', { threshold: '50' }]])('%s is refused when the client is made, naming the option', (_, malicious) => {
    let error: unknown;
    try {
      new LogfilterClient({ baseUrl: BASE, token: 't', env: {}, malicious: malicious as never });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PageGuardInputError);
    expect((error as PageGuardInputError).field).toBe('malicious');
  });

  it('a rule as documented is taken', () => {
    expect(new LogfilterClient({ baseUrl: BASE, token: 't', env: {}, malicious: { threshold: 40, direction: 'below' } }).pageGuard.malicious).toEqual({ threshold: 40, direction: 'below' });
  });
});
