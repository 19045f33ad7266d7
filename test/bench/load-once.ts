// One measured load of a bundle in a fresh process, so peak RSS belongs to this load alone.
// Prints one JSON line: { loadMs, peakRssBytes, rules, ports, notRead, phases, threadCpuSeconds }
// (notRead: the files over a budget, with what they say; phases: when, from the start, the main thread
// was done with the small files, the worker handed back the big ones and every file was in, and how long
// the model took to join; threadCpuSeconds: the CPU of each thread when the worker answered — where the
// time goes, which wall times on a shared machine cannot tell).
import { readdirSync, readFileSync } from 'node:fs';
import { peakRssBytes as peakRss } from '../helpers/peak-rss.ts';
import { loadBundle } from '../../services/bundle/load.ts';

const target = process.argv[2];

/**
 * CPU seconds of the main thread and of every other live thread of this process, largest first (Linux
 * /proc; empty elsewhere), each since the thread started (the main thread's includes loading the
 * modules before the load). The others all say `node`: the parse worker (on the big node the largest),
 * V8's helper threads (garbage collection, compiling), and tsx's loader thread of each JavaScript thread.
 */
function threadCpu(): { main: number; others: number[] } {
  const out = { main: 0, others: [] as number[] };
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, fields 14 and 15 of stat (11 and 12 after the name), in clock ticks (100 a second).
      const cpu = (Number(f[11]) + Number(f[12])) / 100;
      if (Number(tid) === process.pid) out.main = cpu;
      else if (cpu > 0) out.others.push(cpu);
    }
  } catch {
    return { main: 0, others: [] };
  }
  out.others.sort((a, b) => b - a);
  return out;
}
/** Taken when the worker hands the big files back, before it is stopped. */
let cpuAtBigParsed: { main: number; others: number[] } = { main: 0, others: [] };
const t0 = performance.now();
let bigParsedMs = 0;
let assembleStartMs = 0;
/** The main thread's last file done before the worker answered (the small files' end, when it came first). */
let smallDoneMs = 0;
const model = await loadBundle(target, {
  onBigParsed: () => {
    bigParsedMs = performance.now() - t0;
    cpuAtBigParsed = threadCpu();
  },
  onProgress: (p) => {
    if (p.phase === 'assembling') assembleStartMs = performance.now() - t0;
    else if (p.phase === 'reading' && !bigParsedMs) smallDoneMs = performance.now() - t0;
  },
});
const loadMs = performance.now() - t0;
const rss = peakRss();
process.stdout.write(
  JSON.stringify({
    loadMs,
    peakRssBytes: rss,
    rules: model.vfp?.totals.rules ?? 0,
    ports: model.vfp?.totals.ports ?? 0,
    notRead: model.files.filter((f) => f.encoding === 'not-read' && f.issues.length).map((f) => `${f.name}: ${f.issues[0]!.message}`),
    phases: { smallDoneMs: Math.round(smallDoneMs), bigParsedMs: Math.round(bigParsedMs), filesDoneMs: Math.round(assembleStartMs), assembleMs: Math.round(loadMs - assembleStartMs) },
    threadCpuSeconds: cpuAtBigParsed,
  }) + '\n',
);
