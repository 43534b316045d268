// Reliability figures: checking long `in` lists is linear (time for 200,000 items against 50,000: a
// ratio near 4 means linear, near 16 quadratic), and a 1 MB job POST does not hold up the emulator: the time a GET
// waits while such POSTs arrive, against the same GET on an idle emulator, measured in the same run. Run after
// `npm run build`.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { check } = await import(pathToFileURL(path.join(root, 'packages/core/dist/logfilter-core.js')).href);
const { startEmulator } = await import(pathToFileURL(path.join(root, 'packages/emulator/dist/index.js')).href);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const inList = (n) => JSON.stringify({ where: { key: 'ClientRequestHost', operator: 'in', value: Array.from({ length: n }, (_, i) => `h${i}.example.com`) } });
const timeCheck = (text) => {
  const t0 = process.hrtime.bigint();
  check(text);
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const small = inList(50_000);
const large = inList(200_000);
timeCheck(small);
// The fastest of five runs: on a busy machine the others measure the neighbours and the garbage collector.
const smallMs = Math.min(...[0, 1, 2, 3, 4].map(() => timeCheck(small)));
const largeMs = Math.min(...[0, 1, 2, 3, 4].map(() => timeCheck(large)));
console.log(`check of an in-list: 50,000 items ${smallMs.toFixed(0)} ms, 200,000 items ${largeMs.toFixed(0)} ms, ratio ${(largeMs / smallMs).toFixed(1)} (4 = linear, 16 = quadratic)`);

const emu = await startEmulator({ tokens: ['t'] });
const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };
const get = async () => {
  const t0 = process.hrtime.bigint();
  await (await fetch(`${emu.url}/zones/z/logexport/jobs`, { headers })).text();
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const bigBody = JSON.stringify({ destination_conf: 's3://b/p?region=x', filter: JSON.stringify({ where: { key: 'ClientRequestHost', operator: 'in', value: Array.from({ length: 90_000 }, (_, i) => `v${i}`) } }) });
for (let i = 0; i < 20; i++) await get();
const idle = [];
const busy = [];
for (let round = 0; round < 15; round++) {
  idle.push(await get());
  const posts = [0, 1, 2].map(() => fetch(`${emu.url}/zones/z/logexport/jobs`, { method: 'POST', headers, body: bigBody }).then((r) => r.text()));
  await new Promise((r) => setTimeout(r, 2));
  busy.push(await get());
  await Promise.all(posts);
}
await emu.close();
console.log(`emulator GET: idle median ${median(idle).toFixed(1)} ms, during three 1 MB job POSTs median ${median(busy).toFixed(1)} ms, max ${Math.max(...busy).toFixed(1)} ms (body ${(bigBody.length / 1e6).toFixed(2)} MB)`);
