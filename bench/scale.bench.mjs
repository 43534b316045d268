#!/usr/bin/env node
/**
 * Scale bench: `logfilter eval FILTER DIR --json` against DuckDB (declared columns, 2 threads: the eval bench's
 * peer) on workloads from 20 MB to 10 GB of http_requests lines in the log export layout (bench/scale-data.mjs:
 * `<YYYYMMDD>/<start>_<end>_<hash>.log[.gz]`, 32 MB files, a plain and a gzip tree), and on a hidden-style set
 * of filters drawn at random from a seed (bench/random-filters.mjs).
 *
 *   npm run build && node bench/scale.bench.mjs [--sizes 20,200,2048,10240] [--shapes F1,F2,F3]
 *     [--variants plain,gzip] [--rounds 5] [--big-rounds 3] [--random-sizes 200,2048] [--seed 1] [--count 12]
 *     [--only scale|random] [--jobs 2] [--contention-rounds 3] [--quick] [--plan]
 *
 * --quick: 20 and 200 MB, 3 rounds, 6 random filters on 200 MB (a few minutes once the data is cached).
 * --plan: print what would run (sizes, shapes, rounds, the cache) as JSON and stop. Bad options: exit 2.
 * --contention-rounds: rounds of the 2-core section's last line (two busy processes against one, ~1.3 CPU-s each);
 * test/bench-scale.test.ts runs the section in its smallest form with 1.
 * Workloads are generated on first use (2 GB: several minutes, 10 GB: half an hour on 2 cores) and cached in
 * $LOGFILTER_BENCH_CACHE (default ~/.cache/logfilter-bench); `--jobs` files are written at once.
 *
 * Every figure is the median of `--rounds` interleaved rounds (every command once per round, in turn, so a
 * slow moment of the machine hits all alike; `--big-rounds` at 10 GB), each command its own process, start-up
 * included. CPU is user+sys of the whole process and peak RSS its ru_maxrss (the process and its worker
 * threads, as VmHWM), both from /usr/bin/time. Counts must agree with DuckDB's on every run, else the bench
 * fails (exit 1): a mismatch is a bug.
 *
 * Goals (README.md, "The scale bench"): every shape >= 1.5x DuckDB at 2 GB and 10 GB, peak RSS < 200 MB, the throughput curve
 * printed, and on the random set no filter below 1.25x DuckDB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { FILTERS, bin, here, median, requireBuild } from './workloads.mjs';
import { query } from './duckdb-sql.mjs';
import { cacheDir, ensureWorkload, listTree } from './scale-data.mjs';
import { drawFilters } from './random-filters.mjs';

const argv = process.argv;
// Bad options get a clear answer (exit 2), not a run of an hour on the wrong sizes.
const VALUED = ['sizes', 'shapes', 'variants', 'rounds', 'big-rounds', 'random-sizes', 'seed', 'count', 'only', 'jobs', 'contention-rounds'];
const FLAGS = ['quick', 'plan'];
const usage = (msg) => {
  console.error(`scale bench: ${msg}\n  options: ${VALUED.map((v) => `--${v} V`).join(' ')} ${FLAGS.map((f) => `--${f}`).join(' ')}`);
  process.exit(2);
};
for (let i = 2; i < argv.length; i++) {
  const name = argv[i].replace(/^--/, '');
  if (!argv[i].startsWith('--') || (!VALUED.includes(name) && !FLAGS.includes(name))) usage(`unknown option ${argv[i]}`);
  if (VALUED.includes(name) && (i + 1 >= argv.length || argv[i + 1].startsWith('--'))) usage(`${argv[i]} needs a value`);
  if (VALUED.includes(name)) i++;
}
const arg = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i > 0 ? argv[i + 1] : dflt;
};
const list = (s) => s.split(',').map((x) => x.trim()).filter(Boolean);
const QUICK = argv.includes('--quick');
const SIZES = list(arg('sizes', QUICK ? '20,200' : '20,200,2048,10240'));
const SHAPES = list(arg('shapes', 'F1,F2,F3')).map((s) => {
  const name = Object.keys(FILTERS).find((k) => k.startsWith(s + ' '));
  if (!name) usage(`unknown shape ${s} (F1, F2, F3)`);
  return name;
});
const VARIANTS = list(arg('variants', 'plain,gzip'));
const ROUNDS = Number(arg('rounds', QUICK ? '3' : '5'));
const BIG_ROUNDS = Number(arg('big-rounds', '5'));
const RANDOM_SIZES = list(arg('random-sizes', QUICK ? '200' : '200,2048'));
const SEED = Number(arg('seed', '1'));
const COUNT = Number(arg('count', QUICK ? '6' : '12'));
const ONLY = arg('only', '');
const JOBS = Number(arg('jobs', '2'));
const CONTENTION_ROUNDS = Number(arg('contention-rounds', '3'));
for (const v of VARIANTS) if (v !== 'plain' && v !== 'gzip') usage(`unknown variant ${v} (plain, gzip)`);
for (const [name, xs] of [['sizes', SIZES], ['random-sizes', RANDOM_SIZES]]) {
  for (const x of xs) if (!/^\d+(\.\d+)?$/.test(x) || !(Number(x) > 0)) usage(`--${name}: ${x} is not a size in MB`);
  xs.splice(0, xs.length, ...xs.map(Number));
}
for (const [name, x] of [['rounds', ROUNDS], ['big-rounds', BIG_ROUNDS], ['count', COUNT], ['jobs', JOBS], ['contention-rounds', CONTENTION_ROUNDS]]) if (!Number.isInteger(x) || x < 1) usage(`--${name}: ${x} is not a whole number >= 1`);
if (!Number.isInteger(SEED)) usage(`--seed: ${SEED} is not an integer`);
if (ONLY && ONLY !== 'scale' && ONLY !== 'random') usage(`--only: ${ONLY} (scale or random)`);
if (argv.includes('--plan')) {
  // What a run would do, without doing it (the README's commands are checked this way).
  console.log(JSON.stringify({ sizes: ONLY === 'random' ? [] : SIZES, shapes: SHAPES, variants: VARIANTS, rounds: ROUNDS, bigRounds: BIG_ROUNDS, randomSizes: ONLY === 'scale' ? [] : RANDOM_SIZES, seed: SEED, count: COUNT, jobs: JOBS, contentionRounds: CONTENTION_ROUNDS, cache: cacheDir() }));
  process.exit(0);
}
requireBuild('scale bench');

const node = process.execPath;
const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : '';
if (!TIME) console.log('scale bench: /usr/bin/time not found (apt-get install time): CPU and peak RSS are not measured');
if (VARIANTS.includes('gzip') && ONLY !== 'random') {
  // Which inflater eval's gzip figures are of (LOGFILTER_INFLATE=zlib in the bench's environment measures Node's zlib).
  const { inflaterInUse } = await import(new URL('../packages/cli/dist/eval/native-inflate.js', import.meta.url).href);
  const inf = inflaterInUse();
  console.log(`scale bench: eval inflates gzip with ${inf.name === 'isa-l' ? "ISA-L (@logfilter/native-inflate)" : `Node's zlib (${inf.reason})`}`);
}
const work = path.join(cacheDir(), 'runs');
fs.mkdirSync(work, { recursive: true });
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/** One command as a whole process: wall seconds, CPU seconds (user+sys), peak RSS (MB) and stdout. */
function measure(cmd, args) {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = TIME ? spawn(TIME, ['-f', '__time %U %S %M', cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - t) / 1000;
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`));
      const m = /__time ([\d.]+) ([\d.]+) (\d+)/.exec(err);
      resolve({ seconds, cpu: m ? Number(m[1]) + Number(m[2]) : NaN, peak: m ? Number(m[3]) / 1024 : NaN, out });
    });
  });
}

/**
 * Reads every file of the workload's variants once, untimed, before its first round. Without it the first
 * command of a run paid the cold page cache for all the others (10 GB plain F1 first: 29 s where a re-run took
 * 3.9 s), and the round it fell in was not like the rest.
 */
function warm(w, variants) {
  const t = performance.now();
  const buf = Buffer.allocUnsafe(1 << 20);
  let bytes = 0;
  for (const v of variants) {
    for (const f of listTree(w[v])) {
      const fd = fs.openSync(f, 'r');
      let n;
      while ((n = fs.readSync(fd, buf, 0, buf.length)) > 0) bytes += n;
      fs.closeSync(fd);
    }
  }
  return { bytes, seconds: (performance.now() - t) / 1000 };
}

/** Runs `tasks` ([id, () => measure(...)]) in `rounds` interleaved rounds; the medians (peak: the maximum). */
async function rounds(tasks, n) {
  const runs = new Map(tasks.map(([id]) => [id, []]));
  for (let r = 0; r < n; r++) for (const [id, run] of tasks) runs.get(id).push(await run());
  const out = new Map();
  for (const [id, rs] of runs) {
    out.set(id, {
      seconds: median(rs.map((m) => m.seconds)),
      cpu: median(rs.map((m) => m.cpu)),
      peak: Math.max(...rs.map((m) => m.peak)),
      outs: rs.map((m) => m.out),
      json: JSON.parse(rs[0].out),
    });
  }
  return out;
}

/** A counts check across every run of every command given (all must say the same total and matched). */
function agree(...results) {
  const counts = new Set(results.flatMap((r) => r.outs.map((o) => { const j = JSON.parse(o); return `${j.total}/${j.matched}`; })));
  return counts.size === 1;
}

const filterFile = (name, json) => {
  const f = path.join(work, `filter-${name.replace(/\W+/g, '-')}.json`);
  fs.writeFileSync(f, typeof json === 'string' ? json : JSON.stringify(json));
  return f;
};
const sqlFile = (name, filter, glob) => {
  const f = path.join(work, `query-${name.replace(/\W+/g, '-')}.sql`);
  fs.writeFileSync(f, query(filter, glob));
  return f;
};
const evalCmd = (filter, dir, extra = []) => () => measure(node, [bin, 'eval', filter, dir, '--json', '--no-progress', ...extra]);
const duckCmd = (sql) => () => measure(node, [path.join(here, 'duckdb-peer.mjs'), sql]);
const globOf = (w, variant) => path.join(w[variant], '*', variant === 'gzip' ? '*.log.gz' : '*.log');
// What reading alone costs: every plain file read in 1 MB chunks, nothing else (the CPU of getting the bytes).
// Read into WebAssembly memory, where eval reads (the line kernel's): copying out of the page cache into a
// Buffer of 256 KB or more from Buffer.allocUnsafe measured 3x the CPU of the same reads into WebAssembly
// memory (2 GB: 1.1-1.3 s against 0.38-0.43 s, any chunk size from 128 KB to 1 MB; a 128 KB Buffer 0.38 s),
// which made this line overstate eval's reading and understate its matching.
const READ = `const fs=require('fs');const b=Buffer.from(new WebAssembly.Memory({initial:17}).buffer,0,1<<20);let n=0;for(const f of process.argv.slice(1)){const d=fs.openSync(f,'r');let g;while((g=fs.readSync(d,b,0,b.length))>0)n+=g;fs.closeSync(d)}process.stdout.write(JSON.stringify({total:n,matched:0}))`;

// The same reads on two threads at once, each on every other file: what the machine gives two threads that
// only read (the page cache's copies and the memory they cross), the limit of any split of a plain directory.
const READ_LOOP = `const fs=require('fs');const read=(files)=>{const b=Buffer.from(new WebAssembly.Memory({initial:17}).buffer,0,1<<20);let n=0;for(const f of files){const d=fs.openSync(f,'r');let g;while((g=fs.readSync(d,b,0,b.length))>0)n+=g;fs.closeSync(d)}return n};`;
const READ2 = `${READ_LOOP}const {Worker}=require('worker_threads');const files=process.argv.slice(1);const w=new Worker(${JSON.stringify(READ_LOOP)}+"require('worker_threads').parentPort.postMessage(read(require('worker_threads').workerData))",{eval:true,workerData:files.filter((_,i)=>i%2===1)});w.once('message',(m)=>{const n=mine+m;process.stdout.write(JSON.stringify({total:n,matched:0}));w.terminate()});const mine=read(files.filter((_,i)=>i%2===0))`;
// Two evaluations at once, each on one thread (--workers 0) over every other file: the split's scanning with
// none of its machinery (no worker start-up, no hand-out, no messages). The split's CPU against theirs is what
// the split itself adds; theirs against one thread's is what two scans at once cost each other on this machine.
const PAIR = `const {spawn}=require('child_process');const [bin,filter,...files]=process.argv.slice(1);const run=(h)=>new Promise((res,rej)=>{const c=spawn(process.execPath,[bin,'eval',filter,...files.filter((_,i)=>i%2===h),'--json','--no-progress','--workers','0'],{stdio:['ignore','pipe','inherit']});let o='';c.stdout.on('data',(d)=>(o+=d));c.on('close',(k)=>(k?rej(new Error('exit '+k)):res(JSON.parse(o))))});Promise.all([run(0),run(1)]).then(([a,b])=>process.stdout.write(JSON.stringify({total:a.total+b.total,matched:a.matched+b.matched})))`;

// The decompression limit (the issue's): `gzip -dc` of the gzip tree split over both cores, two processes each on
// every other file (halves of equal size), output discarded; the wall of both, CPU of both.
const LIMIT = `for h in 0 1; do awk -v h=$h 'NR % 2 == h' "$0" | xargs gzip -dc > /dev/null & done; wait; echo '{"total":0,"matched":0}'`;
const limitCmd = (w) => {
  const list = path.join(work, `gzip-files-${path.basename(path.dirname(w.gzip))}.txt`);
  fs.writeFileSync(list, listTree(w.gzip).join('\n') + '\n');
  return () => measure('sh', ['-c', LIMIT, list]);
};

// Whether two threads slow each other down whatever they run: a busy loop (registers only) and a copy of 64 MB
// buffers (memory bandwidth), each as one process alone and as two at once; CPU per process. On cores that
// share nothing both stay near 1x; hyperthreads of one host core (a VM's vCPUs may be) slow the loop, a shared
// memory bus the copy.
const CONTEND = `const t=process.cpuUsage();let x=1;for(let i=0;i<1.5e8;i++)x=(x*1103515245+12345)|0;const l=process.cpuUsage(t);const a=Buffer.alloc(64<<20),b=Buffer.alloc(64<<20);a.copy(b);const c=process.cpuUsage();for(let i=0;i<12;i++)a.copy(b);const d=process.cpuUsage(c);process.stdout.write(JSON.stringify({loop:(l.user+l.system)/1e6,copy:(d.user+d.system)/1e6,x}))`;
const contention = async (n) => {
  const one = (cb) => new Promise((resolve, reject) => {
    const child = spawn(node, ['-e', CONTEND], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', () => resolve(JSON.parse(out)));
  });
  const alone = [];
  const both = [];
  for (let r = 0; r < n; r++) {
    alone.push(await one());
    both.push(...(await Promise.all([one(), one()])));
  }
  const m = (xs, k) => median(xs.map((x) => x[k]));
  return { loop: m(both, 'loop') / m(alone, 'loop'), copy: m(both, 'copy') / m(alone, 'copy') };
};

let failed = false;
const fail = (msg) => {
  failed = true;
  console.log(`  FAIL: ${msg}`);
};

// ---------------------------------------------------------------- the shapes F1–F3 at every size
async function scale() {
  const curve = [];
  const scaling = [];
  const empty = path.join(work, 'empty.log');
  fs.writeFileSync(empty, '');
  for (const mb of SIZES) {
    const w = await ensureWorkload(mb, { jobs: JOBS });
    const n = mb >= 10240 ? BIG_ROUNDS : ROUNDS;
    const tasks = [];
    for (const variant of VARIANTS) {
      for (const shape of SHAPES) {
        const f = filterFile(shape, FILTERS[shape]);
        tasks.push([`eval ${variant} ${shape}`, evalCmd(f, w[variant])]);
        tasks.push([`duck ${variant} ${shape}`, duckCmd(sqlFile(`${mb}-${variant}-${shape}`, FILTERS[shape], globOf(w, variant)))]);
        if (variant === 'plain' && shape.startsWith('F3')) tasks.push([`w0 ${variant} ${shape}`, evalCmd(f, w[variant], ['--workers', '0'])]);
      }
    }
    if (VARIANTS.includes('gzip')) tasks.push(['limit', limitCmd(w)]);
    const f3 = SHAPES.find((s) => s.startsWith('F3'));
    if (f3 && VARIANTS.includes('plain')) {
      tasks.push(['read', () => measure(node, ['-e', READ, ...listTree(w.plain)])]);
      tasks.push(['read2', () => measure(node, ['-e', READ2, ...listTree(w.plain)])]);
      tasks.push(['pair', () => measure(node, ['-e', PAIR, bin, filterFile(f3, FILTERS[f3]), ...listTree(w.plain)])]);
      tasks.push(['startup', evalCmd(filterFile(f3, FILTERS[f3]), empty)]);
    }
    const warmed = warm(w, VARIANTS);
    const before = load();
    const res = await rounds(tasks, n);
    const MB = w.bytes / 1048576;
    console.log(`\n${mb} MB: ${w.files} files, ${w.lines} lines (${(w.gzipBytes / 1048576).toFixed(0)} MB as gzip), median of ${n} interleaved rounds, load average ${before} -> ${load()}; page cache warmed first (${(warmed.bytes / 1048576).toFixed(0)} MB read untimed in ${warmed.seconds.toFixed(1)} s)`);
    console.log(`  ${'command'.padEnd(36)} ${'wall'.padStart(8)} ${'MB/s'.padStart(6)} ${'CPU'.padStart(8)} ${'peak RSS'.padStart(9)}  vs DuckDB  matched`);
    const row = (label, m, extra = '') => console.log(`  ${label.padEnd(36)} ${m.seconds.toFixed(2).padStart(7)}s ${(MB / m.seconds).toFixed(0).padStart(6)} ${m.cpu.toFixed(2).padStart(7)}s ${m.peak.toFixed(0).padStart(6)} MB  ${extra}`);
    for (const variant of VARIANTS) {
      for (const shape of SHAPES) {
        const e = res.get(`eval ${variant} ${shape}`);
        const d = res.get(`duck ${variant} ${shape}`);
        const w0 = res.get(`w0 ${variant} ${shape}`);
        const ok = agree(e, d, ...(w0 ? [w0] : []));
        if (!ok) fail(`${mb} MB ${variant} ${shape}: counts differ (logfilter ${e.outs.join(' ')}; DuckDB ${d.outs.join(' ')})`);
        if (e.json.total !== w.lines) fail(`${mb} MB ${variant} ${shape}: logfilter counted ${e.json.total} lines of ${w.lines}`);
        row(`${variant} ${shape}: logfilter eval`, e, `${(d.seconds / e.seconds).toFixed(2).padStart(6)}x (CPU ${(d.cpu / e.cpu).toFixed(2)}x)  ${e.json.matched}/${e.json.total}${ok ? '' : '  COUNTS DIFFER'}`);
        if (w0) row(`${variant} ${shape}: --workers 0`, w0);
        row(`${variant} ${shape}: DuckDB (2 threads)`, d, `          ${d.json.matched}/${d.json.total}`);
        curve.push({ mb, variant, shape, e, d, MB });
      }
    }
    if (res.has('limit')) {
      const limit = res.get('limit');
      row('gzip -dc split over 2 cores (limit)', limit);
      const gz = SHAPES.map((shape) => [shape, res.get(`eval gzip ${shape}`).seconds / limit.seconds]);
      // Where eval's start-up alone (node's included) exceeds 1.2x the limit's whole time, no inflater reaches the
      // goal at this size: said beside the verdict, so a small size's miss is read as what it is.
      const start = res.get('startup');
      const reach = start && start.seconds > 1.2 * limit.seconds ? `; out of reach at this size: eval of an empty file alone takes ${start.seconds.toFixed(2)} s, ${(start.seconds / limit.seconds).toFixed(2)}x the limit` : '';
      console.log(`  gzip eval time / the limit's: ${gz.map(([shape, x]) => `${shape.split(' ')[0]} ${x.toFixed(2)}x`).join(', ')} (goal <= 1.2x: ${gz.every(([, x]) => x <= 1.2) ? 'met' : 'NOT met'}${reach})`);
    }
    if (res.has('read')) {
      row('read only (1 MB chunks)', res.get('read'));
      row('read only, two threads', res.get('read2'));
      const pair = res.get('pair');
      if (!agree(pair, res.get(`eval plain ${f3}`))) fail(`${mb} MB plain ${f3}: two processes on halves counted ${pair.outs.join(' ')}`);
      row(`plain ${f3.split(' ')[0]}: 2 processes on halves`, pair, `          ${pair.json.matched}/${pair.json.total}`);
      row('eval start-up (empty file)', res.get('startup'));
      scaling.push({ mb, w2: res.get(`eval plain ${f3}`), w1: res.get(`w0 plain ${f3}`), read: res.get('read'), read2: res.get('read2'), pair, start: res.get('startup') });
    }
  }
  console.log('\nThroughput curve (MB/s of uncompressed lines, whole process; ratio = DuckDB time / logfilter time, goal >= 1.5x at 2 GB and 10 GB;');
  console.log('CPU = the same ratio in CPU seconds (user+sys), which a machine busy with other work distorts less):');
  console.log(`  | shape | variant | ${SIZES.map((s) => `${s} MB`).join(' | ')} |`);
  console.log(`  |---|---|${SIZES.map(() => '---').join('|')}|`);
  for (const variant of VARIANTS) {
    for (const shape of SHAPES) {
      const cells = SIZES.map((mb) => {
        const c = curve.find((x) => x.mb === mb && x.variant === variant && x.shape === shape);
        return `${(c.MB / c.e.seconds).toFixed(0)} (DuckDB ${(c.MB / c.d.seconds).toFixed(0)}) ${(c.d.seconds / c.e.seconds).toFixed(2)}x, CPU ${(c.d.cpu / c.e.cpu).toFixed(2)}x`;
      });
      console.log(`  | ${shape} | ${variant} | ${cells.join(' | ')} |`);
    }
  }
  console.log('\nPeak RSS of logfilter eval (MB, process and worker threads; goal < 200):');
  console.log(`  | shape | variant | ${SIZES.map((s) => `${s} MB`).join(' | ')} |`);
  console.log(`  |---|---|${SIZES.map(() => '---').join('|')}|`);
  for (const variant of VARIANTS) for (const shape of SHAPES) console.log(`  | ${shape} | ${variant} | ${SIZES.map((mb) => curve.find((x) => x.mb === mb && x.variant === variant && x.shape === shape).e.peak.toFixed(0)).join(' | ')} |`);
  const big = curve.filter((c) => c.mb >= 2048);
  if (big.length) {
    const short = big.filter((c) => c.d.seconds / c.e.seconds < 1.5).map((c) => `${c.shape} ${c.variant} ${c.mb} MB ${(c.d.seconds / c.e.seconds).toFixed(2)}x`);
    console.log(`\nGoal >= 1.5x DuckDB at 2 GB and up: ${short.length ? `not met by ${short.join('; ')}` : 'met by every shape and variant measured'}`);
  }
  const heavy = curve.filter((c) => c.e.peak >= 200);
  console.log(`Goal peak RSS < 200 MB: ${heavy.length ? `not met by ${heavy.map((c) => `${c.shape} ${c.variant} ${c.mb} MB (${c.e.peak.toFixed(0)} MB)`).join('; ')}` : 'met by every run'}`);
  if (scaling.length) {
    console.log(`\n2-core scaling on F3 (plain): --workers 0 against the default (one worker beside the main thread); where the rest of 2x goes, from CPU (user+sys) and wall:`);
    console.log('  | size | 1 thread | default | speed-up | CPU 1 thread | CPU default | extra CPU of the split | idle core-seconds | reading (CPU) | start-up (CPU) | matching (CPU) |');
    console.log('  |---|---|---|---|---|---|---|---|---|---|---|');
    for (const s of scaling) {
      const extra = s.w2.cpu - s.w1.cpu;
      const idle = 2 * s.w2.seconds - s.w2.cpu;
      const matching = s.w1.cpu - s.read.cpu - s.start.cpu;
      console.log(`  | ${s.mb} MB | ${s.w1.seconds.toFixed(2)} s | ${s.w2.seconds.toFixed(2)} s | ${(s.w1.seconds / s.w2.seconds).toFixed(2)}x | ${s.w1.cpu.toFixed(2)} s | ${s.w2.cpu.toFixed(2)} s | ${extra.toFixed(2)} s (${((100 * extra) / s.w1.cpu).toFixed(0)}%) | ${idle.toFixed(2)} s | ${s.read.cpu.toFixed(2)} s | ${s.start.cpu.toFixed(2)} s | ${matching.toFixed(2)} s |`);
    }
    console.log('  speed-up = 1-thread wall / default wall (2x is the ceiling on 2 cores). Of what is missing: "extra CPU of the split" is work');
    console.log('  the split adds (thread start-up, handing blocks over, merging counts); "idle core-seconds" = 2 x wall - CPU is time');
    console.log('  a core had nothing of ours to run (serial start-up and tail, waiting on reads, and on a loaded machine other');
    console.log('  processes); reading is the CPU of getting the bytes alone, matching the rest of the 1-thread CPU after start-up.');
    console.log('  The same work with none of the split: two --workers 0 processes at once, each on every other file (CPU of both), and');
    console.log('  reading alone on two threads against one (wall, CPU):');
    for (const s of scaling) {
      const two = s.pair.cpu - s.w1.cpu;
      const own = s.w2.cpu - s.pair.cpu;
      console.log(`  ${s.mb} MB: two processes ${s.pair.seconds.toFixed(2)} s, CPU ${s.pair.cpu.toFixed(2)} s (${two >= 0 ? '+' : ''}${((100 * two) / s.w1.cpu).toFixed(0)}% against one thread: two scans at once, and a second start-up);`);
      console.log(`    the split's CPU against theirs ${own >= 0 ? '+' : ''}${own.toFixed(2)} s (${((100 * own) / s.pair.cpu).toFixed(0)}%: what the split itself adds); reading on two threads ${s.read2.seconds.toFixed(2)} s`);
      console.log(`    (${(s.read.seconds / s.read2.seconds).toFixed(2)}x one thread's ${s.read.seconds.toFixed(2)} s), CPU ${s.read2.cpu.toFixed(2)} s against ${s.read.cpu.toFixed(2)} s.`);
    }
    const c = await contention(CONTENTION_ROUNDS);
    console.log(`  Two processes at once against one alone, CPU each (1.00x: the cores share nothing), load average ${load()}: a busy loop ${c.loop.toFixed(2)}x,`);
    console.log(`  a copy of 64 MB buffers ${c.copy.toFixed(2)}x. Where these exceed 1, two threads of eval slow each other down the same way.`);
  }
}

// ---------------------------------------------------------------- the random hidden-style set
function sampleLines(w, n = 3000) {
  const first = listTree(w.plain)[0];
  const fd = fs.openSync(first, 'r');
  const buf = Buffer.alloc(Math.min(fs.statSync(first).size, n * 4096));
  fs.readSync(fd, buf, 0, buf.length, 0);
  fs.closeSync(fd);
  return buf.toString('utf8').split('\n').slice(0, -1).slice(0, n).map((l) => JSON.parse(l));
}

async function randomSet() {
  for (const mb of RANDOM_SIZES) {
    const w = await ensureWorkload(mb, { jobs: JOBS });
    const t = performance.now();
    const filters = drawFilters({ seed: SEED, count: COUNT, sample: sampleLines(w) });
    const ops = new Set(filters.flatMap((f) => f.operators));
    console.log(`\nRandom hidden-style set: seed ${SEED} (--seed), ${COUNT} filters drawn in ${((performance.now() - t) / 1000).toFixed(1)} s, every one compiled; operators used: ${ops.size} of 14`);
    const tasks = [];
    filters.forEach((f, i) => {
      const file = filterFile(`random-${SEED}-${i}`, f.json);
      tasks.push([`eval ${i}`, evalCmd(file, w.plain)]);
      tasks.push([`duck ${i}`, duckCmd(sqlFile(`random-${SEED}-${mb}-${i}`, JSON.parse(f.json), globOf(w, 'plain')))]);
    });
    warm(w, ['plain']);
    const before = load();
    const n = mb >= 10240 ? BIG_ROUNDS : ROUNDS;
    const res = await rounds(tasks, n);
    console.log(`${mb} MB plain (${w.lines} lines), median of ${n} interleaved rounds, load average ${before} -> ${load()}`);
    console.log('  | # | conditions | negations | groups | API-sized | aimed at | selectivity | logfilter | DuckDB | ratio | CPU ratio | peak RSS | counts |');
    console.log('  |---|---|---|---|---|---|---|---|---|---|---|---|---|');
    let worst = Infinity;
    let worstCpu = Infinity;
    filters.forEach((f, i) => {
      const e = res.get(`eval ${i}`);
      const d = res.get(`duck ${i}`);
      const ok = agree(e, d);
      const sel = e.json.matched / e.json.total;
      const ratio = d.seconds / e.seconds;
      worst = Math.min(worst, ratio);
      worstCpu = Math.min(worstCpu, d.cpu / e.cpu);
      console.log(`  | ${i} | ${f.conditions} | ${f.negations} | ${f.groups} | ${f.apiSized ? 'yes' : 'no'} | ${f.band.map((x) => `${100 * x}%`).join('–')} | ${(100 * sel).toFixed(1)}% | ${e.seconds.toFixed(2)} s | ${d.seconds.toFixed(2)} s | ${ratio.toFixed(2)}x | ${(d.cpu / e.cpu).toFixed(2)}x | ${e.peak.toFixed(0)} MB | ${ok ? 'agree' : `DIFFER (logfilter ${e.json.matched}, DuckDB ${d.json.matched})`} |`);
      if (!ok) fail(`random filter ${i} (seed ${SEED}): logfilter ${e.outs.join(' ')}, DuckDB ${d.outs.join(' ')}\n    source: ${f.source}\n    json: ${f.json}`);
      if (sel > 0.95) console.log(`  note: filter ${i} keeps ${(100 * sel).toFixed(1)}% of the whole workload (its sample: ${(100 * f.sampleSelectivity).toFixed(1)}%)`);
    });
    console.log(`  worst ratio: ${worst.toFixed(2)}x (goal >= 1.25x); worst CPU ratio: ${worstCpu.toFixed(2)}x`);
  }
}

console.log(`scale bench: ${os.availableParallelism?.() ?? os.cpus().length} cores, load average ${load()}, cache ${cacheDir()}`);
if (ONLY !== 'random') await scale();
if (ONLY !== 'scale') await randomSet();
if (failed) {
  console.log('\nscale bench: FAILED (see FAIL lines above)');
  process.exitCode = 1;
}
