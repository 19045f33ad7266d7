// A pod endpoint whose vNIC is in no compartment (the containerd/Windows async-vNIC case: the HNS
// endpoint and its VFP port exist, the adapter never arrived) receives nothing: a walk to it is
// dropped, with the reason, or unknown when the bundle lacks ip.txt to tell. A finding's "walk this
// packet" does not start from such a pod unless the finding is about it.
// Sources: ../shared/seeds/sig-network-thread-cni-check-windows-vnics.txt; test/fixtures/foreign-faults
// README ("Endpoint without vNIC").
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { withPathFindings } from '../../../analysis/walk/findings-on-path.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { findingViews } from '../../../analysis/view-models/findings.ts';
import { load } from './helpers.ts';
import { buildWith } from '../checks/helpers.ts';

const FIXTURE = path.resolve('test/fixtures/foreign-faults/overlay-stale-dip-endpoint-without-vnic');
const NO_VNIC = '10.244.2.12';
const HEALTHY = '10.244.2.4';

describe('a packet to a pod endpoint without a vNIC', () => {
  it('is dropped, naming the missing vNIC, and no "delivered" is said anywhere', () => {
    const m = load(FIXTURE);
    const r = withPathFindings(m, walkFlow(m, { srcIp: HEALTHY, dstIp: NO_VNIC, dstPort: 80, proto: 'tcp' }), findingViews(m, runChecks(m)));
    expect(r.verdict).toBe('dropped');
    expect(r.reason).toMatch(/no vNIC in any compartment/);
    expect(r.hops[r.deciding].kind).toBe('drop');
    expect(r.hops.some((h) => h.kind === 'deliver')).toBe(false);
    // The finding about the endpoint is on the path, in words that do not claim delivery.
    const f = r.findings!.find((x) => x.id === 'endpoint-without-vnic');
    expect(f).toBeDefined();
    expect(f!.why).not.toMatch(/delivered/);
    expect(r.returnPath).toBeUndefined();
  });

  it('is unknown when the bundle has no ip.txt to say whether the vNIC exists', () => {
    const m = load(FIXTURE);
    const r = walkFlow({ ...m, ip: null }, { srcIp: HEALTHY, dstIp: NO_VNIC, dstPort: 80, proto: 'tcp' });
    expect(r.verdict).toBe('unknown');
    expect(r.reason).toMatch(/IP configuration \(ipconfig \/allcompartments \/all\) is not in the bundle/);
  });

  it('a pod with its vNIC is still delivered to', () => {
    const m = load(FIXTURE);
    const other = (m.endpoints ?? []).find((e) => !e.isRemote && e.ip && e.ip !== HEALTHY && e.ip !== NO_VNIC && (walkContext(m).adapterOf.get(e.id)?.compartment.id ?? 0) > 1)!;
    expect(walkFlow(m, { srcIp: HEALTHY, dstIp: other.ip!, dstPort: 80, proto: 'tcp' }).verdict).toBe('delivered');
  });
});

describe("a finding's walk", () => {
  it('starts from a pod with its vNIC unless the finding is about the pod without one', () => {
    let first = '';
    const { model } = buildWith({ faults: ['exception-list-typo'] }, (p, t, n) => {
      if (p !== 'ip.txt') return t;
      const e = n.endpoints.filter((x) => x.kind === 'pod')[0];
      first = e.ip!;
      // Its adapter is gone: no adapter in any compartment has its address or MAC.
      return t.replace(`${e.ip}(Preferred)`, '10.99.99.99(Preferred)').split(e.mac!).join('00-15-5D-00-00-01');
    });
    const traced = runChecks(model).filter((f) => f.trace);
    expect(traced.some((f) => f.id !== 'endpoint-without-vnic')).toBe(true);
    for (const f of traced) {
      if (f.id === 'endpoint-without-vnic') expect(f.trace!.srcIp).toBe(first);
      else expect(f.trace!.srcIp, f.id).not.toBe(first);
    }
  });
});
