// Reach timing on the big node (issue #25 point 7): load once, then time one pod's whole partition
// (the boundaries read from every port's rules included: a user waits for them) and the whole default
// matrix (every local pod and the host against the default destinations), without the findings.
// Prints { reachOneSourceMs, reachMatrixMs, ... }.
import { loadBundle } from '../../services/bundle/load.ts';
import { defaultDestinations, defaultSources, reachFrom, reachMatrix } from '../../analysis/reach/index.ts';

const model = await loadBundle(process.argv[2]);
const maxMatrix = Number(process.argv[3] ?? '200000');
// Every port the walks touch stays parsed (as trace-once.ts): this times reach, not the rule cache.
if (model.vfp) model.vfp.cacheRules = Infinity;
const sources = defaultSources(model);
const t0 = performance.now();
const one = reachFrom(model, sources[0].ip);
const t1 = performance.now();
const dests = defaultDestinations(model);
const cells = reachMatrix(model, dests, { maxWalks: maxMatrix });
const t2 = performance.now();
const notWalked = cells.filter((c) => c.decidedAt === 'not walked').length;
process.stdout.write(
  JSON.stringify({
    reachOneSourceMs: Math.round(t1 - t0),
    classes: one.classes.length,
    cells: one.cells,
    walks: one.walks,
    oneSourceBudgetHit: one.budget.hit,
    reachMatrixMs: Math.round(t2 - t1),
    matrixSources: sources.length,
    matrixDestinations: dests.length,
    matrixCells: cells.length,
    matrixNotWalked: notWalked,
  }) + '\n',
);
