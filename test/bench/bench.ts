// `npm run bench [-- --json] [-- --pods N --services M] [-- --fleet N --fleet-platform P]`: generates
// (once, cached) the big node — 250 pods, 2,000 services, ≥ 900k VFP rules — then times, against one
// `grep -c RULE` pass over the same files in the same run: the loader alone, and what a user waits for
// from `hnsight inspect` (the load, every check and the inspect document) and from `hnsight report`
// (the HTML report of the same model), each in a fresh process. It loads the audit's zip bomb (11 MB
// holding three zero-filled 3.5 GiB entries) under the default budgets, and issue 27's cluster of four
// zip bombs (each ~3 MB: a generated node whose three text files are 1 GiB of zeros) opened as the app
// opens a cluster, then one of them alone (JSON `zipBombCluster`); then a fleet run
// (`hnsight fleet`) over N generated node bundles of one cluster (500 by default, zips as AKS writes
// them, generated once into .cache; --fleet 0 skips it): the cost per node and the run's peak memory.
// `--big-vfp` instead loads, once, a node whose vfpOutput.txt passes 4 GiB (generated once into .cache).
// Prints figures; never asserts on time.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { zeroZip } from '../helpers/zip.ts';
import { BOMB_ENTRIES, writeBombCluster } from '../helpers/zip-bomb-cluster.ts';
import path from 'node:path';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { benchFleet, printFleet } from './fleet.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    pods: { type: 'string', default: '250' },
    services: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '3' },
    fleet: { type: 'string', default: '500' },
    'fleet-platform': { type: 'string', default: 'azure-cni' },
    'fleet-only': { type: 'boolean', default: false },
    // A node whose vfpOutput.txt passes 4 GiB (250 pods, 9,400 services: the generator's pods stop at
    // 250, rules grow with services), generated once into .cache; only the loader is timed, beside grep.
    'big-vfp': { type: 'boolean', default: false },
  },
});
const pods = Number(values.pods);
const services = Number(values.services);
const dir = path.join(repo, '.cache', `bench-node-${pods}p-${services}s`);
const log = (s: string) => process.stderr.write(s + '\n');

if (values['fleet-only']) {
  const f = benchFleet(repo, Math.max(1, Number(values.fleet)), String(values['fleet-platform']), log);
  printFleet(f, String(values['fleet-platform']), log);
  if (values.json) process.stdout.write(JSON.stringify({ fleet: f }) + '\n');
  process.exit(0);
}

if (values['big-vfp']) {
  const big = path.join(repo, '.cache', 'bench-node-250p-9400s');
  if (!existsSync(path.join(big, 'vfpOutput.txt'))) {
    log(`bench: generating a node with a 4 GiB vfpOutput.txt in ${path.relative(repo, big)} (once; several minutes)…`);
    execFileSync(process.execPath, ['--import', 'tsx', path.join(repo, 'tools/gen-bundle.ts'), '--out', big, '--pods', '250', '--services', '9400', '--network', 'l2bridge', '--schema', '2', '--vfp', 'get-rule-counter', '--seed', '7'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const bigFiles = readdirSync(big).filter((f) => statSync(path.join(big, f)).isFile()).map((f) => path.join(big, f));
  const bytes = bigFiles.reduce((n, f) => n + statSync(f).size, 0);
  const g0 = performance.now();
  spawnSync('grep', ['-c', 'RULE', ...bigFiles], { stdio: ['ignore', 'pipe', 'ignore'] });
  const grepMs = performance.now() - g0;
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'load-once.ts'), big], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) {
    log(r.stderr);
    process.exit(1);
  }
  const l = JSON.parse(r.stdout.trim().split('\n').pop()!) as { loadMs: number; peakRssBytes: number; rules: number; notRead: string[] };
  const bigVfp = { bundleBytes: bytes, vfpBytes: statSync(path.join(big, 'vfpOutput.txt')).size, rules: l.rules, loadMs: Math.round(l.loadMs), grepMs: Math.round(grepMs), loadOverGrep: Number((l.loadMs / grepMs).toFixed(2)), peakRssBytes: l.peakRssBytes, notRead: l.notRead, loadAverage: os.loadavg()[0] };
  log(`big VFP:     ${(bytes / 1024 ** 3).toFixed(2)} GiB bundle (vfpOutput.txt ${(bigVfp.vfpBytes / 1024 ** 3).toFixed(2)} GiB, ${l.rules} rules): loaded in ${bigVfp.loadMs} ms = ${bigVfp.loadOverGrep}× grep (${bigVfp.grepMs} ms), peak RSS ${(l.peakRssBytes / 1024 ** 2).toFixed(0)} MiB = ${(l.peakRssBytes / bytes).toFixed(2)}× bundle   [target ≤ 0.35×]`);
  for (const n of l.notRead) log(`             not read: ${n}`);
  log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  if (values.json) process.stdout.write(JSON.stringify({ bigVfp }) + '\n');
  process.exit(0);
}

if (!existsSync(path.join(dir, 'vfpOutput.txt'))) {
  log(`bench: generating the big node in ${path.relative(repo, dir)} (once; cached afterwards)…`);
  execFileSync(process.execPath, ['--import', 'tsx', path.join(repo, 'tools/gen-bundle.ts'), '--out', dir, '--pods', String(pods), '--services', String(services), '--network', 'l2bridge', '--schema', '2', '--vfp', 'get-rule-counter', '--seed', '7'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

const files = readdirSync(dir).filter((f) => statSync(path.join(dir, f)).isFile()).map((f) => path.join(dir, f));
const bundleBytes = files.reduce((n, f) => n + statSync(f).size, 0);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// Warm the page cache so neither side pays for the disk.
spawnSync('cat', files, { stdio: ['ignore', 'ignore', 'ignore'] });

const runs = Math.max(1, Number(values.runs));
const grepTimes: number[] = [];
interface LoadOnce {
  loadMs: number;
  peakRssBytes: number;
  rules: number;
  ports: number;
  notRead: string[];
}
function loadOnce(target: string): LoadOnce {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'load-once.ts'), target], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) {
    log(r.stderr);
    process.exit(1);
  }
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as LoadOnce;
}
const loads: LoadOnce[] = [];
const inspects: { inspectMs: number; checksMs: number; reportMs: number; inspectPeakRssBytes: number; findings: number }[] = [];
const grepInspect: number[] = [];
for (let i = 0; i < runs; i++) {
  const g0 = performance.now();
  // stdout must be a pipe: GNU grep stops at the first match when it sees /dev/null.
  spawnSync('grep', ['-c', 'RULE', ...files], { stdio: ['ignore', 'pipe', 'ignore'] });
  grepTimes.push(performance.now() - g0);
  loads.push(loadOnce(dir));
  // The same grep again right before the inspect, so each ratio compares runs taken side by side.
  const g1 = performance.now();
  spawnSync('grep', ['-c', 'RULE', ...files], { stdio: ['ignore', 'pipe', 'ignore'] });
  grepInspect.push(performance.now() - g1);
  const ri = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'inspect-once.ts'), dir], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (ri.status !== 0) {
    log(ri.stderr);
    process.exit(1);
  }
  inspects.push(JSON.parse(ri.stdout.trim().split('\n').pop()!));
}
// The big node must load whole under the default budgets: a budget that cut it would be too small.
if (loads[0].notRead.length) log(`bench: the big node has files over the default budgets:\n  ${loads[0].notRead.join('\n  ')}`);

const GiB = 1024 ** 3;
const bombPath = path.join(repo, '.cache', 'zip-bomb-3x3.5GiB.zip');
if (!existsSync(bombPath)) writeFileSync(bombPath, zeroZip({ 'vfpOutput.txt': 3.5 * GiB, 'endpoint.txt': 3.5 * GiB, 'trace.etl': 3.5 * GiB }));
const bomb = loadOnce(bombPath);

// Issue 27's cluster of zip bombs: four nodes of one generated cluster, each a ~3 MB zip whose three
// text files are 1 GiB of zeros, opened together as the app opens a cluster; then one of them alone.
const bombNodes = path.join(repo, '.cache', 'bomb-cluster-nodes');
const bombCluster = path.join(repo, '.cache', 'zip-bomb-cluster-4x3x1GiB');
if (!existsSync(path.join(bombCluster, 'akswin000003.zip'))) {
  if (!existsSync(bombNodes)) execFileSync(process.execPath, ['--import', 'tsx', path.join(repo, 'tools/gen-bundle.ts'), '--cluster', '4', '--out', bombNodes, '--platform', 'azure-cni', '--pods', '4', '--services', '4', '--seed', '7'], { stdio: ['ignore', 'ignore', 'inherit'] });
  writeBombCluster(bombNodes, bombCluster, GiB);
}
interface ClusterOnce {
  ms: number;
  peakRssBytes: number;
  nodes: number;
  failed: { bundle: string; error: string }[];
  notRead: { node: string; files: string[]; endpoints: number }[];
}
const rc = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'cluster-once.ts'), bombCluster], { encoding: 'utf8', maxBuffer: 1 << 22 });
if (rc.status !== 0) {
  log(rc.stderr);
  process.exit(1);
}
const clusterBomb = JSON.parse(rc.stdout.trim().split('\n').pop()!) as ClusterOnce;
const bombZips = readdirSync(bombCluster).filter((f) => f.endsWith('.zip')).sort().map((f) => path.join(bombCluster, f));
const singleBomb = loadOnce(bombZips[0]!);
const zipBombCluster = {
  nodes: bombZips.length,
  zipBytes: bombZips.reduce((n, z) => n + statSync(z).size, 0),
  inflatedBytes: bombZips.length * BOMB_ENTRIES.length * GiB,
  ms: Math.round(clusterBomb.ms),
  peakRssBytes: clusterBomb.peakRssBytes,
  nodesLoaded: clusterBomb.nodes,
  failed: clusterBomb.failed,
  notRead: clusterBomb.notRead,
  single: { zipBytes: statSync(bombZips[0]!).size, ms: Math.round(singleBomb.loadMs), peakRssBytes: singleBomb.peakRssBytes, notRead: singleBomb.notRead },
};
const loadMs = median(loads.map((l) => l.loadMs));
const grepMs = median(grepTimes);
const peakRssBytes = Math.max(...loads.map((l) => l.peakRssBytes));
const inspectMs = median(inspects.map((x) => x.inspectMs));
const inspectGrepMs = median(grepInspect);
const inspectPeakRssBytes = Math.max(...inspects.map((x) => x.inspectPeakRssBytes));
const reportMs = median(inspects.map((x) => x.reportMs));
const checksMs = median(inspects.map((x) => x.checksMs));
let traceMedianUs: number | null = null;
try {
  const traceScript = path.join(here, 'trace-once.ts');
  if (existsSync(traceScript)) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', traceScript, dir], { encoding: 'utf8' });
    if (r.status === 0) traceMedianUs = JSON.parse(r.stdout.trim().split('\n').pop()!).traceMedianUs;
  }
} catch {
  traceMedianUs = null;
}

// --- reach (issue #25 point 7): one pod's whole partition and the default matrix, against a grep taken right before.
let reach: { reachOneSourceMs: number; reachMatrixMs: number; reachGrepMs: number; reachOneSourceOverGrep: number; reachMatrixOverGrep: number; [k: string]: unknown } | null = null;
{
  const g = performance.now();
  spawnSync('grep', ['-c', 'RULE', ...files], { stdio: ['ignore', 'pipe', 'ignore'] });
  const reachGrepMs = performance.now() - g;
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'reach-once.ts'), dir], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status === 0) {
    const x = JSON.parse(r.stdout.trim().split('\n').pop()!);
    reach = { ...x, reachGrepMs: Math.round(reachGrepMs), reachOneSourceOverGrep: Number((x.reachOneSourceMs / reachGrepMs).toFixed(2)), reachMatrixOverGrep: Number((x.reachMatrixMs / reachGrepMs).toFixed(2)) };
  } else log(`bench: the reach timing failed:\n${r.stderr}`);
}

// --- fleet --------------------------------------------------------------------------------------------
const fleet = Number(values.fleet) > 0 ? benchFleet(repo, Number(values.fleet), String(values['fleet-platform']), log) : null;
if (fleet) printFleet(fleet, String(values['fleet-platform']), log);

const result = {
  bundleBytes,
  rules: loads[0].rules,
  loadMs: Math.round(loadMs),
  grepMs: Math.round(grepMs),
  loadOverGrep: Number((loadMs / grepMs).toFixed(2)),
  peakRssBytes,
  traceMedianUs,
  reachOneSourceMs: reach?.reachOneSourceMs ?? null,
  reachMatrixMs: reach?.reachMatrixMs ?? null,
  reachOneSourceOverGrep: reach?.reachOneSourceOverGrep ?? null,
  reachMatrixOverGrep: reach?.reachMatrixOverGrep ?? null,
  reach,
  inspectMs: Math.round(inspectMs),
  inspectOverGrep: Number((inspectMs / inspectGrepMs).toFixed(2)),
  inspectPeakRssBytes,
  checksMs: Math.round(checksMs),
  reportMs: Math.round(reportMs),
  loadAverage: os.loadavg()[0],
  fleet,
  bigNodeNotRead: loads[0].notRead,
  zipBomb: { zipBytes: statSync(bombPath).size, inflatedBytes: 3 * 3.5 * GiB, loadMs: Math.round(bomb.loadMs), peakRssBytes: bomb.peakRssBytes, notRead: bomb.notRead },
  zipBombCluster,
};
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
log(`bundle:      ${mb(bundleBytes)} in ${files.length} files, ${result.rules} VFP rules, ${loads[0].ports} ports`);
log(`grep -c RULE ${result.grepMs} ms (median of ${runs})`);
log(`full load:   ${result.loadMs} ms (median of ${runs}) = ${result.loadOverGrep}× grep   [target ≤ 3×]`);
log(`peak RSS:    ${mb(peakRssBytes)} = ${(peakRssBytes / bundleBytes).toFixed(2)}× bundle   [target ≤ 0.35×]`);
log(`inspect:     ${result.inspectMs} ms (median of ${runs}; the checks ${result.checksMs} ms of it, ${inspects[0].findings} findings) = ${result.inspectOverGrep}× grep   [target ≤ 4×]`);
log(`inspect RSS: ${mb(inspectPeakRssBytes)} = ${(inspectPeakRssBytes / bundleBytes).toFixed(2)}× bundle   [target ≤ 0.35×]`);
log(`report:      ${result.reportMs} ms (median of ${runs}) = ${(reportMs / inspectGrepMs).toFixed(2)}× grep: the load, the checks and the HTML report`);
log(`trace:       ${traceMedianUs === null ? 'n/a (the trace timing failed; see above)' : `${traceMedianUs} µs median per walk, its reply included   [target ≤ 1000 µs]`}`);
log(
  reach
    ? `reach:       one pod's ${reach.classes} classes (${reach.walks} walks) ${reach.reachOneSourceMs} ms = ${reach.reachOneSourceOverGrep}× grep   [target ≤ 5×]; the matrix (${reach.matrixCells} cells, ${reach.matrixNotWalked} over its budget) ${reach.reachMatrixMs} ms = ${reach.reachMatrixOverGrep}× grep   [target ≤ 50×]`
    : 'reach:       n/a (the reach timing failed; see above)',
);
log(`zip bomb:    ${mb(result.zipBomb.zipBytes)} zip of ${mb(result.zipBomb.inflatedBytes)} of zeros: loaded in ${result.zipBomb.loadMs} ms, peak RSS ${mb(bomb.peakRssBytes)}   [audit: 10.7 GiB, 63 s]`);
for (const n of bomb.notRead) log(`             ${n}`);
log(
  `bomb cluster: ${zipBombCluster.nodes} zips (${mb(zipBombCluster.zipBytes)}, ${(zipBombCluster.inflatedBytes / GiB).toFixed(0)} GiB of zeros) opened as a cluster in ${zipBombCluster.ms} ms, peak RSS ${mb(zipBombCluster.peakRssBytes)}, ${zipBombCluster.nodesLoaded} nodes loaded, ` +
    `${zipBombCluster.notRead.reduce((n, x) => n + x.files.length, 0)} entries named   [target ≤ 120 s, ≤ 1.5 GiB, each bad entry named]`,
);
for (const x of zipBombCluster.notRead) log(`             ${x.node} (${x.endpoints} endpoints): ${x.files.map((f) => f.split(':')[0]).join(', ')} not read`);
log(`one of them: ${mb(zipBombCluster.single.zipBytes)} zip loaded alone in ${zipBombCluster.single.ms} ms, peak RSS ${mb(zipBombCluster.single.peakRssBytes)}, ${zipBombCluster.single.notRead.length} entries named   [target ≤ 60 s, ≤ 1.5 GiB]`);
log(`load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (2 cores; above ~2 the figures are slower than on a quiet machine)`);
if (values.json) process.stdout.write(JSON.stringify(result) + '\n');
