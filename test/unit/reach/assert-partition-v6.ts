// Issue #25 point 6 for IPv6: a source's classes tile [0, 2^128) × ports per protocol, and every class
// holds one outcome (its example, its edges and random packets inside it walk to it).
import { expect } from 'vitest';
import { classOf, type ReachFrom, type ReachProto } from '../../../analysis/reach/index.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { outcomeOf } from '../../../analysis/reach/outcome.ts';
import { bigToIp6, ip6ToBig } from '../../../analysis/reach/v6/addr6.ts';

const END = 1n << 128n;

/** Per protocol, the classes tile [0, 2^128) × ports with no gap and no overlap. */
export function assertPartition6(r: ReachFrom): void {
  for (const proto of ['tcp', 'udp', 'icmp'] as ReachProto[]) {
    const cs = r.classes.filter((c) => c.proto === proto);
    let at = 0n;
    let i = 0;
    while (i < cs.length) {
      const lo = ip6ToBig(cs[i]!.dst[0])!;
      const hi = ip6ToBig(cs[i]!.dst[1])!;
      expect(lo, `${proto} gap or overlap at ${bigToIp6(at)}`).toBe(at);
      expect(hi >= lo, `${proto} ${cs[i]!.dst.join('-')} is empty`).toBe(true);
      let port = 1;
      while (i < cs.length && ip6ToBig(cs[i]!.dst[0]) === lo) {
        expect(ip6ToBig(cs[i]!.dst[1])).toBe(hi);
        if (proto === 'icmp') expect(cs[i]!.ports).toBeNull();
        else {
          expect(cs[i]!.ports![0], `${proto} ${cs[i]!.dst.join('-')} port gap`).toBe(port);
          port = cs[i]!.ports![1] + 1;
        }
        i++;
      }
      if (proto !== 'icmp') expect(port).toBe(65536);
      at = hi + 1n;
    }
    expect(at, `${proto} does not reach the end of the IPv6 space`).toBe(END);
  }
}

/** The packets of a class a test walks: its example, both address edges × both port edges. */
export function edgesOf(c: ReachFrom['classes'][number]): { dstIp: string; dstPort?: number }[] {
  const ips = [...new Set([c.example.dstIp, c.dst[0], c.dst[1]])];
  const ports = c.ports ? [...new Set([c.example.dstPort!, c.ports[0], c.ports[1]])] : [undefined];
  return ips.flatMap((dstIp) => ports.map((dstPort) => ({ dstIp, ...(dstPort !== undefined ? { dstPort } : {}) })));
}

/** The first packet of a class (example or edge) whose walk's outcome is not the class's, or undefined. */
export function disagreement(m: NodeModel, srcIp: string, classes: ReachFrom['classes']): string | undefined {
  for (const c of classes)
    for (const p of edgesOf(c)) {
      const got = outcomeOf(m, { srcIp, dstIp: p.dstIp, proto: c.proto, ...(p.dstPort !== undefined ? { dstPort: p.dstPort } : {}) }).outcome;
      if (got.key !== c.key) return `${c.proto} [${p.dstIp}]:${p.dstPort ?? ''} in class ${c.dst.join('-')} ${c.ports ?? ''}: ${got.verdict}, the class says ${c.verdict}`;
    }
  return undefined;
}

/**
 * The corners of every IPv6 rule of every port (each end of its destination ranges × each end of its
 * destination port ranges, per protocol it names): a packet the classes' sampling would hardly hit, where
 * a missing cut shows. The first whose walk's outcome is not its class's, or undefined.
 */
export function cornerDisagreement(m: NodeModel, srcIp: string, r: ReachFrom): string | undefined {
  const seen = new Set<string>();
  for (const p of m.ports ?? []) {
    const policy = p.policy ? m.vfp?.getPolicy(p.key) : undefined;
    for (const l of policy?.layers ?? [])
      for (const g of l.groups) {
        if (!/6/.test(g.ipVersion)) continue;
        for (const rule of g.rules) {
          const conds = [...g.conditions, ...rule.conditions];
          const ips = conds.filter((c) => c.kind === 'dstIp').flatMap((c) => (c.ip6Ranges ?? []).flatMap((x) => [x.lo, x.hi]));
          const ports = conds.filter((c) => c.kind === 'dstPort').flatMap((c) => (c.ports ?? []).flatMap((x) => [x.lo, x.hi]));
          const named = conds.find((c) => c.kind === 'protocols')?.protocols;
          const protos = (['tcp', 'udp', 'icmp'] as const).filter((x) => !named || named.includes(x === 'tcp' ? 6 : x === 'udp' ? 17 : 58));
          for (const hex of ips)
            for (const proto of protos)
              for (const port of proto === 'icmp' || !ports.length ? [proto === 'icmp' ? undefined : 80] : ports) {
                const dstIp = bigToIp6(BigInt(`0x${hex}`));
                const k = `${dstIp}|${proto}|${port}`;
                if (seen.has(k)) continue;
                seen.add(k);
                const c = classOf(r, dstIp, proto, port);
                if (!c) return `${proto} [${dstIp}]:${port ?? ''} is in no class`;
                const got = outcomeOf(m, { srcIp, dstIp, proto, ...(port !== undefined ? { dstPort: port } : {}) }).outcome;
                if (got.key !== c.key) return `${proto} [${dstIp}]:${port ?? ''} (a corner of ${rule.name}) in class ${c.dst.join('-')} ${c.ports ?? ''}: ${got.verdict}, the class says ${c.verdict}`;
              }
        }
      }
  }
  return undefined;
}
