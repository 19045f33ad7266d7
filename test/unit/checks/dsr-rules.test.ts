// The VFP rules a DSR load balancer's local backend needs (microsoft/SDN
// Kubernetes/windows/debug/networkmonitor/networkhealth.ps1, DSRLoadBalancerPolicyVfpRules):
// NAT_…_<VIP>_<port>_<proto> in the backend port's SLB_NAT_LAYER / SLB_GROUP_NAT_IPv4_IN and
// ALLOW_NAT_…_<VIP>_<port>_<proto> in its SLB_GROUP_NAT_IPv4_OUT. Built on the hand-written overlay
// bundle with the walk scenario b12's change (the LB_DSR rule keeps the VIP; the backend's NAT_ rule),
// plus the ALLOW_NAT_ rule: the healthy twin. Removing either rule gives a finding that names it and
// where, and the walk through the Service says the same on its hop.
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../../analysis/checks/index.ts';
import { findingViews } from '../../../analysis/view-models/findings.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { withPathFindings } from '../../../analysis/walk/findings-on-path.ts';
import { DSR_BACKEND_PORT as BACKEND_PORT, DSR_BASE as BASE, dsrTwinEdits, editFile } from '../../helpers/dsr-twin.ts';
import { load } from '../walk/helpers.ts';

const FLOW = { srcIp: '10.244.2.4', dstIp: '10.98.201.5', dstPort: 9182, proto: 'tcp' as const };

/** The base with the edits; `drop` removes the rule of that name from the healthy twin. */
function twin(drop?: 'NAT_B1393' | 'ALLOW_NAT_B1393') {
  const edits = dsrTwinEdits(drop);
  return load(BASE, (file, body) => editFile(edits, file, body));
}

describe('DSR load balancer rules on a local backend (networkhealth.ps1)', () => {
  it('the healthy twin gives no finding, and the walk through the Service is delivered', () => {
    const m = twin();
    expect(runChecks(m).filter((f) => f.id.startsWith('dsr-'))).toEqual([]);
    expect(walkFlow(m, FLOW).verdict).toBe('delivered');
  });

  it('the base bundle, whose LB_DSR rules rewrite the destination themselves, gives no finding', () => {
    expect(runChecks(load(BASE)).filter((f) => f.id.startsWith('dsr-'))).toEqual([]);
  });

  it('without the NAT_ rule: a finding names the rule, its layer and group, the port; the walk says the same on its hop', () => {
    const m = twin('NAT_B1393');
    const fs = runChecks(m).filter((f) => f.id === 'dsr-backend-rule-missing');
    expect(fs).toHaveLength(1);
    const f = fs[0];
    expect(f.severity).toBe('error');
    expect(f.title).toContain('NAT_…_10.98.201.5_9182_6');
    expect(f.title).not.toContain('ALLOW_NAT');
    expect(f.explanation).toContain('SLB_NAT_LAYER / SLB_GROUP_NAT_IPv4_IN');
    expect(f.objects).toEqual(expect.arrayContaining(['10.98.201.5:9182/TCP', BACKEND_PORT, 'NAT_…_10.98.201.5_9182_6']));
    const r = withPathFindings(m, walkFlow(m, FLOW), findingViews(m, runChecks(m)));
    expect(r.verdict).toBe('dropped');
    const cav = r.caveats!.find((c) => c.kind === 'black-hole')!;
    expect(cav.text).toContain(`NAT_…_10.98.201.5_9182_6 in SLB_NAT_LAYER / SLB_GROUP_NAT_IPv4_IN of port ${BACKEND_PORT}`);
    // The finding is on the walk, at the hop that load-balanced the Service to that backend.
    const on = r.findings!.find((x) => x.id === 'dsr-backend-rule-missing')!;
    expect(on).toBeDefined();
    expect(r.hops[on.hop!].action).toBe('LB (DSR)');
    expect(r.hops[on.hop!].after?.l2Dst).toBe('10.244.2.12');
  });

  it('without the ALLOW_NAT_ rule: a finding names it in SLB_GROUP_NAT_IPv4_OUT', () => {
    const fs = runChecks(twin('ALLOW_NAT_B1393')).filter((f) => f.id === 'dsr-backend-rule-missing');
    expect(fs).toHaveLength(1);
    expect(fs[0].title).toContain('ALLOW_NAT_…_10.98.201.5_9182_6');
    expect(fs[0].explanation).toContain('no ALLOW_NAT_…_10.98.201.5_9182_6 in SLB_NAT_LAYER / SLB_GROUP_NAT_IPv4_OUT');
  });
});
