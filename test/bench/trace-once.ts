// Trace timing on the big node: load once, warm the ports used (their rules are parsed on first
// use), then time many pod → service / pod → pod / pod → outside walks, each with its reply walked too.
// Prints { traceMedianUs, ... }.
import { loadBundle } from '../../services/bundle/load.ts';
import { walkFlow } from '../../analysis/walk/engine.ts';
import type { Flow } from '../../analysis/walk/types.ts';
import { modelFindings } from '../../analysis/view-models/findings.ts';
import { withPathFindings } from '../../analysis/walk/findings-on-path.ts';

const model = await loadBundle(process.argv[2]);
// This times the walk engine on warm ports: every port the flows touch stays parsed (pod → service
// flows reach backends on any of the 250 ports, more than the app keeps by default).
if (model.vfp) model.vfp.cacheRules = Infinity;
// Pods only (the bridge endpoint and host vNIC carry no service rules).
const pods = (model.endpoints ?? []).filter((e) => !e.isRemote && e.ip && model.joins.endpoints.find((j) => j.endpointId === e.id)?.compartmentId !== 1 && model.joins.endpoints.find((j) => j.endpointId === e.id)?.portKey);
const lbs = (model.loadBalancers ?? []).filter((l) => l.vips.length && l.ports.length);
const sources = pods.slice(0, 20);
const flows: Flow[] = [];
let seed = 7;
const rnd = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
for (let i = 0; i < 2000; i++) {
  const src = sources[rnd(sources.length)].ip!;
  const kind = rnd(3);
  if (kind === 0) {
    const lb = lbs[rnd(lbs.length)];
    const p = lb.ports[0];
    flows.push({ srcIp: src, dstIp: lb.vips[0], dstPort: p.externalPort, proto: p.protocol === 17 ? 'udp' : 'tcp' });
  } else if (kind === 1) flows.push({ srcIp: src, dstIp: pods[rnd(Math.min(30, pods.length))].ip!, dstPort: 80, proto: 'tcp' });
  else flows.push({ srcIp: src, dstIp: `93.184.${rnd(255)}.${rnd(255)}`, dstPort: 443, proto: 'tcp' });
}
// Warm-up: every port a flow touches gets parsed once (that cost belongs to the first click, not to a trace).
const tw = performance.now();
for (const f of flows) walkFlow(model, f, { reply: true });
const warmMs = performance.now() - tw;
const times: number[] = [];
const verdicts: Record<string, number> = {};
for (const f of flows) {
  const t0 = performance.now();
  const r = walkFlow(model, f, { reply: true });
  times.push((performance.now() - t0) * 1000);
  verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
}
times.sort((a, b) => a - b);
const q = (xs: number[], x: number) => Math.round(xs[Math.floor(xs.length * x)]);
// The caller's side: the checks run once per bundle, then each walk (with its reply) meets the findings on its path.
const tc = performance.now();
const findings = modelFindings(model);
const checksMs = performance.now() - tc;
const joins: number[] = [];
for (const f of flows) {
  const r = walkFlow(model, f, { reply: true });
  const t0 = performance.now();
  withPathFindings(model, r, findings);
  joins.push((performance.now() - t0) * 1000);
}
joins.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ traceMedianUs: q(times, 0.5), traceP95Us: q(times, 0.95), traces: times.length, warmMs: Math.round(warmMs), verdicts, checksMs: Math.round(checksMs), findingsJoinMedianUs: q(joins, 0.5), findingsJoinP95Us: q(joins, 0.95) }) + '\n');
