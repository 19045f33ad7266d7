// Reach timing on the big node (issue #25 point 7): load once, then time one pod's whole partition
// (every port's rules it reads included: a user waits for them) and the whole default matrix (every
// local pod and the host against the default destinations), without the findings.
// Prints { reachOneSourceMs, reachMatrixMs, ... } (wall clock) with the CPU time of each (user + system:
// on a shared machine the wall clock also counts other people's work).
// A `grep -c RULE` pass over the bundle's files, right before, is printed beside them (wall clock and
// CPU, grep's and cat's through bash's `times`): the floor the ratios of issue #25 are taken against.
// `node --import tsx test/bench/reach-once.ts DIR [maxMatrixCells] [--cells] [--no-matrix]`: --cells
// times the exhaustive partition (reachFromCells: every atomic cell of every rule walked) instead, the
// figure before the classes were split on the rules on their path.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBundle } from '../../services/bundle/load.ts';
import { defaultDestinations, defaultSources, reachFrom, reachFromCells, reachMatrix } from '../../analysis/reach/index.ts';
import { sharedRulesStats } from '../../analysis/reach/shared-rules.ts';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const [dir, max] = args.filter((a) => !a.startsWith('--'));
const model = await loadBundle(dir);
const maxMatrix = Number(max ?? '200000');
// Every port the walks touch stays parsed (as trace-once.ts): this times reach, not the rule cache.
if (model.vfp) model.vfp.cacheRules = Infinity;
const sources = defaultSources(model);
/** grep -c over every file under dir: wall clock and the CPU of grep and cat (bash `times`, children's line). */
function grepPass(d: string): { grepMs: number; grepCpuMs: number } {
  const files: string[] = [];
  const walk = (x: string) => {
    for (const n of readdirSync(x)) {
      const p = path.join(x, n);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(d);
  const g0 = performance.now();
  // stdout must be a pipe: GNU grep stops at the first match when it writes to /dev/null.
  const r = spawnSync('bash', ['-c', 'grep -c RULE "$@" | cat > /dev/null; times', '_', ...files], { encoding: 'utf8' });
  const grepMs = performance.now() - g0;
  const secs = (t: string) => Number(/(\d+)m([\d.]+)s/.exec(t)?.[1] ?? 0) * 60 + Number(/(\d+)m([\d.]+)s/.exec(t)?.[2] ?? 0);
  const children = (r.stdout ?? '').trim().split('\n')[1]?.split(/\s+/) ?? [];
  return { grepMs: Math.round(grepMs), grepCpuMs: Math.round(1000 * (secs(children[0] ?? '') + secs(children[1] ?? ''))) };
}
const grep = grepPass(dir);
const cpu = (c: NodeJS.CpuUsage) => Math.round((c.user + c.system) / 1000);
const c0 = process.cpuUsage();
const t0 = performance.now();
const one = flags.has('--cells') ? { ...reachFromCells(model, sources[0].ip), budget: { hit: false } } : reachFrom(model, sources[0].ip);
const t1 = performance.now();
const c1 = process.cpuUsage(c0);
let matrix: Record<string, number> = {};
if (!flags.has('--no-matrix')) {
  const dests = defaultDestinations(model);
  const c2 = process.cpuUsage();
  const t2 = performance.now();
  const cells = reachMatrix(model, dests, { maxWalks: maxMatrix });
  const t3 = performance.now();
  matrix = {
    reachMatrixMs: Math.round(t3 - t2),
    reachMatrixCpuMs: cpu(process.cpuUsage(c2)),
    matrixSources: sources.length,
    matrixDestinations: dests.length,
    matrixCells: cells.length,
    matrixNotWalked: cells.filter((c) => c.decidedAt === 'not walked').length,
  };
}
process.stdout.write(
  JSON.stringify({
    path: flags.has('--cells') ? 'every atomic cell' : 'split on the rules on the path',
    loadAverage: os.loadavg().map((x) => Number(x.toFixed(1))),
    ...grep,
    reachOneSourceMs: Math.round(t1 - t0),
    reachOneSourceCpuMs: cpu(c1),
    oneSourceOverGrep: Number(((t1 - t0) / grep.grepMs).toFixed(1)),
    oneSourceCpuOverGrepCpu: grep.grepCpuMs ? Number((cpu(c1) / grep.grepCpuMs).toFixed(1)) : null,
    classes: one.classes.length,
    cells: one.cells,
    walks: one.walks,
    oneSourceBudgetHit: one.budget.hit,
    // Rules parsed, rules taken from another port, groups taken whole (analysis/reach/shared-rules.ts).
    sharedRules: sharedRulesStats(model),
    ...matrix,
  }) + '\n',
);
