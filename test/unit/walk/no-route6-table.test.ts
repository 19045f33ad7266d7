// A route table with no IPv6 route at all (routes.txt from `route print -4`, or IPv6 off) cannot say
// where an IPv6 packet leaves the node: the routing stage says "unknown" (insufficient information), as
// it does for IPv4 when routes.txt is missing (analysis/walk/engine/routing.ts), never "dropped: no IPv6
// route". A table that has IPv6 routes still drops what none of them covers.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadBundle } from '../../../services/bundle/load.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { hexToIpv6 } from '../../../parsers/net/ip.ts';
import { DUALSTACK, withoutIpv6Routes } from '../reach/models-v6.ts';

const POD = 'fd00:10:244:5::a';
const HOST = 'fd00:10::15';
const hex = (n: bigint) => hexToIpv6(n.toString(16).padStart(32, '0'));
/** Global unicast 2000::/3 (RFC 4291 §2.4): never a special block, never this node's. */
const global = fc.bigInt({ min: 0x2000n << 112n, max: (0x4000n << 112n) - 1n }).map(hex);

/** The same node with its IPv6 table cut to one prefix (what a table with routes but none for the packet does). */
function withOnlyRoute6(m: NodeModel, prefix: string): NodeModel {
  const routes = m.routes!;
  return { ...m, routes: { ...routes, ipv6Active: routes.ipv6Active.filter((r) => r.destination === prefix) } };
}

describe('the walk without an IPv6 route table', () => {
  it('says unknown (insufficient information) for any IPv6 packet that would leave the node, from a pod or the host', async () => {
    const m = await loadBundle(withoutIpv6Routes());
    expect(walkContext(m).routes6).toEqual([]);
    fc.assert(
      fc.property(global, fc.constantFrom(POD, HOST), fc.constantFrom('tcp' as const, 'udp' as const, 'icmp' as const), (dst, src, proto) => {
        const w = walkFlow(m, { srcIp: src, dstIp: dst, proto, ...(proto === 'icmp' ? {} : { dstPort: 443 }) }, { reply: true });
        expect(w.verdict, dst).toBe('unknown');
        expect(w.reason).toMatch(/routes\.txt lists no IPv6 route .*insufficient information/);
        const h = w.hops[w.deciding]!;
        expect(h).toMatchObject({ at: 'host routing', kind: 'host-route', inferred: true });
        expect(h.effect?.kind).not.toBe('drop');
        // Not let through: no reply is claimed.
        expect(w.reply?.verdict ?? 'none').not.toBe('delivered');
      }),
      { numRuns: 40 },
    );
  });

  it('still decides what stays on the node, and the IPv4 side is untouched', async () => {
    const m = await loadBundle(withoutIpv6Routes());
    expect(walkFlow(m, { srcIp: POD, dstIp: 'fd00:10:244:5::b', dstPort: 8080, proto: 'tcp' }).verdict).toBe('delivered');
    expect(walkFlow(m, { srcIp: '10.244.5.10', dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' }).verdict).toBe('forwarded');
  });

  it('with IPv6 routes, a destination none covers is still dropped by host routing', async () => {
    const base = await loadBundle(DUALSTACK);
    // Only the pod subnet's route left: the table is there, the internet is not in it.
    const pod = base.routes!.ipv6Active.find((r) => r.destination !== '::/0' && /^fd00/i.test(r.destination));
    expect(pod).toBeDefined();
    const m = withOnlyRoute6(base, pod!.destination);
    fc.assert(
      fc.property(global, (dst) => {
        const w = walkFlow(m, { srcIp: POD, dstIp: dst, dstPort: 443, proto: 'tcp' });
        expect(w.verdict, dst).toBe('dropped');
        expect(w.hops[w.deciding]?.effect).toEqual({ kind: 'drop', why: 'no-route' });
      }),
      { numRuns: 20 },
    );
  });
});
