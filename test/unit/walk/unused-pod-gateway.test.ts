// The HNS gateway address of a flannel host-gw node's pod subnet (.1) is held by nothing on the node
// (issue #25, "what nobody looked at"): flannel (pkg/backend/hostgw/hostgw_windows.go) creates the
// L2Bridge network with gateway .1 (`expectedGatewayAddress`) and gives the pods the bridge endpoint
// .2 as their gateway (`expectedPodGatewayAddress`, the "<network>_ep" endpoint in the host
// compartment). A pod's packet to .1 was "forwarded" with a "delivered" reply on
// ws2019-flannel-l2bridge-2020: the walk exempted a subnet's gateway from the free addresses of the
// node's own pod subnet. It is such a free address when no pod of this node uses it as its gateway, so
// the verdict is unknown (insufficient information), like any other free address of that subnet. A
// gateway pods do use (flannel VXLAN's distributed router .1, ws2022-overlay-2024) is left as it was.
import { describe, expect, it } from 'vitest';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { Flow } from '../../../analysis/walk/types.ts';
import { load } from './helpers.ts';

describe('flannel host-gw: the pod subnet\'s unused HNS gateway (.1)', () => {
  const m = load('test/fixtures/foreign/ws2019-flannel-l2bridge-2020');
  const flows: Flow[] = [
    { srcIp: '10.244.3.5', dstIp: '10.244.3.1', dstPort: 80, proto: 'tcp' },
    { srcIp: '10.244.3.7', dstIp: '10.244.3.1', proto: 'icmp' },
    { srcIp: '10.244.3.9', dstIp: '10.244.3.1', dstPort: 53, proto: 'udp' },
  ];
  for (const f of flows)
    it(`${f.srcIp} → ${f.dstIp}/${f.proto} is unknown, not forwarded with an answer`, () => {
      const w = walkFlow(m, f, { reply: true });
      expect(w.verdict).toBe('unknown');
      expect(w.reason).toMatch(/insufficient information/);
      expect(w.reply?.verdict).not.toBe('delivered');
      expect(w.hops[w.deciding]?.inferred).toBe(true);
    });
  it('the bridge endpoint (.2), the pods\' gateway, is still delivered', () => {
    const w = walkFlow(m, { srcIp: '10.244.3.5', dstIp: '10.244.3.2', dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(w.verdict).toBe('delivered');
  });
});

describe('flannel VXLAN: the distributed router (.1), the pods\' gateway, is not a free address', () => {
  const m = load('test/fixtures/foreign/ws2022-overlay-2024');
  it('10.244.2.4 → 10.244.2.1 is not called a free address', () => {
    const w = walkFlow(m, { srcIp: '10.244.2.4', dstIp: '10.244.2.1', proto: 'icmp' }, { reply: true });
    expect(w.hops.some((h) => h.action === 'no endpoint')).toBe(false);
  });
});
