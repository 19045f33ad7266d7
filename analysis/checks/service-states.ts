// Is each Service port of the kubectl snapshot realised on this node? One row per Service port
// (ClusterIP VIP:port, and the node port of a NodePort/LoadBalancer Service), with the state and the
// lines that show it. Built from the same intent the k8s check reads (analysis/k8s/intent.ts).
//
// What kube-proxy (winkernel) programs, from kubernetes/kubernetes pkg/proxy/winkernel/proxier.go
// syncProxyRules: one HNS load balancer per ClusterIP:port with the Service's ready endpoints (none
// when it has no endpoints: `if len(hnsEndpoints) == 0 { … continue }` — the Service is then not
// realised, by design); a NodePort load balancer whose endpoints are, with externalTrafficPolicy
// Local, only the local ones, and none at all (so no load balancer) when no endpoint runs on the node
// (kubernetes/kubernetes#115783 is the report of what users then see). HNS then writes the VFP
// load-balancing rules: on every pod port for a ClusterIP, on the host vNIC port for a node port
// (`LB_HOST_…`, microsoft/SDN Kubernetes/windows/debug rulecounters.ps1). DSR's per-backend rules are
// checked by the walk (analysis/walk); `extra` is the hook a caller adds such a state through.
import type { FindingEvidence } from '../findings/types.ts';
import { serviceIntents, type ServiceIntent } from '../k8s/index.ts';
import type { CheckContext } from './context.ts';
import { vfpLbDips, vfpNodePortDips } from './vfp-lb-dips.ts';
import { plural } from '../../parsers/text/quantities.ts';

export type ServiceState =
  | 'realised'
  | 'no ready backends'
  | 'no load balancer'
  | 'stale backends'
  | 'missing backends'
  | 'vfp rule missing'
  | 'node port rule missing'
  | 'local policy, no local endpoint'
  | 'not realised in HNS on this plugin'
  | 'insufficient information';

export interface ServiceRow {
  namespace: string;
  name: string;
  /** The Service port (a ClusterIP row) or the node port (a NodePort row). */
  port: number;
  proto: string;
  /** `10.96.0.10:53` or `NodePort 30217`. */
  where: string;
  state: ServiceState;
  /** A 'realised' row's lesser fault (a warning, not a failure): the DSR host hairpin rule is missing (analysis/service-dsr.ts). */
  warning?: 'hairpin rule missing';
  /** One sentence: what was compared and what was found. */
  detail: string;
  evidence: FindingEvidence[];
}

/** Addresses of the Service's ready backends on this node (by the slice's nodeName, else by the pod). */
export function localReady(ctx: CheckContext, it: ServiceIntent): string[] {
  const snap = ctx.m.k8s;
  if (!snap) return [];
  const node = new Set((ctx.m.k8s?.nodes ?? []).filter((n) => n.addresses.some((a) => ctx.tc.hostIps.has(a.address)) || n.name.toLowerCase() === (ctx.m.meta.hostName ?? '').toLowerCase()).map((n) => n.name));
  const localEp = new Set(ctx.localPods.map((e) => e.ip));
  return it.ready.filter((ip) => localEp.has(ip) || snap.pods.some((p) => p.ips.includes(ip) && p.nodeName && node.has(p.nodeName)));
}

export function serviceStates(ctx: CheckContext, extra?: (it: ServiceIntent) => Pick<ServiceRow, 'state' | 'detail' | 'evidence'> | undefined): ServiceRow[] {
  const { m } = ctx;
  if (!m.k8s) return [];
  const vfp = m.vfp ? (vip: string, port: number, proto: number, np?: { lbVips: string[] }) => (np ? vfpNodePortDips(ctx, port, proto, np.lbVips) : vfpLbDips(ctx, vip, port, proto)) : undefined;
  const intents = serviceIntents(m, vfp);
  const lbFile = m.meta.sources.loadBalancers?.[0];
  // Whether the dump shows LB rules at all on pod ports / host ports: only then is a missing one a fact.
  const anyPodLbRule = !!m.vfp && intents.some((i) => !i.nodePort && i.vfp);
  const anyHostLbRule = !!m.vfp && intents.some((i) => i.nodePort && i.vfp);
  const rows: ServiceRow[] = [];
  for (const it of intents) {
    const svc = it.service;
    const where = it.nodePort ? `NodePort ${it.port}` : `${it.vip}:${it.port}`;
    const row = (state: ServiceState, detail: string, evidence: FindingEvidence[]): ServiceRow => ({ namespace: svc.namespace, name: svc.name, port: it.port, proto: it.protocol, where, state, detail, evidence });
    const svcEv: FindingEvidence = { file: svc.src.file, line: svc.src.line, text: `Service ${svc.namespace}/${svc.name} ${svc.type} ${it.nodePort ? `node port ${it.port}` : where}/${it.protocol}` };
    const backends = `${plural(it.ready.length, 'ready backend')} from its ${it.source}${it.ready.length ? ` (${it.ready.slice(0, 4).join(', ')}${it.ready.length > 4 ? ', …' : ''})` : ''}`;
    if (!ctx.kubeProxy) {
      rows.push(row('not realised in HNS on this plugin', `${ctx.platform.label} handles Services itself (no HNS load balancers); not verifiable from HNS.`, [svcEv]));
      continue;
    }
    if (!m.loadBalancers) {
      rows.push(row('insufficient information', 'Insufficient information: needs the HNS load balancers (hnsdiag list loadbalancers -d, or Get-HnsPolicyList in policy.txt).', [svcEv]));
      continue;
    }
    if (!it.ready.length) {
      rows.push(row('no ready backends', `No ready backend (${it.source === 'none' ? 'no EndpointSlice and no selector' : `from its ${it.source}`}): kube-proxy creates no load balancer for it, so it is not realised on any node.`, [svcEv]));
      continue;
    }
    const local = it.nodePort && svc.externalTrafficPolicy === 'Local' ? localReady(ctx, it) : undefined;
    if (!it.lb) {
      if (local && !local.length) {
        rows.push(row('local policy, no local endpoint', `externalTrafficPolicy: Local and none of its ${backends} runs on this node: kube-proxy programs no node port load balancer here, so connections to this node's port ${it.port} are dropped (by design; an external load balancer's health probe takes the node out).`, [svcEv]));
      } else {
        rows.push(row('no load balancer', `${backends}, but HNS on this node has no load balancer for ${where}/${it.protocol}.`, [svcEv, ctx.absent(lbFile ?? 'policy.txt', `no load balancer for ${where}/${it.protocol}`)]));
      }
      continue;
    }
    const lbEv = ctx.ev(it.lb.src, it.vip || String(it.port), 400);
    const hook = extra?.(it);
    if (hook) {
      rows.push({ ...row(hook.state, hook.detail, hook.evidence) });
      continue;
    }
    if (it.stale.length) {
      rows.push(row('stale backends', `Load balancer ${it.lb.id} sends to ${it.stale.join(', ')}, which no Running pod holds${it.missing.length ? `, and not to ready ${it.missing.length === 1 ? 'backend' : 'backends'} ${it.missing.join(', ')}` : ''}; ${backends}.`, [svcEv, lbEv]));
      continue;
    }
    if (it.missing.length || it.notBackend.length) {
      rows.push(row('missing backends', `${it.missing.length ? `Ready ${it.missing.length === 1 ? 'backend' : 'backends'} ${it.missing.join(', ')} ${it.missing.length === 1 ? 'gets' : 'get'} no traffic from this node` : ''}${it.missing.length && it.notBackend.length ? '; ' : ''}${it.notBackend.length ? `${it.notBackend.join(', ')} is load-balanced to but is not a ready backend` : ''} (load balancer ${it.lb.id}).`, [svcEv, lbEv]));
      continue;
    }
    if (!it.nodePort && anyPodLbRule && !it.vfp) {
      rows.push(row('vfp rule missing', `HNS has load balancer ${it.lb.id}, but no pod port carries a VFP load-balancing rule for ${where}/${it.protocol} (other Services have theirs): pods here are not load-balanced to it.`, [svcEv, lbEv]));
      continue;
    }
    if (it.nodePort && anyHostLbRule && !it.vfp) {
      rows.push(row('node port rule missing', `HNS has load balancer ${it.lb.id} for node port ${it.port}, but no host port (host vNIC or uplink) carries a VFP load-balancing rule for it (other node ports have theirs): connections to this node's port ${it.port} are not forwarded.`, [svcEv, lbEv]));
      continue;
    }
    const vfpSaid = it.vfp ? `, and the VFP rule on ${it.nodePort ? 'the host vNIC port' : 'the pod ports'} sends to the same` : m.vfp ? ' (no VFP load-balancing rule for it was found to confirm)' : ' (no VFP dump to confirm the rules)';
    rows.push(row('realised', `Load balancer ${it.lb.id} sends to its ${backends}${vfpSaid}.`, [svcEv, lbEv]));
  }
  return rows;
}
