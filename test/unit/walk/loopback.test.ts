// A pod or the host sending to its loopback address (127.0.0.0/8, ::1) never leaves its own network
// stack (RFC 1122 §3.2.1.3; RFC 4291 §2.5.3): the walk used to send it through the pod's VFP port and
// host routing and call it "forwarded". Found by the reachability analysis, which classes 127/8 apart.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';

const DEMO = path.resolve(import.meta.dirname, '../../../assets/demo/l2bridge-node');

describe('a packet to the loopback address', () => {
  it('is delivered to its own sender, pod or host, and its reply comes back the same way', async () => {
    const m = await loadBundle(DEMO);
    const pod = (m.endpoints ?? []).find((e) => !e.isRemote && e.ip && /\.3$/.test(e.ip))!;
    const host = '10.240.0.19';
    for (const src of [pod.ip!, host]) {
      const r = walkFlow(m, { srcIp: src, dstIp: '127.0.0.1', dstPort: 8080, proto: 'tcp' }, { reply: true });
      expect(r.verdict).toBe('delivered');
      expect(r.reason).toMatch(/itself: the loopback address never leaves its network stack/);
      expect(r.hops.some((h) => h.kind === 'vfp' || h.kind === 'uplink' || h.kind === 'host-route')).toBe(false);
      expect(r.reply?.verdict).toBe('delivered');
      expect(r.reply?.final.dstIp).toBe(src);
    }
  });

  it('an address of a pod that is not the loopback still goes through the port', async () => {
    const m = await loadBundle(DEMO);
    const pod = (m.endpoints ?? []).find((e) => !e.isRemote && e.ip && /\.3$/.test(e.ip))!;
    const r = walkFlow(m, { srcIp: pod.ip!, dstIp: '8.8.8.8', dstPort: 443, proto: 'tcp' });
    expect(r.hops.some((h) => h.kind === 'vfp')).toBe(true);
  });
});
