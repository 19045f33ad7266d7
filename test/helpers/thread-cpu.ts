// CPU time of the calling thread, for tests that compare the work two input sizes take. Vitest runs
// test files in worker threads of one process, so process.cpuUsage() also counts whatever the other
// worker does meanwhile, and a ratio of two such times drifts with the other file's load. Linux keeps
// each thread's run time in nanoseconds (/proc/thread-self/schedstat, first field; a synchronous read
// runs on the calling thread), but adds to it only at scheduler ticks, a few milliseconds apart: so a
// short piece of work is repeated until the clock has moved at least 50 ms, and the time is per call.
// Elsewhere the process's CPU time stands in.
import { readFileSync } from 'node:fs';

function threadNs(): number | undefined {
  try {
    const ns = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
    return Number.isFinite(ns) && ns > 0 ? ns : undefined;
  } catch {
    return undefined;
  }
}

function processNs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

const clock: () => number = threadNs() !== undefined ? () => threadNs()! : processNs;
const MIN_NS = 50e6;

/** CPU nanoseconds per call of `fn`, over as many calls as make at least 50 ms. */
function perCall(fn: () => void): number {
  const t0 = clock();
  let calls = 0;
  let t = t0;
  do {
    fn();
    calls++;
    t = clock();
  } while (t - t0 < MIN_NS && calls < 100_000);
  return (t - t0) / calls;
}

/**
 * Microseconds of CPU this thread spends in one call of `fn`: the best of three measures after one
 * untimed call (which compiles the code it takes), so neither the compiler nor a stray pause counts.
 */
export function threadCpuMicros(fn: () => void): number {
  fn();
  let best = Infinity;
  for (let k = 0; k < 3; k++) best = Math.min(best, perCall(fn));
  return best / 1000;
}

/** Size steps the linear-time tests take: the big input is this many times the small one. */
export const SCALE = 16;
/**
 * What `workRatio` must stay under for work linear in the input: SCALE would be exact, SCALE² (256) is
 * quadratic. The room between covers what the test cannot control: garbage collection in a worker
 * whose heap holds other test files' data costs more for the bigger input.
 */
export const LINEAR_LIMIT = 4 * SCALE;

/** This thread's CPU for `big` over that for `small` (the small one at least 1 ms, below which it is noise). */
export function workRatio(small: () => void, big: () => void): number {
  return threadCpuMicros(big) / Math.max(threadCpuMicros(small), 1000);
}
