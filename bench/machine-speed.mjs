// This machine's speed swings: the same fixed work, timed before and after a scenario, lets a reader tell the
// server's figures from the machine's (seen here: 380 ms to 3.5 s for one loop). Shared by the LSP benches.

/** A fixed loop's CPU time (ms); `time(n)` runs it n times, `range()` is the fastest and slowest so far. */
export function machineSpeed() {
  const samples = [];
  const once = () => {
    const c0 = process.cpuUsage();
    let x = 0;
    for (let i = 0; i < 5e7; i++) x += i % 7;
    const c = process.cpuUsage(c0);
    samples.push((c.user + c.system) / 1000);
    return x;
  };
  return {
    time(n) {
      for (let i = 0; i < n; i++) once();
    },
    range: () => [Math.min(...samples), Math.max(...samples)],
  };
}
