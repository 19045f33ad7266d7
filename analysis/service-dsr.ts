// The DSR part of a Service port's state: where the dsr-rules check finds a local backend of a DSR
// load balancer without its NAT_ / ALLOW_NAT_ rules (microsoft/SDN
// Kubernetes/windows/debug/networkmonitor/networkhealth.ps1, DSRLoadBalancerPolicyVfpRules), the
// Service port is `vfp rule missing`, with that check's words and lines. Given to serviceStates as its
// `extra` hook (analysis/checks/service-states.ts), so inspect, the Services table and the report say
// the same. The missing host hairpin rule (a warning: only a pod reaching itself through the VIP) does
// not change the state.
import type { Finding } from './findings/types.ts';
import type { CheckContext } from './checks/context.ts';
import type { ServiceRow } from './checks/service-states.ts';
import type { ServiceIntent } from './k8s/index.ts';
import { dsrRulesCheck } from './checks/dsr-rules.ts';
import { OverBudgetError } from './budget.ts';

export type ServiceHook = (it: ServiceIntent) => Pick<ServiceRow, 'state' | 'detail' | 'evidence'> | undefined;

export function dsrServiceHook(ctx: CheckContext): ServiceHook | undefined {
  let found: Finding[];
  try {
    found = dsrRulesCheck.run(ctx).filter((f) => f.id === 'dsr-backend-rule-missing');
  } catch (e) {
    // Over the budget the rows are not worth less for lacking DSR: the caller's budget decides.
    if (e instanceof OverBudgetError) throw e;
    return undefined;
  }
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
