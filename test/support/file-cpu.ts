// A measurement aid, not a test: with HNSIGHT_FILE_CPU=<file> (vitest.config.ts adds this setup file
// only then), each test file appends one line of JSON to <file> with the CPU time its worker thread
// spent on it, from its imports to its last hook, and the CPU of the child processes reaped meanwhile.
// Vitest runs the files in worker threads of one process, so the process's own CPU clock would count
// the other worker's file too; a thread's clock (/proc/thread-self/schedstat, nanoseconds) does not.
// The children's figure is the whole process's (cutime + cstime of /proc/self/stat): with two workers
// it may hold the other file's children too, and Chromium's pages count only when the run ends.
// docs/testing.md "Where the time goes" uses it for the per-file table of a whole run.
import { afterAll, expect } from 'vitest';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';

const threadNs = (): number => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
/** User + system CPU of the reaped children, in seconds (clock ticks: 100 a second on Linux). */
const childrenS = (): number => {
  // The command name, in parentheses, may hold spaces: the fields are counted after it.
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[13]) + Number(f[14])) / 100;
};

const out = process.env.HNSIGHT_FILE_CPU;
if (out) {
  const t0 = threadNs();
  const c0 = childrenS();
  const w0 = Date.now();
  // Worker threads this file started (the backend's checks, Services, reachability, parse pools): their
  // CPU is not the file's thread's, and each start alone costs about a CPU-second (tsx in the thread).
  let workers = 0;
  const onWorker = () => workers++;
  process.on('worker', onWorker);
  afterAll(() => {
    process.off('worker', onWorker);
    const file = path.relative(process.cwd(), expect.getState().testPath ?? '');
    // startMs and pool: when the file started and on which of the test workers, so a run's timeline
    // (each worker's busy and idle spans, the tail where one waits for the other) can be drawn.
    const line = { file, threadS: +((threadNs() - t0) / 1e9).toFixed(2), childrenS: +(childrenS() - c0).toFixed(2), wallS: +((Date.now() - w0) / 1000).toFixed(1), workers, startMs: w0, pool: process.env.VITEST_POOL_ID ?? '' };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}
