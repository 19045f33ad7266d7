// One fleet run in a fresh process (so its peak RSS is the run's own): every bundle of the folder, one
// at a time, as `hnsight fleet` does it. Prints one JSON line.
import { peakRssBytes as peakRss } from '../helpers/peak-rss.ts';
import { discoverBundles } from '../../services/cluster/discover.ts';
import { runFleet } from '../../services/cluster/fleet.ts';

const dir = process.argv[2];
const d = await discoverBundles(dir);
const t0 = performance.now();
let slowest = 0;
let last = t0;
const s = await runFleet(d.bundles, {
  onNode: () => {
    const now = performance.now();
    slowest = Math.max(slowest, now - last);
    last = now;
  },
});
const totalMs = performance.now() - t0;
const peakRssBytes = peakRss();
process.stdout.write(
  JSON.stringify({ nodes: s.nodes.length, failed: s.failed.length, totalMs: Math.round(totalMs), perNodeMs: Math.round((totalMs / Math.max(1, s.nodes.length)) * 10) / 10, slowestNodeMs: Math.round(slowest), peakRssBytes, heapUsedBytes: process.memoryUsage().heapUsed, outliers: s.outliers.length, consistency: s.consistency.length }) + '\n',
);
