#!/usr/bin/env node
/**
 * Deterministic generator of realistic `http_requests` NDJSON for the evaluator bench: about 70 fields and
 * 2.4 KB a line, written the way the Go exporter writes them (`&`, `<`, `>` as \u0026, \u003c, \u003e; field
 * order of the dataset; nanosecond timestamps beyond 2^53 as plain integers). Same seed, same bytes.
 *
 *   node bench/gen-http-requests.mjs [--mb 200] [--seed 42] [--out bench/.data/http_requests-200mb.ndjson]
 *   node bench/gen-http-requests.mjs --bytes N --seed S --first LINE --out FILE   (one file of a scale workload)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** mulberry32: tiny, fast, good enough for test data (the random filter set draws with it too). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Weighted choice from [[value, weight], ...]. */
function weighted(pairs) {
  const total = pairs.reduce((s, [, w]) => s + w, 0);
  return (r) => {
    let x = r() * total;
    for (const [v, w] of pairs) if ((x -= w) < 0) return v;
    return pairs[pairs.length - 1][0];
  };
}

/**
 * Several hundred hosts with a skewed (Zipf-like) tail: twelve head hosts take half the requests, 400 customer
 * hosts share the rest with weight 1/rank. api.example.com takes 5% (the bench's selective filter).
 */
const TAIL_HOSTS = Array.from({ length: 400 }, (_, i) => [`${['app', 'www', 'img', 'api', 'm'][i % 5]}${i}.customer${(i * 7919) % 997}.example.net`, 0]);
{
  const h = TAIL_HOSTS.reduce((s, _, i) => s + 1 / (i + 1), 0);
  TAIL_HOSTS.forEach((t, i) => (t[1] = (100 / h) / (i + 1)));
}
const HOSTS = weighted([
  ['www.example.com', 30], ['api.example.com', 10], ['example.com', 10], ['static.example.com', 14], ['shop.example.com', 8],
  ['blog.example.com', 6], ['cdn.example.com', 7], ['auth.example.com', 4], ['m.example.com', 4], ['status.example.com', 3],
  ['docs.example.org', 3], ['admin.example.com', 1],
  ...TAIL_HOSTS,
]);
const COUNTRIES = weighted([
  ['us', 28], ['gb', 8], ['de', 8], ['fr', 6], ['ca', 5], ['in', 7], ['br', 5], ['jp', 5], ['cn', 4], ['au', 3], ['nl', 3],
  ['ru', 3], ['sg', 2], ['kr', 2], ['es', 2], ['it', 2], ['se', 1], ['pl', 1], ['mx', 2], ['za', 1], ['sa', 1], ['tr', 1],
]);
const STATUS = weighted([[200, 70], [304, 8], [301, 3], [302, 3], [404, 6], [403, 3], [401, 1], [429, 1], [500, 2], [502, 1], [503, 1], [504, 1]]);
const METHODS = weighted([['GET', 80], ['POST', 12], ['HEAD', 3], ['PUT', 2], ['OPTIONS', 2], ['DELETE', 1]]);
const CACHE = weighted([['hit', 40], ['miss', 15], ['dynamic', 30], ['expired', 4], ['revalidated', 4], ['bypass', 5], ['stale', 1], ['unknown', 1]]);
const PATHS = ['/', '/index.html', '/static/app.js', '/static/app.css', '/api/v1/users', '/api/v1/orders', '/api/v2/search', '/images/logo.png', '/wp-login.php', '/login', '/checkout', '/cart', '/products/widget-3000', '/blog/2024/05/edge-logs', '/health', '/favicon.ico', '/admin/settings', '/api/v1/sessions', '/.env', '/graphql'];
const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'curl/8.5.0', 'python-requests/2.31.0', 'Go-http-client/2.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36 <script>',
  'Mozilla/5.0 "quoted" \\ scanner (+https://scan.example/bot)\tv2',
  'sqlmap/1.7 (\'; DROP TABLE users; --)',
];
const CONTENT_TYPES = ['text/html; charset=utf-8', 'application/json', 'image/png', 'text/css', 'application/javascript', 'image/webp'];
const COLOS = [['SJC', 'us'], ['LHR', 'gb'], ['FRA', 'de'], ['CDG', 'fr'], ['NRT', 'jp'], ['SIN', 'sg'], ['GRU', 'br'], ['BOM', 'in'], ['YYZ', 'ca'], ['SYD', 'au']];
const BOT_TAGS = ['api', 'bing', 'google', 'search_engine', 'monitoring', 'ai_crawler'];
const RULES = ['sqli', 'xss', 'rce', 'lfi', 'bot', 'ratelimit', 'geoblock'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'q', 'page', 'sort', 'utm_source', 'utm_medium', 'ref', 'id', 'token', 'lang', 'session'];

function hex(r, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[(r() * 16) | 0];
  return s;
}
function ip(r) {
  return `${1 + ((r() * 222) | 0)}.${(r() * 256) | 0}.${(r() * 256) | 0}.${(r() * 256) | 0}`;
}
function pick(r, a) {
  return a[(r() * a.length) | 0];
}
function query(r) {
  const n = (r() * 5) | 0;
  const parts = [];
  for (let i = 0; i < n; i++) parts.push(`${pick(r, WORDS)}=${pick(r, WORDS)}${(r() * 1000) | 0}`);
  return parts.length ? '?' + parts.join('&') : '';
}
function sample(r, a, max) {
  const n = (r() * (max + 1)) | 0;
  const out = [];
  for (let i = 0; i < n; i++) out.push(pick(r, a));
  return [...new Set(out)];
}

/** Go's encoding/json escapes HTML-sensitive characters and the JS line separators. */
function goString(s) {
  return JSON.stringify(s).replace(/[&<>\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** A raw JSON fragment (for integers beyond 2^53, which a JS number cannot hold). */
class Raw {
  constructor(text) {
    this.text = text;
  }
}
function enc(v) {
  if (v instanceof Raw) return v.text;
  if (typeof v === 'string') return goString(v);
  if (Array.isArray(v)) return '[' + v.map(enc).join(',') + ']';
  if (v && typeof v === 'object') return '{' + Object.entries(v).map(([k, x]) => goString(k) + ':' + enc(x)).join(',') + '}';
  return JSON.stringify(v);
}

function line(r, n) {
  const host = HOSTS(r);
  const p = pick(r, PATHS);
  const uri = p + query(r);
  const status = STATUS(r);
  const [colo, coloCountry] = pick(r, COLOS);
  const start = 1715000000000000000n + BigInt(n) * 1000003n + BigInt((r() * 1e6) | 0);
  const bytes = (r() * 2e6) | 0;
  const bot = r() < 0.15;
  const o = {
    BotDetectionIDs: bot ? [(r() * 100) | 0, (r() * 100) | 0] : [],
    BotDetectionTags: bot ? sample(r, BOT_TAGS, 2) : [],
    BotScore: bot ? 1 + ((r() * 29) | 0) : 30 + ((r() * 70) | 0),
    BotScoreSrc: bot ? 'Verified Bot' : pick(r, ['Machine Learning', 'Heuristics', 'Behavioral Analysis', 'Not Computed']),
    BotTags: bot ? sample(r, BOT_TAGS, 3) : [],
    CacheCacheStatus: CACHE(r),
    CacheResponseBytes: bytes + 400,
    CacheResponseStatus: status,
    CacheTieredFill: r() < 0.1,
    ClientASN: 1000 + ((r() * 60000) | 0),
    ClientCity: pick(r, ['San Jose', 'London', 'Frankfurt', 'Paris', 'Tokyo', 'Mumbai', 'São Paulo', 'Toronto']),
    ClientCountry: COUNTRIES(r),
    ClientDeviceType: pick(r, ['desktop', 'mobile', 'tablet']),
    ClientIP: ip(r),
    ClientIPClass: pick(r, ['noRecord', 'clean', 'searchEngine', 'monitoringService']),
    ClientLatitude: (r() * 180 - 90).toFixed(4),
    ClientLongitude: (r() * 360 - 180).toFixed(4),
    ClientRequestBytes: 200 + ((r() * 8000) | 0),
    ClientRequestHost: host,
    ClientRequestMethod: METHODS(r),
    ClientRequestPath: p,
    ClientRequestProtocol: pick(r, ['HTTP/1.1', 'HTTP/2', 'HTTP/3']),
    ClientRequestReferer: r() < 0.6 ? `https://${HOSTS(r)}${pick(r, PATHS)}${query(r)}` : '',
    ClientRequestScheme: 'https',
    ClientRequestSource: pick(r, ['eyeball', 'eyeball', 'eyeball', 'workerFetch', 'edgeWorkerFetch']),
    ClientRequestURI: uri,
    ClientRequestUserAgent: pick(r, UAS),
    ClientSSLCipher: pick(r, ['AEAD-AES128-GCM-SHA256', 'ECDHE-ECDSA-AES128-GCM-SHA256', 'AEAD-CHACHA20-POLY1305-SHA256']),
    ClientSSLProtocol: pick(r, ['TLSv1.3', 'TLSv1.2']),
    ClientSrcPort: 1024 + ((r() * 64000) | 0),
    ClientTCPRTTMs: (r() * 300) | 0,
    ClientXRequestedWith: r() < 0.1 ? 'XMLHttpRequest' : '',
    Cookies: { session: hex(r, 24), consent: r() < 0.5 ? 'yes' : 'no' },
    EdgeColoCode: colo,
    EdgeColoID: 10 + ((r() * 400) | 0),
    EdgeEndTimestamp: new Raw(String(start + BigInt((r() * 5e8) | 0))),
    EdgePathingSrc: pick(r, ['macro', 'filterBasedFirewall', 'user']),
    EdgePathingStatus: pick(r, ['nr', 'ok', 'captchaNew']),
    EdgeRequestHost: host,
    EdgeResponseBodyBytes: bytes,
    EdgeResponseBytes: bytes + 350,
    EdgeResponseCompressionRatio: Math.round(r() * 300) / 100,
    EdgeResponseContentType: pick(r, CONTENT_TYPES),
    EdgeResponseStatus: status,
    EdgeServerIP: ip(r),
    EdgeStartTimestamp: new Raw(String(start)),
    EdgeTimeToFirstByteMs: (r() * 2000) | 0,
    JA3Hash: hex(r, 32),
    JA4: `t13d${(r() * 9) | 0}${(r() * 9) | 0}12h2_${hex(r, 12)}_${hex(r, 12)}`,
    OriginIP: ip(r),
    OriginResponseBytes: bytes,
    OriginResponseDurationMs: (r() * 3000) | 0,
    OriginResponseHeaderReceiveDurationMs: (r() * 2000) | 0,
    OriginResponseStatus: status,
    OriginResponseTime: (r() * 3e9) | 0,
    OriginSSLProtocol: 'TLSv1.3',
    OriginTCPHandshakeDurationMs: (r() * 40) | 0,
    RayID: hex(r, 16),
    RequestHeaders: { 'accept-language': pick(r, ['en-US,en;q=0.9', 'de-DE,de;q=0.8', 'fr-FR']), 'x-forwarded-for': ip(r) },
    ResponseHeaders: { 'cache-control': pick(r, ['max-age=3600', 'no-store', 'private, max-age=0']), 'content-security-policy': "default-src 'self'; script-src 'self' https://cdn.example.com" },
    SecurityAction: status === 403 ? 'block' : 'unknown',
    SecurityActions: status === 403 ? ['block'] : [],
    SecurityRuleDescription: status === 403 ? 'Block <script> & SQL injection attempts' : '',
    SecurityRuleID: status === 403 ? hex(r, 32) : '',
    SecurityRuleIDs: status === 403 ? [hex(r, 32)] : [],
    SecuritySources: sample(r, RULES, 2),
    WAFAttackScore: 1 + ((r() * 98) | 0),
    WAFFlags: '0',
    WAFSQLiAttackScore: 1 + ((r() * 98) | 0),
    WorkerCPUTime: 0,
    WorkerStatus: 'unknown',
    ZoneName: 'example.com',
  };
  void coloCountry;
  // Absent fields, as with jobs whose field lists differ or values the exporter omits.
  if (r() < 0.2) delete o.ClientRequestReferer;
  if (r() < 0.05) delete o.BotScore;
  if (r() < 0.1) delete o.RequestHeaders;
  if (r() < 0.3) delete o.SecurityRuleDescription;
  if (r() < 0.02) delete o.ClientDeviceType;
  return enc(o);
}

export function generate(file, mb, seed) {
  return writeLines(file, mb * 1024 * 1024, seed, 0);
}

/**
 * Lines from `seed` until `bytes` would be reached, numbered from `firstLine` (the line number sets the
 * timestamps, so the files of one workload, each with its own seed, follow each other in time). Streams to
 * `file` (through `file.tmp`, renamed when complete) in 4 MB batches: memory stays flat at any size.
 */
export function writeLines(file, bytes, seed, firstLine) {
  const r = rng(seed);
  const target = bytes;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file + '.tmp', 'w');
  let written = 0;
  let n = firstLine;
  let batch = [];
  let batchBytes = 0;
  while (written + batchBytes < target) {
    const l = line(r, n++) + '\n';
    batch.push(l);
    batchBytes += l.length;
    if (batchBytes > 4 << 20) {
      written += fs.writeSync(fd, batch.join(''));
      batch = [];
      batchBytes = 0;
    }
  }
  if (batch.length) written += fs.writeSync(fd, batch.join(''));
  fs.closeSync(fd);
  fs.renameSync(file + '.tmp', file);
  return { lines: n - firstLine, bytes: fs.statSync(file).size };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  const here = path.dirname(fileURLToPath(import.meta.url));
  const mb = Number(arg('mb', '200'));
  const out = arg('out', path.join(here, '.data', `http_requests-${mb}mb.ndjson`));
  const t = performance.now();
  // --bytes/--first: one file of a larger workload (bench/scale-data.mjs runs several of these at once).
  const res = arg('bytes', '')
    ? writeLines(out, Number(arg('bytes')), Number(arg('seed', '42')), Number(arg('first', '0')))
    : generate(out, mb, Number(arg('seed', '42')));
  console.error(`${out}: ${res.lines} lines, ${(res.bytes / 1048576).toFixed(1)} MB in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
