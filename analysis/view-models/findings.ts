// Findings as the UI shows them: each with the model objects its values name, so a click lights
// them up on the graph (endpoint IDs, port names, IPs, VIP:port/proto, subnets).
import { parseAddress } from '../../parsers/net/address.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import type { Finding, FindingView } from '../findings/types.ts';
import { runChecks } from '../checks/index.ts';
import type { ObjectRef } from './types.ts';

export function findingViews(m: NodeModel, findings: Finding[]): FindingView[] {
  const eps = new Map((m.endpoints ?? []).map((e) => [e.id.toLowerCase(), e]));
  const epByIp = new Map((m.endpoints ?? []).filter((e) => e.ip).map((e) => [e.ip!, e]));
  const ports = new Map((m.ports ?? []).map((p) => [p.key, p]));
  const lbs = new Map((m.loadBalancers ?? []).map((l) => [l.id.toLowerCase(), l]));
  const subnets = new Set((m.networks ?? []).flatMap((n) => n.remoteSubnetRoutes.map((r) => r.destinationPrefix)));
  const counts = new Map<string, number>();
  return findings.map((f) => {
    const refs: ObjectRef[] = [];
    const add = (r: ObjectRef) => {
      if (!refs.some((x) => x.type === r.type && x.id === r.id)) refs.push(r);
    };
    for (const raw of f.objects) {
      const o = raw.trim();
      const k = o.toLowerCase();
      if (eps.has(k)) add({ type: 'endpoint', id: k });
      else if (ports.has(k)) add({ type: 'port', id: k });
      else if (lbs.has(k)) add({ type: 'loadbalancer', id: k });
      else if (epByIp.has(o)) add({ type: 'endpoint', id: epByIp.get(o)!.id });
      else if (subnets.has(o)) add({ type: 'remote-subnet', id: o });
      else {
        const vp = parseAddress(o);
        if (vp?.port !== undefined && vp.proto) {
          const proto = vp.proto === 'udp' ? 17 : 6;
          const lb = (m.loadBalancers ?? []).find((l) => l.vips.includes(vp.ip) && l.ports.some((p) => p.externalPort === vp.port && p.protocol === proto));
          if (lb) add({ type: 'loadbalancer', id: lb.id.toLowerCase() });
        }
      }
    }
    const n = (counts.get(f.id) ?? 0) + 1;
    counts.set(f.id, n);
    return { ...f, key: `${f.id}#${n}`, refs };
  });
}

const cache = new WeakMap<NodeModel, FindingView[]>();

/** The checks' findings of a model as the UI shows them, computed once per model (the CLI, the report). */
export function modelFindings(m: NodeModel): FindingView[] {
  let v = cache.get(m);
  if (!v) {
    v = findingViews(m, runChecks(m));
    cache.set(m, v);
  }
  return v;
}
