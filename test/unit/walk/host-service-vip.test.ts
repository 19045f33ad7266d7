// The node's own packet to a Service VIP that no rule of the host vNIC's port translated (issue #25, the
// open question on the WS2019 l2bridge fixture: host → ClusterIP shown "dropped*").
// Sources:
// - "Troubleshooting Kubernetes Networking on Windows: Part 1" (D. Schott, Microsoft, 2019; the GUIDE of
//   analysis/walk/README.md, ../shared/seeds/troubleshooting-k8s-networking-on-windows-part1.md): "service
//   VIP resolution from the Windows node itself is not supported on Windows Server 2019, but planned for
//   Windows Server version 1903";
// - kubernetes/website content/en/docs/tasks/debug/debug-cluster/windows.md ("Windows debugging tips"):
//   "My Windows node cannot access my services using the service IP — This is a known limitation of the
//   networking stack on Windows. However, Windows Pods can access the Service IP."
// So on Windows Server 2019 (build 17763) and earlier, with no rule of the host's port translating the
// VIP, the drop is the documented limitation (a fact, like the node's own NodePort), not "HNS and VFP
// disagree" and not an inference. On later builds no source says the host port lacks the rule by
// design (calico#8569 shows a WS2022 node reaching Service VIPs), so the drop stays an inference there.
import { describe, expect, it } from 'vitest';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { Flow } from '../../../analysis/walk/types.ts';
import { load } from './helpers.ts';

const WS2019 = 'test/fixtures/foreign/ws2019-flannel-l2bridge-2020';
const HOST = '192.168.30.21';

describe('host → a Service VIP on Windows Server 2019 (ws2019-flannel-l2bridge-2020, build 17763)', () => {
  const m = load(WS2019);
  // Every ClusterIP:port of the fixture's HNS load balancers (policy.txt), both protocols it uses.
  const flows: Flow[] = [
    { srcIp: HOST, dstIp: '10.96.0.1', dstPort: 443, proto: 'tcp' },
    { srcIp: HOST, dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' },
    { srcIp: HOST, dstIp: '10.96.0.10', dstPort: 53, proto: 'tcp' },
    { srcIp: HOST, dstIp: '10.102.220.146', dstPort: 80, proto: 'tcp' },
    { srcIp: HOST, dstIp: '10.110.5.20', dstPort: 514, proto: 'udp' },
  ];
  for (const f of flows)
    it(`${f.dstIp}:${f.dstPort}/${f.proto} is dropped by the documented limitation, not an inference`, () => {
      const w = walkFlow(m, f, { reply: true });
      expect(w.verdict).toBe('dropped');
      const h = w.hops[w.deciding];
      expect(h?.effect).toEqual({ kind: 'drop', why: 'limitation' });
      expect(h?.inferred).toBeFalsy();
      expect(h?.note).toMatch(/Windows Server 2019/);
      expect(h?.note).not.toMatch(/HNS and VFP disagree/);
      expect(w.reason).toMatch(/the node itself/);
    });

  it('a pod of the same node still reaches the same VIP (the limitation is the host\'s only)', () => {
    const w = walkFlow(m, { srcIp: '10.244.3.5', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' }, { reply: true });
    expect(w.verdict).not.toBe('dropped');
  });
});

describe('host → a Service VIP on a later build keeps its inference', () => {
  // The same bundle read as a later build: no source says the host port lacks the rule by design there.
  const m = load(WS2019);
  const later = { ...m, meta: { ...m.meta, windowsBuild: '10.0.20348.2340' } };
  it('10.96.0.1:443/tcp is dropped, marked inferred, and says HNS and VFP disagree', () => {
    const w = walkFlow(later, { srcIp: HOST, dstIp: '10.96.0.1', dstPort: 443, proto: 'tcp' }, { reply: true });
    expect(w.verdict).toBe('dropped');
    const h = w.hops[w.deciding];
    expect(h?.inferred).toBe(true);
    expect(h?.effect).toEqual({ kind: 'drop', why: 'no-lb' });
  });
  it('with no Windows build in the bundle, the same', () => {
    const unknown = { ...m, meta: { ...m.meta, windowsBuild: undefined } };
    const w = walkFlow(unknown, { srcIp: HOST, dstIp: '10.96.0.1', dstPort: 443, proto: 'tcp' }, { reply: true });
    expect(w.hops[w.deciding]?.inferred).toBe(true);
  });
});
