// The exhaustive partition, kept as the oracle of `reachFrom` (test/unit/reach/split.test.ts): every
// atomic cell of every boundary of the node (every port's VFP rules included) is walked, and adjacent
// cells with the same outcome merge. Correct by construction and slow (cells × the walk); `reachFrom`
// must give the same classes with their outcomes. IPv4 (the IPv6 partition is checked against every
// IPv6 rule's corners instead: test/unit/reach/assert-partition-v6.ts).
import type { NodeModel } from '../../parsers/model/types.ts';
import type { Flow, Proto } from '../walk/types.ts';
import { walkFlow } from '../walk/engine.ts';
import { boundaries } from './boundaries.ts';
import { middle } from './intervals.ts';
import { IPV4 } from './family-v4.ts';
import { outcomeOf } from './outcome.ts';
import { ClassMerger, pushSeg, type ReachClass, type Seg } from './classes.ts';
import type { ReachFrom, ReachOptions } from './partition.ts';

export function reachFromCells(m: NodeModel, srcIp: string, o: ReachOptions = {}): Pick<ReachFrom, 'classes' | 'cells' | 'walks'> {
  const b = boundaries(m);
  let walks = 0;
  const walkOne = o.walk ?? ((f: Flow) => walkFlow(m, f, { reply: true }));
  const counted = (f: Flow) => {
    walks++;
    return walkOne(f);
  };
  const classes: ReachClass[] = [];
  let cells = 0;
  for (const proto of o.protos ?? ['tcp', 'udp', 'icmp']) {
    const merger = new ClassMerger(IPV4.print, proto, classes);
    b.ipAtoms.forEach((atom, i) => {
      const dstIp = IPV4.print(IPV4.middle(atom));
      const segs: Seg[] = [];
      const portAtoms = proto === 'icmp' ? [null] : b.portAtoms(i, proto);
      for (const pa of portAtoms) {
        cells++;
        const example: Flow = { srcIp, dstIp, proto: proto as Proto, ...(pa ? { dstPort: middle(pa) } : {}) };
        pushSeg(segs, pa, example, outcomeOf(m, example, counted).outcome);
      }
      merger.add(atom.lo, atom.hi, segs, portAtoms.length);
    });
    merger.flush();
  }
  return { classes, cells, walks };
}
