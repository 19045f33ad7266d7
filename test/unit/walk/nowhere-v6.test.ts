// IPv6 destinations nothing answers, decided before the route table (analysis/walk/engine/nowhere.ts):
// the unspecified address ::/128 is dropped (RFC 4291 §2.5.2), a link-local fe80::/10 address is unknown
// (RFC 4291 §2.5.6: never forwarded off the link, and the bundle lists no endpoint's link-local
// address), and a free address of the node's own IPv6 pod subnet on a plugin whose pod subnet is one
// node's own (flannel here) is unknown as its IPv4 twin is. Before, all three left by the host's IPv6
// routes as "forwarded" (found by the IPv6 reach work, 2026-11-29).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadBundle } from '../../../services/bundle/load.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import { hexToIpv6 } from '../../../parsers/net/ip.ts';
import { DUALSTACK } from '../reach/models-v6.ts';

const POD = 'fd00:10:244:5::a';
const hex = (n: bigint) => hexToIpv6(n.toString(16).padStart(32, '0'));

describe('IPv6 destinations nothing beyond the node answers', () => {
  it('drops the unspecified address, and says unknown for link-local and a free address of the pod subnet', async () => {
    const m = await loadBundle(DUALSTACK);
    const ctx = walkContext(m);
    expect(ctx.local.has(POD)).toBe(true);

    const zero = walkFlow(m, { srcIp: POD, dstIp: '::', dstPort: 80, proto: 'tcp' }, { reply: true });
    expect(zero.verdict).toBe('dropped');
    expect(zero.reason).toMatch(/unspecified address/);
    expect(zero.reply?.verdict).not.toBe('delivered');

    // Any address of fe80::/10, any spelling.
    fc.assert(fc.property(fc.bigInt({ min: 0xfe80n << 112n, max: (0xfec0n << 112n) - 1n }), (n) => {
      const w = walkFlow(m, { srcIp: POD, dstIp: hex(n), dstPort: 443, proto: 'tcp' }, { reply: true });
      expect(w.verdict).toBe('unknown');
      expect(w.reason).toMatch(/link-local address/);
      expect(w.reply?.verdict).not.toBe('delivered');
    }), { numRuns: 30 });
    for (const spelling of ['fe80::1', 'FE80:0:0:0:0:0:0:1', 'febf:ffff::1']) expect(walkFlow(m, { srcIp: POD, dstIp: spelling, proto: 'icmp' }).verdict, spelling).toBe('unknown');

    // A free address of the pod's own IPv6 subnet, written two ways: nobody holds it.
    for (const free of ['fd00:10:244:5::c', 'FD00:10:244:5:0:0:0:C']) {
      const w = walkFlow(m, { srcIp: POD, dstIp: free, dstPort: 80, proto: 'tcp' }, { reply: true });
      expect(w.verdict, free).toBe('unknown');
      expect(w.reason).toMatch(/no endpoint holds .* own pod subnet fd00:10:244:5::\/64/);
    }
  });

  it('leaves addresses outside those blocks to the route table', async () => {
    const m = await loadBundle(DUALSTACK);
    const ctx = walkContext(m);
    // Another local pod's IPv6 address is still delivered; fec0:: (just past fe80::/10) is not link-local.
    const other = [...ctx.local.keys()].find((ip) => ip.includes(':') && ip !== POD && ip.startsWith('fd00:10:244:5:'));
    expect(other).toBeDefined();
    expect(walkFlow(m, { srcIp: POD, dstIp: other!, dstPort: 80, proto: 'tcp' }).verdict).toBe('delivered');
    const past = walkFlow(m, { srcIp: POD, dstIp: 'fec0::1', dstPort: 80, proto: 'tcp' });
    expect(past.reason ?? '').not.toMatch(/link-local/);
  });
});
