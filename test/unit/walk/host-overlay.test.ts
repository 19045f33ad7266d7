// The host's own packet to a pod (or a Service backend) on another node of an overlay (VXLAN) network
// (issue #25, "what nobody looked at"). Sources (analysis/walk/README.md, "The host's own traffic on an
// overlay network"): projectcalico/calico#8569 — on Windows Server 2022 the node reaches remote pods and
// Service VIPs through the REMOTESUBNETROUTE rule in VFP, and loses its packets when VFP has no such rule
// although HNS has the policy; flannel-io/flannel#1096 — in 2019 Windows hosts had no connectivity with
// pods on remote hosts over VXLAN. No source says which VFP port encapsulates the host's packet, so an
// encap rule on pod ports only is "unknown" (insufficient information), never a plain "dropped"; a node
// where no port has one keeps its documented "dropped".
import { describe, expect, it } from 'vitest';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { Flow, WalkResult } from '../../../analysis/walk/types.ts';
import { inCidr } from '../../../analysis/walk/ip.ts';
import { load } from './helpers.ts';

const HEALTHY = 'test/fixtures/foreign/ws2022-overlay-2024';
const NO_RULE = 'test/fixtures/foreign-faults/overlay-remotesubnetroute-missing';
const HOST = '10.0.1.5';
const CAL8569 = 'https://github.com/projectcalico/calico/issues/8569';

const deciding = (w: WalkResult) => w.hops[w.deciding];

describe('host → a pod on another node of a healthy overlay node (ws2022-overlay-2024)', () => {
  const m = load(HEALTHY);
  // Both CoreDNS backends (remote, 10.244.0.0/24), both protocols; a remote pod of each remote subnet.
  const flows: Flow[] = [
    ...['10.244.0.2', '10.244.0.3'].flatMap((dip) => (['udp', 'tcp'] as const).map((proto): Flow => ({ srcIp: HOST, dstIp: '10.96.0.10', dstPort: 53, proto, dip }))),
    { srcIp: HOST, dstIp: '10.244.1.14', proto: 'icmp' },
    { srcIp: HOST, dstIp: '10.244.0.2', dstPort: 53, proto: 'tcp' },
  ];
  for (const f of flows)
    it(`${f.dstIp}${f.dstPort ? `:${f.dstPort}` : ''}/${f.proto}${f.dip ? ` via ${f.dip}` : ''} is unknown, not dropped, and says why`, () => {
      const w = walkFlow(m, f, { reply: true });
      expect(w.verdict).toBe('unknown');
      expect(w.reason).toMatch(/^insufficient information/);
      const h = deciding(w);
      expect(h?.inferred).toBe(true);
      expect(h?.effect?.kind).not.toBe('drop');
      // It names the encap rule the bundle does have, on a pod port, for the packet's destination.
      const target = f.dip ?? f.dstIp;
      const rule = /REMOTESUBNETROUTE_ENCAP_\w+_(\d+\.\d+\.\d+\.\d+)_(\d+)_/.exec(h?.note ?? '');
      expect(rule).not.toBeNull();
      expect(inCidr(target, `${rule![1]}/${rule![2]}`)).toBe(true);
      expect(h?.note).toMatch(/calico#8569/);
      expect((w.caveats ?? []).some((c) => c.kind === 'limitation' && c.source === CAL8569)).toBe(true);
    });

  it('a pod of this node still reaches the same backends (encapsulated by its own port)', () => {
    const w = walkFlow(m, { srcIp: '10.244.2.4', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp', dip: '10.244.0.3' });
    expect(w.verdict).toBe('forwarded');
    expect(w.egress.encapDst).toBe('10.0.1.4');
  });
});

describe('an overlay node whose VFP has no encap rule for a remote subnet (overlay-remotesubnetroute-missing)', () => {
  const m = load(NO_RULE);
  it('the host to that subnet stays dropped, citing the documented failure', () => {
    const w = walkFlow(m, { srcIp: HOST, dstIp: '10.244.1.14', proto: 'icmp' });
    expect(w.verdict).toBe('dropped');
    const h = deciding(w);
    expect(h?.effect).toEqual({ kind: 'drop', why: 'no-encap' });
    expect(h?.note).toMatch(/no port of this node has a VFP encap rule/);
    expect(h?.note).toMatch(/calico#8569/);
  });
  it('every local pod to that subnet stays dropped (no encap)', () => {
    const pods = ['10.244.2.4', '10.244.2.7', '10.244.2.9', '10.244.2.12'];
    let walked = 0;
    for (const src of pods) {
      const w = walkFlow(m, { srcIp: src, dstIp: '10.244.1.14', proto: 'icmp' });
      if (w.hops[0]?.kind !== 'source') continue;
      walked++;
      expect({ src, verdict: w.verdict }).toEqual({ src, verdict: 'dropped' });
      expect(deciding(w)?.effect).toEqual({ kind: 'drop', why: 'no-encap' });
      expect(deciding(w)?.note ?? '').not.toMatch(/no port of this node/);
    }
    expect(walked).toBeGreaterThan(0);
  });
  it('the host to the subnet whose rule the pods have is unknown, like the healthy node', () => {
    const w = walkFlow(m, { srcIp: HOST, dstIp: '10.244.0.3', proto: 'icmp' });
    expect(w.verdict).toBe('unknown');
  });
});
