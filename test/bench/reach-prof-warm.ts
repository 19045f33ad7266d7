// Profiling aid (issue #25 point 7): the CPU profile of one source's partition with every port already
// read (a first source is walked before the profile starts), so the walks' own cost is seen apart from
// reading the ports. `node --import tsx test/bench/reach-prof-warm.ts DIR OUT.cpuprofile|- [--matrix N]`
// (`-`: no profile, the CPU time only).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadBundle } from '../../services/bundle/load.ts';
import { defaultDestinations, defaultSources, reachFrom, reachMatrix } from '../../analysis/reach/index.ts';

const [dir, out, flag, n] = process.argv.slice(2);
const model = await loadBundle(dir!);
if (model.vfp) model.vfp.cacheRules = Infinity;
const sources = defaultSources(model);
reachFrom(model, sources[0]!.ip);
const s = new Session();
const profiling = out !== '-';
s.connect();
if (profiling) {
  await s.post('Profiler.enable');
  await s.post('Profiler.start');
}
const c0 = process.cpuUsage();
const r = flag === '--matrix' ? { walks: reachMatrix(model, defaultDestinations(model), { maxWalks: Number(n ?? 20000) }).length } : reachFrom(model, sources[1]!.ip);
const c = process.cpuUsage(c0);
if (profiling) writeFileSync(out!, JSON.stringify((await s.post('Profiler.stop')).profile));
process.stdout.write(JSON.stringify({ cpuMs: Math.round((c.user + c.system) / 1000), walks: r.walks }) + '\n');
