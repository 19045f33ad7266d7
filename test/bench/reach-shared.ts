// Profiling aid (issue #25 point 7): every port's policy through reach's shared rules, timed (CPU), with
// how many rules were parsed and how many taken from another port, and the process's resident set after
// the load and at its highest (the ports' reading should add little: no port's bytes are kept).
// `node [--expose-gc] --import tsx test/bench/reach-shared.ts DIR [--plain]` (--plain: every port parsed
// whole too, timed apart; --expose-gc: the heaps are measured after a collection).
import { loadBundle } from '../../services/bundle/load.ts';
import { sharedRulesModel, sharedRulesStats } from '../../analysis/reach/shared-rules.ts';

const mib = (b: number) => Math.round(b / 2 ** 20);
const model = await loadBundle(process.argv[2]);
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const rssAfterLoadMiB = mib(process.memoryUsage().rss);
const heapAfterLoadMiB = mib(process.memoryUsage().heapUsed);
const s = sharedRulesModel(model);
const c0 = process.cpuUsage();
for (const p of model.ports ?? []) if (p.policy) s.vfp!.getPolicy(p.key);
const c1 = process.cpuUsage(c0);
const rssAfterPortsMiB = mib(process.memoryUsage().rss);
// With --expose-gc: the heap the shared model keeps (its parsed rules, each port's layers and groups).
gc?.();
const heapAfterPortsMiB = mib(process.memoryUsage().heapUsed);
const c2 = process.cpuUsage();
let n = 0;
if (process.argv[3] === '--plain') for (const p of model.ports ?? []) if (p.policy) n += model.vfp!.getPolicy(p.key)!.layers.length;
const c3 = process.cpuUsage(c2);
process.stdout.write(
  JSON.stringify({
    sharedCpuMs: Math.round((c1.user + c1.system) / 1000),
    ...sharedRulesStats(model),
    rssAfterLoadMiB,
    rssAfterPortsMiB,
    heapAfterLoadMiB,
    heapAfterPortsMiB,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    plainCpuMs: Math.round((c3.user + c3.system) / 1000),
    n,
  }) + '\n',
);
