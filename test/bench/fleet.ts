// The fleet part of `npm run bench`: N node bundles of one generated cluster (zips, as AKS writes
// them; generated once into .cache, a `.complete` marker says the set is whole), then one fleet run in
// a child process (fleet-once.ts) for its time per node and its peak RSS.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface FleetBench {
  nodes: number;
  bundleBytes: number;
  totalMs: number;
  perNodeMs: number;
  slowestNodeMs: number;
  peakRssBytes: number;
  heapUsedBytes: number;
}

export function benchFleet(repo: string, n: number, platform: string, log: (s: string) => void): FleetBench {
  const dir = path.join(repo, '.cache', `bench-fleet-${n}-${platform}`);
  if (!existsSync(path.join(dir, '.complete'))) {
    log(`bench: generating ${n} ${platform} node bundles of one cluster in ${path.relative(repo, dir)} (once; cached afterwards)…`);
    rmSync(dir, { recursive: true, force: true });
    execFileSync(process.execPath, ['--import', 'tsx', path.join(repo, 'tools/gen-bundle.ts'), '--cluster', String(n), '--platform', platform, '--pods', '8', '--services', '12', '--zip', 'flat', '--seed', '500', '--out', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    writeFileSync(path.join(dir, '.complete'), '');
  }
  const bundleBytes = readdirSync(dir)
    .filter((f) => f.endsWith('.zip'))
    .reduce((s, f) => s + statSync(path.join(dir, f)).size, 0);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repo, 'test/bench/fleet-once.ts'), dir], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`the fleet run failed: ${r.stderr}`);
  const f = JSON.parse(r.stdout.trim().split('\n').pop()!);
  return { nodes: f.nodes, bundleBytes, totalMs: f.totalMs, perNodeMs: f.perNodeMs, slowestNodeMs: f.slowestNodeMs, peakRssBytes: f.peakRssBytes, heapUsedBytes: f.heapUsedBytes };
}

export function printFleet(f: FleetBench, platform: string, log: (s: string) => void): void {
  const mb = (x: number) => `${(x / 1024 / 1024).toFixed(0)} MiB`;
  log(`fleet:       ${f.nodes} ${platform} nodes (${mb(f.bundleBytes)} of zips) in ${(f.totalMs / 1000).toFixed(1)} s = ${f.perNodeMs} ms per node (slowest ${f.slowestNodeMs} ms)`);
  log(`fleet peak:  ${mb(f.peakRssBytes)} RSS for the whole run; ${mb(f.heapUsedBytes)} heap held at the end (the digests of every node)`);
}
