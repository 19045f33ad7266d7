// One measured load of a bundle in a fresh process, so peak RSS belongs to this load alone.
// Prints one JSON line: { loadMs, peakRssBytes, rules, ports, notRead } (notRead: the files over a
// budget, with what they say).
import { peakRssBytes as peakRss } from '../helpers/peak-rss.ts';
import { loadBundle } from '../../services/bundle/load.ts';

const target = process.argv[2];
const t0 = performance.now();
const model = await loadBundle(target);
const loadMs = performance.now() - t0;
const rss = peakRss();
process.stdout.write(
  JSON.stringify({
    loadMs,
    peakRssBytes: rss,
    rules: model.vfp?.totals.rules ?? 0,
    ports: model.vfp?.totals.ports ?? 0,
    notRead: model.files.filter((f) => f.encoding === 'not-read' && f.issues.length).map((f) => `${f.name}: ${f.issues[0].message}`),
  }) + '\n',
);
