// Issue #25 point 7: a node's NodePort rules all name the node's own address, so one destination of a
// pod port's load-balancing group holds hundreds of rules (465 on the big generated node). The walk's
// rule index splits such a list again by the one destination port a rule requires (walk/match.ts
// `candidatesByPort`, held against a declarative oracle in test/unit/walk/rule-index.test.ts), and the
// layer cuts read only the rules of it that can cut a cell (reach/layer-cuts.ts). Here, on generated
// nodes with enough Services that a list is split: the node really has such a list (else this test
// proves nothing), and the classes are exactly those of every atomic cell walked (reachFromCells, the
// oracle the partition is tested against, which reads no layer cut), with the same outcomes.
import { describe, expect, it } from 'vitest';
import { reachFrom, reachFromCells, defaultSources, type ReachClass } from '../../../analysis/reach/index.ts';
import { compiledGroup } from '../../../analysis/walk/match.ts';
import { intToIp } from '../../../analysis/walk/ip.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { buildPlatform } from '../platforms/helpers.ts';

const sig = (cs: ReachClass[]) => cs.map((c) => `${c.proto} ${c.dst.join('-')} ${c.ports?.join('-') ?? ''} ${c.verdict} ${c.key}`);

/** The longest list of rules one destination address has in a group, and how many lists are split by port. */
function lists(m: NodeModel): { longest: number; split: number; keys: Set<string> } {
  let longest = 0;
  let split = 0;
  const keys = new Set<string>();
  for (const p of m.ports ?? [])
    for (const l of m.vfp?.getPolicy(p.key)?.layers ?? [])
      for (const g of l.groups) {
        const c = compiledGroup(g);
        split += c.byDstPort.size;
        for (const k of c.byDstPort.keys()) if (typeof k === 'number') keys.add(intToIp(k));
        for (const v of c.byDst.values()) longest = Math.max(longest, v.length);
      }
  return { longest, split, keys };
}

describe('a destination with many rules (NodePorts on the node address)', () => {
  for (const platform of ['flannel-host-gw', 'azure-cni'] as const) {
    it(`${platform}, 150 Services: split by port, and the classes equal every atomic cell walked`, () => {
      const { model } = buildPlatform(platform, { pods: 3, services: 150, remoteNodes: 1 });
      const { longest, split, keys } = lists(model);
      expect(longest).toBeGreaterThan(8);
      expect(split).toBeGreaterThan(0);
      const src = defaultSources(model)[0]!;
      const fast = reachFrom(model, src.ip);
      const oracle = reachFromCells(model, src.ip);
      expect(sig(fast.classes)).toEqual(sig(oracle.classes));
      // The address of a split list (the node's) is cut into its rules' ports: one-port classes there.
      expect(fast.classes.some((c) => keys.has(c.dst[0]) && c.dst[0] === c.dst[1] && c.ports !== null && c.ports[0] === c.ports[1])).toBe(true);
    }, 600_000);
  }
});
