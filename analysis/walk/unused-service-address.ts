// An address of the cluster's Service range that no Service of this node holds (engine/routing.ts asks,
// before the route table): Service addresses are virtual — each node's kube-proxy translates the ones it
// programmed, and no network routes the range (kubernetes.io, Service: a ClusterIP "makes the Service
// only reachable from within the cluster"; "Virtual IPs and Service Proxies"). So nothing on the wire
// answers such a packet: the walk claims no answer. Which it is — a Service this node has not programmed
// yet, or no Service at all — the bundle cannot say: unknown, insufficient information.
// The range is the one the bundle names (kubeclusterconfig.json's ServiceCidr: analysis/k8s/service-range.ts).
import { serviceRangeOf } from '../k8s/index.ts';
import { canonIp } from './ip.ts';
import type { Walk } from './engine/state.ts';

export function unusedServiceAddress(w: Walk): boolean {
  const { ctx } = w;
  if (w.reply) return false;
  const dst = w.packet.dstIp;
  const range = serviceRangeOf(ctx.model, dst);
  if (!range) return false;
  const key = canonIp(dst) ?? dst;
  if (ctx.vips.has(key) || ctx.local.has(key) || ctx.remote.has(key) || ctx.hostIps.has(key)) return false;
  const i = w.add({
    at: 'host routing',
    kind: 'note',
    action: 'no Service',
    inferred: true,
    evidence: { file: range.file, line: range.line },
    note: `${dst} is in the cluster's Service range ${range.cidr} (${range.file} line ${range.line}), but no load balancer of this node serves it: Service addresses are virtual (each node's kube-proxy translates its own; no network routes the range), so nothing on the network answers it — a Service this node has not programmed, or none`,
  });
  w.end('unknown', `no Service of this node holds ${dst}, an address of the cluster's Service range ${range.cidr}: nothing on the network answers it (a Service not programmed here, or none: insufficient information)`, i);
  return true;
}
