// Loads one bundle in a process of its own and prints one JSON line: what each file says and the
// process's peak resident memory — the only honest way to measure a load's memory, as a hard cap.
// Run: node --max-old-space-size=N test/helpers/load-child.mjs <bundle> [--checks] (its bundle, or this
// file through tsx: load-child.mjs).
import { loadBundle } from '../../services/bundle/load.ts';
import { runChecks } from '../../analysis/checks/index.ts';
import { peakRssBytes } from './peak-rss.ts';

const [target, ...flags] = process.argv.slice(2);
const model = await loadBundle(target);
const findings = flags.includes('--checks') ? runChecks(model).map((f) => ({ id: f.id, title: f.title })) : [];
process.stdout.write(
  JSON.stringify({
    files: model.files.map((f) => ({ name: f.name, kind: f.kind, encoding: f.encoding, issues: f.issues.map((i) => `${i.severity}: ${i.message}`) })),
    rules: model.vfp?.totals.rules ?? null,
    findings,
    peakRssBytes: peakRssBytes(),
  }) + '\n',
);
