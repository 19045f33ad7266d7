// The partition property of issue #25 point 6: a source's classes tile the header space.
import { expect } from 'vitest';
import type { ReachFrom, ReachProto } from '../../../analysis/reach/index.ts';
import { intToIp, ipToInt } from '../../../analysis/walk/ip.ts';

/** Per protocol, the classes tile [0, 2^32) × ports with no gap and no overlap. */
export function assertPartition(r: ReachFrom): void {
  for (const proto of ['tcp', 'udp', 'icmp'] as ReachProto[]) {
    const cs = r.classes.filter((c) => c.proto === proto);
    let at = 0;
    let i = 0;
    while (i < cs.length) {
      const lo = ipToInt(cs[i].dst[0])!;
      const hi = ipToInt(cs[i].dst[1])!;
      expect(lo, `${proto} gap or overlap at ${intToIp(at)}`).toBe(at);
      // The classes of one address range split its ports 1–65535 (ICMP: one class, no port).
      let port = 1;
      while (i < cs.length && ipToInt(cs[i].dst[0]) === lo) {
        expect(ipToInt(cs[i].dst[1])).toBe(hi);
        if (proto === 'icmp') expect(cs[i].ports).toBeNull();
        else {
          expect(cs[i].ports![0], `${proto} ${cs[i].dst.join('-')} port gap`).toBe(port);
          port = cs[i].ports![1] + 1;
        }
        i++;
      }
      if (proto !== 'icmp') expect(port).toBe(65536);
      at = hi + 1;
    }
    expect(at).toBe(2 ** 32);
  }
}

