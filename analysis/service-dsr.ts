// The DSR part of a Service port's state: where the dsr-rules check finds a local backend of a DSR
// load balancer without its NAT_ / ALLOW_NAT_ rules (microsoft/SDN
// Kubernetes/windows/debug/networkmonitor/networkhealth.ps1, DSRLoadBalancerPolicyVfpRules), the
// Service port is `vfp rule missing`, with that check's words and lines. Given to serviceStates as its
// `extra` hook (analysis/checks/service-states.ts), so inspect, the Services table and the report say
// the same. The missing host hairpin rule (a warning: only a backend reaching its own Service through
// the VIP) keeps the state 'realised' — inspect --json's vocabulary unchanged — and adds the row's
// `warning: 'hairpin rule missing'` with networkhealth.ps1's words ("Host VFP port has missing rule
// HairPin_…") and the lines: the table shows "realised, hairpin rule missing" (dsrHairpinWarnings).
import type { Finding } from './findings/types.ts';
import type { CheckContext } from './checks/context.ts';
import type { ServiceRow } from './checks/service-states.ts';
import type { ServiceIntent } from './k8s/index.ts';
import { dsrRulesCheck } from './checks/dsr-rules.ts';
import { OverBudgetError } from './budget.ts';

export type ServiceHook = (it: ServiceIntent) => Pick<ServiceRow, 'state' | 'detail' | 'evidence'> | undefined;

/** The dsr-rules check's findings, run once per node's context (the hook and the hairpin warnings share them). */
const ran = new WeakMap<CheckContext, Finding[] | undefined>();
function dsrFindings(ctx: CheckContext): Finding[] | undefined {
  if (ran.has(ctx)) return ran.get(ctx);
  let found: Finding[] | undefined;
  try {
    found = dsrRulesCheck.run(ctx);
  } catch (e) {
    // Over the budget the rows are not worth less for lacking DSR: the caller's budget decides.
    if (e instanceof OverBudgetError) throw e;
    found = undefined;
  }
  ran.set(ctx, found);
  return found;
}

export function dsrServiceHook(ctx: CheckContext): ServiceHook | undefined {
  const found = dsrFindings(ctx)?.filter((f) => f.id === 'dsr-backend-rule-missing') ?? [];
  if (!found.length) return undefined;
  // The check names its Service `VIP:port/PROTO` first among its objects (a node port: the node's address).
  const byKey = new Map<string, Finding[]>();
  for (const f of found) {
    const k = f.objects?.[0];
    if (k) byKey.set(k, [...(byKey.get(k) ?? []), f]);
  }
  return (it) => {
    const vip = it.nodePort ? ctx.nodeIp : it.vip;
    const fs = vip ? byKey.get(`${vip}:${it.port}/${it.protocol}`) : undefined;
    if (!fs?.length || !it.lb) return undefined;
    const svc = it.service;
    return {
      state: 'vfp rule missing',
      detail: `DSR load balancer ${it.lb.id}: ${fs.map((f) => f.title).join('; ')}. The share of connections sent to that backend fails (the rules networkhealth.ps1 expects).`,
      evidence: [{ file: svc.src.file, line: svc.src.line, text: `Service ${svc.namespace}/${svc.name} ${svc.type} ${it.nodePort ? `node port ${it.port}` : `${it.vip}:${it.port}`}/${it.protocol}` }, ...fs.flatMap((f) => f.evidence)],
    };
  };
}

/**
 * The realised rows whose DSR load balancer lacks the host vNIC's HairPin_ rule (the dsr-rules check's
 * warning): state kept, `warning` added, the detail in networkhealth.ps1's words (DSRLoadBalancerPolicyVfpRules:
 * "Host VFP port has missing rule HairPin_\w*_<VIP>_<port>_<port>_<proto>", resolution "Restart HNS
 * service by executing: Restart-Service -f HNS"), and the check's lines appended to the evidence.
 */
export function dsrHairpinWarnings(ctx: CheckContext, rows: ServiceRow[]): ServiceRow[] {
  const found = dsrFindings(ctx)?.filter((f) => f.id === 'dsr-hairpin-rule-missing') ?? [];
  if (!found.length) return rows;
  // The check names its Service `VIP:port/PROTO` first (a node port: the node's address).
  const byKey = new Map(found.flatMap((f) => (f.objects?.[0] ? [[f.objects[0], f] as const] : [])));
  return rows.map((r) => {
    if (r.state !== 'realised') return r;
    const key = r.where.startsWith('NodePort ') ? `${ctx.nodeIp}:${r.where.slice(9)}/${r.proto}` : `${r.where}/${r.proto}`;
    const f = byKey.get(key);
    if (!f) return r;
    const rule = f.objects?.[2] ?? 'HairPin_…';
    return {
      ...r,
      warning: 'hairpin rule missing',
      detail: `${r.detail} But the host VFP port has missing rule ${rule} (SLB_HAIRPIN_LAYER / SLB_GROUP_HAIRPIN_IPv4_IN, as networkhealth.ps1 says it): a backend on this node that connects to this Service through its VIP gets no answer; other clients are served. Restart HNS to reprogram it (Restart-Service -f HNS; it disrupts the node).`,
      evidence: [...r.evidence, ...f.evidence],
    };
  });
}
