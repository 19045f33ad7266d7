// Reach timing on the big node (issue #25 point 7): load once, then time one pod's whole partition
// (every port's rules it reads included: a user waits for them) and the whole default matrix (every
// local pod and the host against the default destinations), without the findings.
// Prints { reachOneSourceMs, reachMatrixMs, ... } (wall clock) with the CPU time of each (user + system:
// on a shared machine the wall clock also counts other people's work).
// `node --import tsx test/bench/reach-once.ts DIR [maxMatrixCells] [--cells] [--no-matrix]`: --cells
// times the exhaustive partition (reachFromCells: every atomic cell of every rule walked) instead, the
// figure before the classes were split on the rules on their path.
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
    reachOneSourceMs: Math.round(t1 - t0),
    reachOneSourceCpuMs: cpu(c1),
    classes: one.classes.length,
    cells: one.cells,
    walks: one.walks,
    oneSourceBudgetHit: one.budget.hit,
    // Rules parsed, rules taken from another port, groups taken whole (analysis/reach/shared-rules.ts).
    sharedRules: sharedRulesStats(model),
    ...matrix,
  }) + '\n',
);
