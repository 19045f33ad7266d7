// A measurement aid, not a test: reads what HNSIGHT_FILE_CPU=<file> wrote in a whole run (one JSON line
// per test file: test/support/file-cpu.ts) and prints where the run's wall time went — each test
// worker's busy time, its gaps between files, and the tail where one worker had nothing left while the
// other still ran its last file (wall time lost: one core idle). With --write it also writes
// test/file-seconds.json, the time each file held its worker (0.1 s at least), which orders a run that has no timings of
// its own (a clean clone: test/sequencer.ts).
//   node --import tsx test/support/file-seconds.ts <file-cpu.jsonl> [--write]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface FileLine {
  file: string;
  threadS: number;
  childrenS: number;
  wallS: number;
  workers: number;
  startMs?: number;
  pool?: string;
}

export interface WorkerSpan {
  pool: string;
  files: number;
  /** Seconds from the first file's start to the last file's end. */
  spanS: number;
  /** Seconds spent in files. */
  busyS: number;
  /** Seconds between files (vitest handing over the next one). */
  gapsS: number;
  /** Seconds from this worker's last file's end to the end of the run's last file. */
  idleTailS: number;
  last: string;
}

/** Each worker's busy time, gaps and idle tail, from the lines that carry a start time and a worker. */
export function timeline(lines: FileLine[]): WorkerSpan[] {
  const timed = lines.filter((l) => typeof l.startMs === 'number' && l.pool);
  const end = Math.max(...timed.map((l) => l.startMs! + l.wallS * 1000));
  const pools = new Map<string, FileLine[]>();
  for (const l of timed) pools.set(l.pool!, [...(pools.get(l.pool!) ?? []), l]);
  return [...pools].map(([pool, ls]) => {
    ls.sort((a, b) => a.startMs! - b.startMs!);
    const first = ls[0]!.startMs!;
    const lastLine = ls[ls.length - 1]!;
    const lastEnd = lastLine.startMs! + lastLine.wallS * 1000;
    const busyS = ls.reduce((s, l) => s + l.wallS, 0);
    const spanS = (lastEnd - first) / 1000;
    return { pool, files: ls.length, spanS: +spanS.toFixed(1), busyS: +busyS.toFixed(1), gapsS: +(spanS - busyS).toFixed(1), idleTailS: +((end - lastEnd) / 1000).toFixed(1), last: lastLine.file };
  });
}

export function readLines(file: string): FileLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as FileLine);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [input, ...flags] = process.argv.slice(2);
  if (!input) throw new Error('usage: node --import tsx test/support/file-seconds.ts <file-cpu.jsonl> [--write]');
  const lines = readLines(input);
  for (const w of timeline(lines)) process.stdout.write(`${JSON.stringify(w)}\n`);
  const sum = (k: 'threadS' | 'childrenS' | 'wallS') => lines.reduce((s, l) => s + l[k], 0).toFixed(1);
  process.stdout.write(`${lines.length} files: thread ${sum('threadS')} CPU-s, children ${sum('childrenS')} CPU-s, held ${sum('wallS')} s\n`);
  if (flags.includes('--write')) {
    const seconds = Object.fromEntries([...lines].sort((a, b) => b.wallS - a.wallS || a.file.localeCompare(b.file)).map((l) => [l.file, Math.max(l.wallS, 0.1)]));
    const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../file-seconds.json');
    writeFileSync(out, `${JSON.stringify(seconds, null, 1)}\n`);
    process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
  }
}
