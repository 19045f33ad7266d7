// One measured load of a bundle in a fresh process, so peak RSS belongs to this load alone.
// Prints one JSON line: { loadMs, peakRssBytes, rules, ports, notRead, phases } (notRead: the files over
// a budget, with what they say; phases: when, from the start, the main thread was done with the small
// files, the worker handed back the big ones and every file was in, and how long the model took to
// join; split: the part of the dump's scan the main thread took, when it took one — where the time goes).
import { peakRssBytes as peakRss } from '../helpers/peak-rss.ts';
import { loadBundle } from '../../services/bundle/load.ts';

const target = process.argv[2];
const t0 = performance.now();
let bigParsedMs = 0;
let assembleStartMs = 0;
/** The main thread's last file done before the worker answered (the small files' end, when it came first). */
let smallDoneMs = 0;
/** When the main thread began and ended its part of the dump's scan, and from which byte (split-scan.ts). */
let split: { fromByte: number; size: number; startMs: number; endMs: number } | undefined;
const model = await loadBundle(target, {
  onBigParsed: () => (bigParsedMs = performance.now() - t0),
  onSplit: (x) => (split = { fromByte: x.from, size: x.size, endMs: Math.round(performance.now() - t0), startMs: Math.round(performance.now() - t0 - x.ms) }),
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
    phases: { smallDoneMs: Math.round(smallDoneMs), bigParsedMs: Math.round(bigParsedMs), filesDoneMs: Math.round(assembleStartMs), assembleMs: Math.round(loadMs - assembleStartMs), split },
  }) + '\n',
);
