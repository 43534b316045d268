/**
 * The contract: every operation the emulator serves is driven through the provider's public
 * SDK (`cloudflare` on npm) where it has the call, and raw HTTP elsewhere; every answer is validated against the
 * schema of its operation and status in the provider's published OpenAPI document, and every error case against
 * the error envelope too. The coverage (operations served of those in the schema) is printed and pinned.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Cloudflare from 'cloudflare';
import { Ajv } from 'ajv';
import { startEmulator, MANAGED_RULESET_ID, type RunningEmulator } from '@logfilter/emulator';
import { fieldsIn, pathIn } from '@logfilter/api';
import { SHOP_FIXTURE } from '../support/page-guard.js';
import { ERROR_ENVELOPE, loadContract } from './schema.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const TOKEN = 'contract-token';
const Z = 'contract';
const A = 'contract-account';
const contract = loadContract();
const envelope = new Ajv({ strict: false }).compile(ERROR_ENVELOPE);

interface Exchange {
  method: string;
  path: string;
  status: number;
  text: string;
  /** A call made to fail: its answer is also judged against the error envelope. */
  error: boolean;
  via: 'sdk' | 'http';
}

let emu: RunningEmulator;
let cf: Cloudflare;
let base: URL;
const exchanges: Exchange[] = [];
let expectingError = false;

/** A fetch that records every request and answer (the body read from a clone), for judging afterwards. */
function recording(via: Exchange['via']): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const res = await fetch(request);
    const url = new URL(request.url);
    exchanges.push({ method: request.method, path: url.pathname.slice(base.pathname.length), status: res.status, text: await res.clone().text(), error: expectingError, via });
    return res;
  };
}

const rawFetch = () => recording('http');
async function http(method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }): Promise<any> {
  const res = await rawFetch()(`${emu.url}${path}`, { method, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return text === '' ? undefined : JSON.parse(text);
}

/** Runs a call that must fail; its answer is recorded as an error case. */
async function failing(call: () => Promise<unknown>): Promise<void> {
  expectingError = true;
  try {
    await call();
  } catch {
    // the SDK throws on 4XX; the answer is judged from the recording
  } finally {
    expectingError = false;
  }
}

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], outbox: mkdtempSync(path.join(tmpdir(), 'contract-outbox-')), fixture: { zones: { [Z]: { plan: 'enterprise' }, shop: shopWithFullHashes() } } });
  base = new URL(emu.url);
  cf = new Cloudflare({ apiToken: TOKEN, baseURL: emu.url, fetch: recording('sdk'), maxRetries: 0 });
});
afterAll(() => emu.close());

async function driveRulesets(scope: { zone_id: string } | { account_id: string }, kind: 'zone' | 'root') {
  const phase = 'http_request_firewall_custom';
  const created: any = await cf.rulesets.create({ ...scope, name: 'contract', kind: 'custom', phase, description: 'made by the contract test', rules: [{ action: 'block', expression: 'ip.src eq 192.0.2.1', description: 'one' }] } as any);
  await cf.rulesets.list(scope as any);
  await cf.rulesets.get(created.id, scope as any);
  await cf.rulesets.update(created.id, { ...scope, rules: [{ action: 'managed_challenge', expression: 'true' }, { action: 'log', expression: 'http.host eq "a.example"' }] } as any);
  const added: any = await cf.rulesets.rules.create(created.id, { ...scope, action: 'block', expression: 'http.request.uri.path eq "/x"' } as any);
  const ruleId = added.rules[added.rules.length - 1]!.id!;
  await cf.rulesets.rules.edit(ruleId, { ...scope, ruleset_id: created.id, action: 'js_challenge', expression: 'true' } as any);
  await cf.rulesets.rules.delete(ruleId, { ...scope, ruleset_id: created.id } as any);
  for await (const _ of cf.rulesets.versions.list(created.id, scope as any));
  await cf.rulesets.versions.get('1', { ...scope, ruleset_id: created.id } as any);
  await cf.rulesets.versions.delete('1', { ...scope, ruleset_id: created.id } as any);
  await cf.rulesets.phases.update(phase, { ...scope, rules: [{ action: 'execute', expression: 'true', action_parameters: { id: created.id } }] } as any);
  const entry = await cf.rulesets.phases.get(phase, scope as any);
  for await (const _ of cf.rulesets.phases.versions.list(phase, scope as any));
  await cf.rulesets.phases.versions.get(entry.version, { ...scope, ruleset_phase: phase } as any);
  const prefix = 'zone_id' in scope ? `/zones/${scope.zone_id}` : `/accounts/${scope.account_id}`;
  // Rules by tag: the schema has the account-level call only.
  if ('account_id' in scope) await http('GET', `${prefix}/rulesets/${MANAGED_RULESET_ID}/versions/1/by_tag/wordpress`);
  // A second ruleset that nothing executes, deleted; then the errors.
  const spare: any = await cf.rulesets.create({ ...scope, name: 'spare', kind: 'custom', phase, rules: [] } as any);
  await cf.rulesets.delete(spare.id, scope as any);
  await failing(() => cf.rulesets.get('00000000000000000000000000000000', scope as any));
  await failing(() => cf.rulesets.create({ ...scope, name: 'x', kind, phase: 'no_such_phase', rules: [] } as any));
  await failing(() => cf.rulesets.rules.create(created.id, { ...scope, action: 'no_such_action', expression: 'true' } as any));
  await failing(() => cf.rulesets.phases.get('http_ratelimit', scope as any));
  await failing(() => http('PUT', `${prefix}/rulesets/${created.id}`, { rules: 'none' }));
  await failing(() => http('DELETE', `${prefix}/rulesets/${created.id}/versions/999`));
}

/**
 * The shared shop fixture with the values the schema requires where it carries made-up or quirky ones that other
 * tests read as they are: every script hash a SHA-256 (64 hex digits; two are "aa01"-like), and a policy's
 * `enabled` a boolean (one is the string "true", for the client's normalisation tests).
 */
function shopWithFullHashes() {
  const shop = structuredClone(SHOP_FIXTURE.zones.shop) as { page_guard: { scripts: { hash?: string }[]; policies: { enabled?: unknown }[] } };
  for (const script of shop.page_guard.scripts) if (script.hash !== undefined && script.hash.length !== 64) script.hash = script.hash.padStart(64, '0');
  for (const policy of shop.page_guard.policies) if (typeof policy.enabled === 'string') policy.enabled = policy.enabled === 'true';
  return shop;
}

describe('the emulator against the provider\'s OpenAPI document', () => {
  it('serves every operation, through the SDK where it has the call, with answers the schema accepts', async () => {
    await driveRulesets({ zone_id: Z }, 'zone');
    await driveRulesets({ account_id: A }, 'root');

    // Page monitoring.
    await cf.pageShield.get({ zone_id: 'shop' });
    await cf.pageShield.update({ zone_id: 'shop', enabled: true, use_cloudflare_reporting_endpoint: true, use_connection_url_path: false });
    for (const resource of ['scripts', 'connections', 'cookies'] as const) {
      const items: any[] = [];
      for await (const item of (cf.pageShield[resource] as any).list({ zone_id: 'shop' })) items.push(item);
      await (cf.pageShield[resource] as any).get(items[0].id, { zone_id: 'shop' });
      await failing(() => (cf.pageShield[resource] as any).get('0'.repeat(32), { zone_id: 'shop' }));
    }
    const policy = await cf.pageShield.policies.create({ zone_id: 'shop', action: 'log', description: 'contract', enabled: true, expression: 'http.host eq "shop.example"', value: "script-src 'self'" } as any);
    for await (const _ of cf.pageShield.policies.list({ zone_id: 'shop' }));
    await cf.pageShield.policies.get(policy!.id!, { zone_id: 'shop' });
    await cf.pageShield.policies.update(policy!.id!, { zone_id: 'shop', enabled: false } as any);
    await cf.pageShield.policies.delete(policy!.id!, { zone_id: 'shop' });
    await failing(() => cf.pageShield.policies.create({ zone_id: 'shop', action: 'nope', expression: 'true', value: "script-src 'self'" } as any));
    await failing(() => cf.pageShield.update({ zone_id: 'shop', enabled: 'yes' } as any));

    // The previous WAF (a zone that has not migrated).
    const packages: any[] = [];
    for await (const p of cf.firewall.waf.packages.list({ zone_id: Z })) packages.push(p);
    const traditional = packages.find((p) => p.detection_mode === 'traditional');
    const anomaly = packages.find((p) => p.detection_mode === 'anomaly');
    await cf.firewall.waf.packages.get(traditional.id, { zone_id: Z });
    await http('PATCH', `/zones/${Z}/firewall/waf/packages/${anomaly.id}`, { sensitivity: 'low' });
    const groups: any[] = [];
    for await (const g of cf.firewall.waf.packages.groups.list(traditional.id, { zone_id: Z })) groups.push(g);
    await cf.firewall.waf.packages.groups.get(groups[0].id, { zone_id: Z, package_id: traditional.id });
    await cf.firewall.waf.packages.groups.edit(groups[0].id, { zone_id: Z, package_id: traditional.id, mode: 'off' });
    const rules: any[] = [];
    for await (const r of cf.firewall.waf.packages.rules.list(traditional.id, { zone_id: Z })) rules.push(r);
    await cf.firewall.waf.packages.rules.get(rules[0].id, { zone_id: Z, package_id: traditional.id });
    await cf.firewall.waf.packages.rules.edit(rules[0].id, { zone_id: Z, package_id: traditional.id, mode: 'simulate' } as any);
    await cf.firewall.waf.overrides.create({ zone_id: Z, urls: ['shop.example/admin*'] } as any);
    const overrides = await http('GET', `/zones/${Z}/firewall/waf/overrides`);
    const overrideId = overrides.result[0].id;
    await cf.firewall.waf.overrides.list({ zone_id: Z } as any);
    await cf.firewall.waf.overrides.get(overrideId, { zone_id: Z });
    await cf.firewall.waf.overrides.update(overrideId, { zone_id: Z, id: overrideId, rewrite_action: {}, rules: {}, urls: ['shop.example/login*'] } as any);
    await cf.firewall.waf.overrides.delete(overrideId, { zone_id: Z });
    await failing(() => cf.firewall.waf.packages.get('nope', { zone_id: Z }));
    await failing(() => cf.firewall.waf.overrides.create({ zone_id: Z, urls: [] } as any));
    await failing(() => cf.firewall.waf.packages.rules.edit(rules[0].id, { zone_id: Z, package_id: traditional.id, mode: 'sideways' } as any));

    // Log export jobs.
    const job = await cf.logpush.jobs.create({ zone_id: Z, destination_conf: 'https://logs.example.com/in', dataset: 'http_requests', name: 'contract', filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":500}}' } as any);
    for await (const _ of cf.logpush.jobs.list({ zone_id: Z }));
    await cf.logpush.jobs.get(job!.id!, { zone_id: Z });
    await cf.logpush.jobs.update(job!.id!, { zone_id: Z, enabled: true } as any);
    await cf.logpush.jobs.delete(job!.id!, { zone_id: Z });
    await cf.logpush.datasets.fields.get('http_requests', { zone_id: Z });
    await cf.logpush.datasets.jobs.get('http_requests', { zone_id: Z });
    const s3 = 's3://contract-bucket/logs?region=us-east-1';
    const challenge = await cf.logpush.ownership.create({ zone_id: Z, destination_conf: s3 });
    const token = readFileSync(challenge!.filename!, 'utf8').trim();
    await cf.logpush.ownership.validate({ zone_id: Z, destination_conf: s3, ownership_challenge: token });
    await cf.logpush.validate.destinationExists({ zone_id: Z, destination_conf: s3 });
    await cf.logpush.validate.origin({ zone_id: Z, logpull_options: 'fields=ClientIP,EdgeResponseStatus&timestamps=rfc3339' });
    const full = await cf.logpush.jobs.create({ zone_id: Z, destination_conf: s3, ownership_challenge: token, dataset: 'http_requests', output_options: { field_names: ['ClientIP', 'EdgeResponseStatus'], output_type: 'ndjson', timestamp_format: 'rfc3339', sample_rate: 0.5, 'CVE-2021-44228': true }, max_upload_bytes: 5_000_000, max_upload_records: 1000, max_upload_interval_seconds: 30 } as any);
    await cf.logpush.jobs.delete(full!.id!, { zone_id: Z });
    // The schema's instant-logs path (the SDK sends to edge/jobs, served too but not in this copy of the schema).
    await http('POST', `/zones/${Z}/logpush/edge`, { fields: 'ClientIP,EdgeResponseStatus', filter: '{"where":{"key":"EdgeResponseStatus","operator":"in","value":[200,201]}}', sample: 1 });
    await http('GET', `/zones/${Z}/logpush/edge`);
    await failing(() => http('POST', `/zones/${Z}/logpush/edge`, { fields: 'ClientIP', filter: '{"where":{"key":"EdgeResponseStatus","operator":"in","value":"200,201"}}', sample: 1 }));
    await failing(() => cf.logpush.jobs.create({ zone_id: Z, destination_conf: s3, ownership_challenge: 'wrong' } as any));
    await failing(() => cf.logpush.datasets.jobs.get('no_such_dataset' as any, { zone_id: Z }));
    await failing(() => cf.logpush.jobs.create({ zone_id: Z, destination_conf: 'https://logs.example.com/in', max_upload_records: 10 } as any));
    await failing(() => cf.logpush.jobs.get(999999, { zone_id: Z }));
    await failing(() => cf.logpush.jobs.create({ zone_id: Z, destination_conf: 'https://logs.example.com/in', filter: '{"where":{"key":"Nope","operator":"eq","value":1}}' } as any));

    // Authentication failures, on any operation.
    await failing(() => http('GET', `/zones/${Z}/rulesets`, undefined, { authorization: 'Bearer wrong' }));
    await failing(() => http('GET', `/zones/${Z}/rulesets`, undefined, {}));
    // A header the API cannot read: 400, 6003 with 6111 in its error chain (the provider's answer).
    await failing(() => http('GET', `/zones/${Z}/rulesets`, undefined, { authorization: 'Basic dXNlcjpwYXNz' }));
    const malformed = exchanges[exchanges.length - 1];
    expect([malformed.status, JSON.parse(malformed.text).errors.map((e: any) => [e.code, e.error_chain?.map((c: any) => c.code)])]).toEqual([400, [[6003, [6111]]]]);

    const { invalid, served, judged, errors } = judge(exchanges);
    const missing = contract.operations.filter((o) => !served.has(o.id)).map((o) => `${o.method} ${o.template}`);
    console.log(`contract: ${served.size} of ${contract.operations.length} operations served; ${judged - invalid.length} of ${judged} answers valid; ${errors} error cases`);
    expect(invalid).toEqual([]);
    expect(missing).toEqual(NOT_YET_SERVED);
  });

  it('answers an error on every operation with the error envelope and the schema\'s failure answer', async () => {
    exchanges.length = 0;
    const none = '0'.repeat(32);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const cases: [string, string, unknown?, Record<string, string>?][] = [];
    for (const prefix of [`/zones/${Z}`, `/accounts/${A}`]) {
      const R = `${prefix}/rulesets`;
      cases.push(
        ['GET', `${R}?per_page=0`],
        ['POST', R, { kind: 'custom', phase: 'http_request_firewall_custom' }],
        ['GET', `${R}/phases/no_such_phase/entrypoint`],
        ['PUT', `${R}/phases/no_such_phase/entrypoint`, { rules: [] }],
        ['GET', `${R}/phases/no_such_phase/entrypoint/versions`],
        ['GET', `${R}/phases/http_ratelimit/entrypoint/versions/1`],
        ['GET', `${R}/${none}`],
        ['PUT', `${R}/${none}`, { rules: [] }],
        ['DELETE', `${R}/${none}`],
        ['POST', `${R}/${none}/rules`, { action: 'block', expression: 'true' }],
        ['PATCH', `${R}/${none}/rules/${none}`, { enabled: false }],
        ['DELETE', `${R}/${none}/rules/${none}`],
        ['GET', `${R}/${none}/versions`],
        ['GET', `${R}/${none}/versions/1`],
        ['DELETE', `${R}/${none}/versions/1`],
      );
    }
    // Rules by tag: the schema has the account-level call only.
    cases.push(['GET', `/accounts/${A}/rulesets/${MANAGED_RULESET_ID}/versions/999/by_tag/wordpress`]);
    const W = `/zones/${Z}/firewall/waf`;
    const pkg = 'a25a9a7e9c00afc1fb2e0245519d725b';
    cases.push(
      ['GET', `${W}/packages?order=bogus`],
      ['GET', `${W}/packages/nope`],
      ['PATCH', `${W}/packages/nope`, { sensitivity: 'low' }],
      ['GET', `${W}/packages/nope/groups`],
      ['GET', `${W}/packages/${pkg}/groups/nope`],
      ['PATCH', `${W}/packages/${pkg}/groups/nope`, { mode: 'on' }],
      ['GET', `${W}/packages/nope/rules`],
      ['GET', `${W}/packages/${pkg}/rules/nope`],
      ['PATCH', `${W}/packages/${pkg}/rules/nope`, { mode: 'block' }],
      ['GET', `${W}/overrides?per_page=1`],
      ['POST', `${W}/overrides`, { urls: [] }],
      ['GET', `${W}/overrides/nope`],
      ['PUT', `${W}/overrides/nope`, { urls: ['shop.example/*'] }],
      ['DELETE', `${W}/overrides/nope`],
    );
    const L = `/zones/${Z}/logpush`;
    cases.push(
      ['GET', `${L}/jobs?page=0`],
      ['POST', `${L}/jobs`, { destination_conf: 42 }],
      ['GET', `${L}/jobs/999999`],
      ['PUT', `${L}/jobs/999999`, { enabled: true }],
      ['DELETE', `${L}/jobs/999999`],
      ['GET', `${L}/datasets/no_such_dataset/fields`],
      ['GET', `${L}/datasets/no_such_dataset/jobs`],
      // The instant-logs list takes no parameter but the credential: a wrong one is its error.
      ['GET', `${L}/edge`, undefined, { authorization: 'Bearer wrong' }],
      ['POST', `${L}/edge`, { fields: 'Nope', sample: 1 }],
      ['POST', `${L}/ownership`, {}],
      ['POST', `${L}/ownership/validate`, { destination_conf: 's3://b/p?region=us-east-1' }],
      ['POST', `${L}/validate/destination/exists`, {}],
      ['POST', `${L}/validate/origin`, {}],
    );
    const S = '/zones/shop/page_shield';
    cases.push(
      ['GET', S, undefined, { authorization: 'Bearer wrong' }],
      ['PUT', S, {}],
      ['GET', `${S}/scripts?page=0`],
      ['GET', `${S}/scripts/${none}`],
      ['GET', `${S}/connections?per_page=101`],
      ['GET', `${S}/connections/${none}`],
      ['GET', `${S}/cookies?same_site=sometimes`],
      ['GET', `${S}/cookies/${none}`],
      ['GET', `${S}/policies?page=2`],
      ['POST', `${S}/policies`, { action: 'log' }],
      ['GET', `${S}/policies/${none}`],
      ['PUT', `${S}/policies/${none}`, { enabled: false }],
      ['DELETE', `${S}/policies/${none}`],
    );
    for (const [method, path, body, headers] of cases) await failing(() => http(method, path, body, headers ?? auth));
    const { invalid, errorCases } = judge(exchanges);
    const without = contract.operations.filter((o) => !errorCases.has(o.id)).map((o) => `${o.method} ${o.template}`);
    console.log(`contract errors: ${errorCases.size} of ${contract.operations.length} operations answered an error case; ${exchanges.length} cases`);
    expect(invalid).toEqual([]);
    expect(without).toEqual([]);
  });
});

describe('list variants and the neutral spelling against the same schema', () => {
  it('answers page=all, status lists, pages past the end, empty zones and both spellings as the schema says', async () => {
    const variants = [
      '', '/scripts?page=all', '/scripts?status=active,infrequent,inactive', '/scripts?per_page=1&page=2', '/scripts?page=99',
      '/scripts?prioritize_malicious=true&exclude_cdn_cgi=false&exclude_duplicates=false&order_by=last_seen_at&direction=asc',
      '/connections?page=all', '/connections?status=infrequent', '/cookies?page=all', '/cookies?per_page=1&same_site=lax', '/policies',
    ].flatMap((tail) => [`/zones/shop/page_shield${tail}`, `/zones/shop/page_guard${tail}`, `/zones/${Z}-empty/page_guard${tail}`]);
    const jobs = ['/jobs', '/jobs?page=1&per_page=5', '/jobs?page=3', '/datasets/firewall_events/fields', '/datasets/http_requests/jobs', '/edge'].map((tail) => `/zones/${Z}/logexport${tail}`);
    const invalid: string[] = [];
    for (const path of [...variants, ...jobs]) {
      const res = await fetch(`${emu.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      // The schema is written in the provider's words: a neutral answer is judged in them.
      const provider = pathIn('provider', path.split('?')[0]);
      const op = contract.operationOf('GET', provider);
      if (!op) {
        invalid.push(`GET ${path}: no operation of the schema`);
        continue;
      }
      const validate = contract.validator(op, res.status);
      const body = fieldsIn('provider', JSON.parse(await res.text()));
      if (res.status !== 200) invalid.push(`GET ${path}: ${res.status}`);
      else if (validate && !validate(body)) invalid.push(`GET ${path}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    }
    expect(invalid).toEqual([]);
  });
});

/** Judges recorded exchanges against the schema (and error cases against the error envelope too). */
function judge(list: Exchange[]) {
  const invalid: string[] = [];
  const served = new Set<string>();
  const errorCases = new Set<string>();
  let judged = 0;
  let errors = 0;
  for (const x of list) {
    const op = contract.operationOf(x.method, x.path);
    if (!op) {
      invalid.push(`${x.method} ${x.path}: no operation of the schema`);
      continue;
    }
    if (x.status < 400) served.add(op.id);
    judged++;
    const body = x.text === '' ? undefined : JSON.parse(x.text);
    const validate = contract.validator(op, x.status);
    if (validate === null) {
      if (body !== undefined) invalid.push(`${op.id} ${x.status}: the schema documents no body, the answer has one`);
    } else if (!validate(body)) {
      invalid.push(`${op.id} ${x.status} (${x.via}): ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    }
    if (x.error) {
      errors++;
      if (x.status < 400) invalid.push(`${op.id} (${x.method} ${x.path}): an error case answered ${x.status}`);
      else if (!envelope(body)) invalid.push(`${op.id} ${x.status}: not the error envelope: ${JSON.stringify(envelope.errors?.slice(0, 2))}`);
      else errorCases.add(op.id);
    }
  }
  return { invalid, served, errorCases, judged, errors };
}

/** Operations of the schema the emulator does not serve yet: the list shrinks as they are added. */
const NOT_YET_SERVED: string[] = [];
