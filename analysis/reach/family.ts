// One address family as reach partitions it (issue #25; issue #24: one algorithm for both families).
// The partition, the layer cuts, the merge into classes and the matrix's sources and destinations are
// written once (partition.ts, layer-cuts.ts, classes.ts, sources.ts) over an address type `A`: IPv4 on
// `number` (uint32), IPv6 on `bigint` (128 bits; v6/addr6.ts says why not four words). What differs
// between the families is here, as data and small functions: reading and printing an address, the
// middle of an interval, the node's tables as cut points (boundaries.ts, v6/boundaries6.ts, with their
// special blocks), where a VFP group's address conditions cut, the key the walk's rule index uses, and
// where the family's pods, Services, remote pods, node and outside are.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { HnsEndpoint, HnsLoadBalancer } from '../../parsers/hns/index.ts';
import type { VfpGroup } from '../../parsers/vfp/index.ts';
import type { WalkContext } from '../walk/context.ts';
import type { K8sNames } from '../k8s/index.ts';
import type { Interval } from './intervals.ts';
import type { Endpoint } from './reach-types.ts';

/** What the partition reads of the node's tables (outside VFP), for one family. */
export interface FamilyBoundaries<A extends number | bigint> {
  /** Destination address atoms. */
  ipAtoms: Interval<A>[];
  /** Port atoms per protocol for one address atom. */
  portAtoms(atom: number, proto: 'tcp' | 'udp'): Interval[];
}

export interface AddrFamily<A extends number | bigint> {
  /** `IPv4` or `IPv6`, as the output names the header space. */
  readonly name: 'IPv4' | 'IPv6';
  /** The other family's name. */
  readonly other: 'IPv4' | 'IPv6';
  readonly max: A;
  /** The address a text spells in this family; undefined when it is not one. */
  parse(ip: string | undefined): A | undefined;
  /** The text of an address (dotted quad; RFC 5952). */
  print(a: A): string;
  /** The typical value of an interval: its middle. */
  middle(i: Interval<A>): A;
  /** Whether a packet field the walk printed is the example's own address `ex` (as the partition printed it). */
  same(field: string | undefined, ex: string): boolean;
  /** The node's tables as cut points (computed once per model). */
  hnsBoundaries(m: NodeModel): FamilyBoundaries<A>;
  /** A VFP group of this family (`Type : IPv4`/`IPv6`: the walk takes only the packet's family's groups). */
  isGroup(g: VfpGroup): boolean;
  /** Sorted piece starts (lo and hi + 1) of every address condition of a group and its rules. */
  groupBounds(g: VfpGroup): ArrayLike<A>;
  /** The key of an address in the walk's rule index (walk/match.ts `compiledGroup` byDst). */
  indexKey(a: A): number | string;
  /** The same key from a packet field's text. */
  indexKeyOf(ip: string | undefined): number | string | undefined;
  /** What the bundle lacks to partition this family (said in the partition's `limitations`). */
  notes(m: NodeModel): string[];

  // The matrix's sources and default destinations of this family (sources.ts).
  /** A local or remote endpoint's address in this family. */
  addressOf(e: HnsEndpoint): string | undefined;
  /** The node's own address in this family. */
  nodeIp(ctx: WalkContext): string | undefined;
  /** The load balancers whose backends' target ports stand for a pod of this family. */
  podServices(m: NodeModel): HnsLoadBalancer[];
  /** "" or "IPv6 ": how a Service of this family is named in the text. */
  readonly serviceWord: string;
  /** One destination per remote pod (subnet) of this family. */
  remoteDestinations(m: NodeModel, names: K8sNames): Endpoint[];
  /** An address outside the cluster (example.com's). */
  readonly outside: string;
}
