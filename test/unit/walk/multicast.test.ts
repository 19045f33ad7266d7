// Multicast (224.0.0.0/4, RFC 5771; ff00::/8, RFC 4291 §2.7): what HNS and VFP do with a container's
// packet to a group is described by no source read (analysis/walk/engine/nowhere.ts `multicast`), so the
// walk says "multicast is not modelled" with the verdict unknown and claims no reply. Before, a pod's
// mDNS query to 224.0.0.251:5353 left by the default route as if unicast, and its "reply" was delivered.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadBundle } from '../../../services/bundle/load.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import { classOf, reachFrom } from '../../../analysis/reach/index.ts';
import { intToIp } from '../../../analysis/walk/ip.ts';
import { repo } from '../../helpers/cli.ts';

// l2bridge (flannel host-gw, WS2019), overlay (flannel VXLAN, WS2022) and AKS (Azure CNI, WS2025): the
// verdict must not depend on the network type, since no source says how they differ.
const BUNDLES = ['test/fixtures/foreign/ws2019-flannel-l2bridge-2020', 'test/fixtures/foreign/ws2022-overlay-2024', 'test/fixtures/foreign/aks-win-zip-2025'];
const load = (p: string) => loadBundle(path.join(repo, p));

async function sources(bundle: string) {
  const m = await load(bundle);
  const ctx = walkContext(m);
  const pod = [...ctx.local.keys()].find((ip) => !ctx.hostIps.has(ip) && !ip.includes(':'));
  const host = [...ctx.hostIps].find((ip) => !ip.includes(':') && !ip.startsWith('127.'));
  return { m, pod: pod ?? '', host: host ?? '' };
}

describe('multicast is walked as not modelled, never as a delivered reply', () => {
  for (const b of BUNDLES) {
    it(`${path.basename(b)}: a pod's and the host's mDNS query, and any group of 224.0.0.0/4`, async () => {
      const { m, pod, host } = await sources(b);
      expect(pod).not.toBe('');
      for (const src of [pod, host].filter(Boolean)) {
        const w = walkFlow(m, { srcIp: src, dstIp: '224.0.0.251', dstPort: 5353, proto: 'udp' }, { reply: true });
        expect(w.verdict, src).toBe('unknown');
        expect(w.reason).toMatch(/^multicast is not modelled: 224\.0\.0\.251 /);
        expect(w.reply?.verdict).not.toBe('delivered');
        const hop = w.hops[w.deciding];
        expect(hop?.inferred).toBe(true);
        expect(hop?.note).toMatch(/Local Network Control Block, which is never forwarded off the link \(224\.0\.0\.0\/24, RFC 5771 §4/);
      }
      fc.assert(fc.property(fc.integer({ min: 0xe0000000, max: 0xefffffff }), fc.constantFrom('udp' as const, 'tcp' as const), (n, proto) => {
        const w = walkFlow(m, { srcIp: pod, dstIp: intToIp(n), dstPort: 5353, proto }, { reply: true });
        expect(w.verdict).toBe('unknown');
        expect(w.reason).toMatch(/^multicast is not modelled/);
        expect(w.reply?.verdict).not.toBe('delivered');
      }), { numRuns: 25 });
    });
  }

  it('IPv6: a pod\'s query to ff02::fb (mDNS) and to a global group, but not to a unicast address', async () => {
    // The dual-stack l2bridge base of the walk scenarios (pods fd00:10:244:5::a and ::b).
    const m = await load('test/fixtures/walk-scenarios/bases/dualstack-l2bridge');
    const pod = [...walkContext(m).local.keys()].find((ip) => ip.includes(':')) ?? '';
    for (const dst of ['ff02::fb', 'FF0E::1']) {
      const w = walkFlow(m, { srcIp: pod, dstIp: dst, dstPort: 5353, proto: 'udp' }, { reply: true });
      expect(w.verdict, dst).toBe('unknown');
      expect(w.reason).toMatch(/^multicast is not modelled/);
      expect(w.hops[w.deciding]?.note).toMatch(/ff00::\/8, RFC 4291/);
      expect(w.reply?.verdict).not.toBe('delivered');
    }
    // ff::1 is 00ff::1 (a group written short is not ffXX), and fd00::1 is unicast.
    for (const dst of ['ff::1', 'fd00::1']) expect(walkFlow(m, { srcIp: pod, dstIp: dst, dstPort: 5353, proto: 'udp' }).reason, dst).not.toMatch(/multicast/);
  });

  it('the addresses around 224.0.0.0/4 are not taken for multicast', async () => {
    const { m, pod } = await sources(BUNDLES[0] ?? '');
    for (const dst of ['223.255.255.255', '240.0.0.1']) expect(walkFlow(m, { srcIp: pod, dstIp: dst, dstPort: 5353, proto: 'udp' }).reason).not.toMatch(/multicast/);
  });

  it('reach: the class holding 224.0.0.0/4 has that outcome and no reply', async () => {
    const { m, pod } = await sources(BUNDLES[0] ?? '');
    const r = reachFrom(m, pod);
    for (const proto of ['udp', 'tcp'] as const) {
      const c = classOf(r, '224.0.0.251', proto, 5353);
      expect(c, proto).toBeDefined();
      expect(c?.verdict).toBe('unknown');
      expect(c?.reason).toMatch(/^multicast is not modelled/);
      expect(c?.reply?.verdict).not.toBe('delivered');
      // The class stays inside the block (RFC 6890 cuts it from its neighbours).
      expect(c?.dst[0].split('.').map(Number)[0]).toBeGreaterThanOrEqual(224);
      expect(c?.dst[1].split('.').map(Number)[0]).toBeLessThanOrEqual(239);
    }
  });
});
