// What each small file of a bundle costs its parser on the loader's main thread: every file under
// 16 MiB parsed alone (parseBundleFile, as load.ts does), N times, the best CPU time of each printed
// (process.cpuUsage: this thread and V8's helpers), largest first. CPU, best of N: on a shared machine
// wall time measures the other processes, and the fastest run is the one least disturbed.
//   node --import tsx test/bench/small-files-once.ts DIR [N]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseBundleFile } from '../../parsers/bundle/parse-file.ts';

const dir = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
if (!dir) throw new Error('usage: small-files-once.ts DIR [N]');
const files: { name: string; bytes: Uint8Array }[] = [];
const list = (d: string, rel: string): void => {
  for (const n of readdirSync(d)) {
    const p = path.join(d, n);
    const s = statSync(p);
    if (s.isDirectory()) list(p, `${rel}${n}/`);
    else if (s.size < 16 << 20) files.push({ name: `${rel}${n}`, bytes: new Uint8Array(readFileSync(p)) });
  }
};
list(dir, '');
const best = new Map<string, number>();
for (let r = 0; r < runs; r++) {
  for (const f of files) {
    const t = process.cpuUsage();
    parseBundleFile(f.name, f.bytes);
    const d = process.cpuUsage(t);
    const ms = (d.user + d.system) / 1000;
    best.set(f.name, Math.min(best.get(f.name) ?? Infinity, ms));
  }
}
const rows = [...best].sort((a, b) => b[1] - a[1]);
const total = rows.reduce((n, [, ms]) => n + ms, 0);
for (const [name, ms] of rows) if (ms >= 1) process.stdout.write(`${ms.toFixed(1).padStart(8)} ms  ${name}\n`);
process.stdout.write(`${total.toFixed(1).padStart(8)} ms  all ${files.length} files (best of ${runs} each)\n`);
