// A pod's packet to its own gateway on an overlay network (issue #25, trial on bundles shaped unlike
// ours). Flannel VXLAN (flannel-io/flannel pkg/backend/vxlan/device_windows.go) and Calico VXLAN
// (projectcalico/calico cni-plugin/pkg/dataplane/windows/dataplane_windows.go) give the pods the
// subnet's .1 as gateway: HNS's distributed router, a virtual address no endpoint holds. The walk sent
// such a packet out of the node by the host's default route, with the pod's own address ("forwarded",
// reply unknown) — a pod's packet to its own on-link gateway never leaves by the host's route table.
// Whether the distributed router answers a packet addressed to it no source read says
// (flannel-io/flannel#833: a broken VXLAN node whose pods could not ping it settles nothing). So the
// verdict is unknown (insufficient information), marked inferred, never "forwarded".
import { describe, expect, it } from 'vitest';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { Flow } from '../../../analysis/walk/types.ts';
import { load } from '../walk/helpers.ts';

const CASES: [string, Flow[]][] = [
  ['test/fixtures/foreign/ws2022-overlay-2024', [
    { srcIp: '10.244.2.4', dstIp: '10.244.2.1', proto: 'icmp' },
    { srcIp: '10.244.2.7', dstIp: '10.244.2.1', dstPort: 53, proto: 'udp' },
  ]],
  ['test/fixtures/foreign-calico-vxlan', [
    { srcIp: '10.244.151.72', dstIp: '10.244.151.65', proto: 'icmp' },
    { srcIp: '10.244.151.72', dstIp: '10.244.151.65', dstPort: 53, proto: 'udp' },
  ]],
];

describe('overlay: a pod → its distributed router (.1)', () => {
  for (const [bundle, flows] of CASES) {
    const m = load(bundle);
    for (const f of flows)
      it(`${bundle.split('/').pop()}: ${f.srcIp} → ${f.dstIp}/${f.proto} is unknown, not forwarded by the host's routes`, () => {
        const w = walkFlow(m, f, { reply: true });
        expect(w.verdict).toBe('unknown');
        expect(w.reason).toMatch(/insufficient information/);
        expect(w.hops.some((h) => h.kind === 'host-route')).toBe(false);
        expect(w.hops[w.deciding]?.inferred).toBe(true);
        expect(w.reply?.verdict).not.toBe('delivered');
      });
  }
  it('a remote pod of the same overlay is still forwarded (encapsulated)', () => {
    const w = walkFlow(load('test/fixtures/foreign-calico-vxlan'), { srcIp: '10.244.151.72', dstIp: '10.244.200.195', dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(w.verdict).toBe('forwarded');
  });
});
