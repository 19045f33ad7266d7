// Profiling aid (issue #25 point 7): one source's partition by reachFrom, optionally beside the
// exhaustive reachFromCells, on a bundle directory: `node --cpu-prof --import tsx test/bench/reach-profile.ts DIR [--oracle]`.
import { loadBundle } from '../../services/bundle/load.ts';
import { defaultSources, reachFrom, reachFromCells } from '../../analysis/reach/index.ts';

const model = await loadBundle(process.argv[2]);
if (model.vfp) model.vfp.cacheRules = Infinity;
const src = defaultSources(model)[Number(process.argv[4] ?? 0)];
const t0 = performance.now();
const one = reachFrom(model, src.ip);
const t1 = performance.now();
const out: Record<string, unknown> = { source: src.ip, ms: Math.round(t1 - t0), classes: one.classes.length, cells: one.cells, walks: one.walks };
if (process.argv[3] === '--oracle') {
  const old = reachFromCells(model, src.ip);
  const t2 = performance.now();
  const sig = (cs: typeof one.classes) => cs.map((c) => `${c.proto} ${c.dst.join('-')} ${c.ports ?? ''} ${c.key}`);
  const a = sig(one.classes);
  const b = sig(old.classes);
  const diff = a.filter((x, i) => x !== b[i]);
  Object.assign(out, { oracleMs: Math.round(t2 - t1), oracleClasses: old.classes.length, oracleCells: old.cells, oracleWalks: old.walks, same: a.length === b.length && !diff.length, firstDiff: diff[0]?.slice(0, 300), firstDiffOld: b[a.indexOf(diff[0])]?.slice(0, 300) });
}
process.stdout.write(JSON.stringify(out) + '\n');
