// Audit of issue #25 ("a verdict that a domain expert would call wrong"): packets to addresses nobody can
// answer from are walked out of the node, and their reply is invented as "delivered". Each class of
// `reach --from` shows these, so every pod's table carries them. Defects for the owner of analysis/walk
// (reach only reports the walk); each test keeps its defect fixed.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { repo } from '../../helpers/cli.ts';

const load = (p: string) => loadBundle(path.join(repo, p));

describe('audit: an address of this node\'s own pod subnet that no endpoint holds', () => {
  // DEFECT A3. The 2019 flannel host-gw node owns 10.244.3.0/24 (its pods 10.244.3.5-9, gateway
  // cbr0_ep 10.244.3.2). A packet to 10.244.3.200 — a deleted pod's address, or the old address of a
  // pod (see the duplicate-ip pair below) — is "FORWARDED … leaves the node towards 10.244.3.200" and
  // its reply "arrives on the uplink" and is DELIVERED. No other node holds an address of this node's
  // pod CIDR (flannel hands each node its own /24: flannel-io/flannel pkg/backend/hostgw), so nothing
  // answers: the reply must not be delivered (dropped or unknown, with the reason).
  // Seen in `diff --reach` on a generated flannel-host-gw node before/after `--fault duplicate-ip`:
  // traffic to the vacated 10.244.38.8 became "forwarded, reply delivered".
  it('host-gw: no reply is delivered from a free address of the local pod subnet', async () => {
    const m = await load('test/fixtures/foreign/ws2019-flannel-l2bridge-2020');
    const w = walkFlow(m, { srcIp: '10.244.3.5', dstIp: '10.244.3.200', dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(w.reply?.verdict).not.toBe('delivered');
  });

  // Same on overlay (flannel vxlan demo, pod subnet 10.244.18.0/24): the packet "leaves the node via next
  // hop 10.240.0.1" un-encapsulated, and the reply is delivered.
  it('overlay: no reply is delivered from a free address of the local pod subnet', async () => {
    const m = await load('assets/demo/overlay-node');
    const w = walkFlow(m, { srcIp: '10.244.18.3', dstIp: '10.244.18.200', dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(w.reply?.verdict).not.toBe('delivered');
  });
});

describe('audit: destinations that are never forwarded (RFC 6890 "Forwardable: False")', () => {
  // DEFECT A4 (minor). reach's boundaries cut at the RFC 6890 blocks (analysis/reach/README.md), but the
  // walk sends TCP to 255.255.255.255 (limited broadcast), 0.0.0.0/8 ("this network", a source only:
  // RFC 1122 3.2.1.3), 240.0.0.0/4 (reserved) and 169.254.0.0/16 (link-local, never forwarded by a
  // router: RFC 3927 §2.7) to the default gateway, SNATed, and delivers a reply. An expert calls these
  // dropped (or at least not "forwarded with a reply").
  for (const dst of ['255.255.255.255', '0.1.2.3', '240.0.0.1', '169.254.10.10']) {
    it(`${dst}: a pod's TCP is not forwarded with a delivered reply`, async () => {
      const m = await load('test/fixtures/foreign/ws2019-flannel-l2bridge-2020');
      const w = walkFlow(m, { srcIp: '10.244.3.5', dstIp: dst, dstPort: 80, proto: 'tcp' }, { reply: true });
      expect(w.verdict === 'forwarded' && w.reply?.verdict === 'delivered').toBe(false);
    });
  }
});

describe('what the fix says about them (the verdict and its reason)', () => {
  it('drops the RFC 6890 blocks no router forwards, and leaves a link-local address only the default route covers unknown', async () => {
    const m = await load('test/fixtures/foreign/ws2019-flannel-l2bridge-2020');
    for (const dst of ['255.255.255.255', '0.1.2.3', '240.0.0.1']) {
      const w = walkFlow(m, { srcIp: '10.244.3.5', dstIp: dst, dstPort: 80, proto: 'tcp' }, { reply: true });
      expect(w.verdict, dst).toBe('dropped');
      expect(w.hops[w.deciding]?.note).toMatch(/RFC (6890|919|1122)/);
    }
    // 169.254.169.254 is a cloud's metadata service on AKS and EKS: never called dropped.
    const ll = walkFlow(m, { srcIp: '10.244.3.5', dstIp: '169.254.169.254', dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(ll.verdict).toBe('unknown');
    expect(ll.reason).toMatch(/link-local/);
  });

  it('says why a free address of the node\'s own pod subnet is unknown, and lets a pod of that subnet be delivered', async () => {
    const m = await load('test/fixtures/foreign/ws2019-flannel-l2bridge-2020');
    const w = walkFlow(m, { srcIp: '10.244.3.5', dstIp: '10.244.3.200', dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(w.verdict).toBe('unknown');
    expect(w.reason).toMatch(/no endpoint holds 10\.244\.3\.200.*10\.244\.3\.0\/24/);
    expect(walkFlow(m, { srcIp: '10.244.3.5', dstIp: '10.244.3.6', dstPort: 80, proto: 'tcp' }).verdict).toBe('delivered');
  });
});
