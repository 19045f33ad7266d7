// Profiling aid (issue #25 point 7): every port's policy through reach's shared rules, timed, with
// how many rules were parsed and how many taken from another port. `node --import tsx test/bench/reach-shared.ts DIR`
import { loadBundle } from '../../services/bundle/load.ts';
import { sharedRulesModel, sharedRulesStats } from '../../analysis/reach/shared-rules.ts';

const model = await loadBundle(process.argv[2]);
const s = sharedRulesModel(model);
const c0 = process.cpuUsage();
for (const p of model.ports ?? []) if (p.policy) s.vfp!.getPolicy(p.key);
const c1 = process.cpuUsage(c0);
const c2 = process.cpuUsage();
let n = 0;
if (process.argv[3] === '--plain') for (const p of model.ports ?? []) if (p.policy) n += model.vfp!.getPolicy(p.key)!.layers.length;
const c3 = process.cpuUsage(c2);
process.stdout.write(JSON.stringify({ sharedCpuMs: Math.round((c1.user + c1.system) / 1000), ...sharedRulesStats(model), plainCpuMs: Math.round((c3.user + c3.system) / 1000), n }) + '\n');
