// What a packet walk says: every hop with the rule that decided it, the rewrite it made and the line
// of the bundle it came from; a verdict with its reason. JSON-serialisable (CLI --json, the UI, reports).
import type { SourceRef } from '../../parsers/types.ts';

export type Proto = 'tcp' | 'udp' | 'icmp';

export interface Flow {
  /** IPv4 or IPv6 (both ends of one family); `icmp` on IPv6 means ICMPv6. */
  srcIp: string;
  dstIp: string;
  dstPort?: number;
  /** Defaults to an ephemeral port (49152) for TCP/UDP; said in the first hop. */
  srcPort?: number;
  proto: Proto;
  /** Force the backend a load balancer picks (a DIP IP); otherwise a per-flow hash picks one. */
  dip?: string;
}

export interface Encap {
  type: string;
  srcIp?: string;
  dstIp: string;
  vni?: number;
  dstMac?: string;
}

export interface Packet {
  srcIp: string;
  dstIp: string;
  srcPort?: number;
  dstPort?: number;
  proto: Proto;
  srcMac?: string;
  dstMac?: string;
  encap?: Encap;
  /**
   * Direct server return: the backend the frame is sent to while the IP destination stays the VIP
   * (an lbnat rule whose data fixes the MAC but does not say "Modifying destination IP").
   */
  l2Dst?: string;
  /** A paroute rule matched: the outer packet is routed by the host, pinned to this interface when the rule says so. */
  paRoute?: { rule: string; ifIndex?: number; compartment?: string };
}

export interface Rewrite {
  srcIp?: string;
  dstIp?: string;
  srcPort?: number;
  dstPort?: number;
  srcMac?: string;
  dstMac?: string;
  encap?: { type: string; dstIp: string; vni?: number };
}

/** A rule passed over on the way to the one that matched, and why (the walkthrough shows a few). */
export interface SkippedRule {
  rule: string;
  priority?: number;
  why: string;
  src: SourceRef;
}

/** One condition of the rule that matched, against the packet's value (`destination IP 8.8.8.8 ∈ 0.0.0.0-255.255.255.255`). */
export interface MatchedCondition {
  /** What the condition looks at: 'destination IP', 'protocol', 'source port', … (the printed key when not modelled). */
  field: string;
  /** The packet's value when the rule was met. */
  value: string;
  /** The condition as the bundle prints it. */
  condition: string;
  /** 'unknown': the condition could not be evaluated, so the match is an inference. */
  result: 'match' | 'unknown';
}

export type HopKind = 'source' | 'compartment' | 'vfp' | 'layer-default' | 'vswitch' | 'host-route' | 'uplink' | 'deliver' | 'drop' | 'note';

/**
 * What a hop did, typed: the walk's decisions branch on this, never on the hop's display text
 * (`action`). A new rule type gives its hops one of these kinds (analysis/walk/README.md, "add a VFP
 * rule type's semantics").
 */
export type HopEffect =
  /** A rule let the packet through unchanged (allow). */
  | { kind: 'allow' }
  /** A rule dropped it (block). */
  | { kind: 'block' }
  /** Passed without a rule deciding: a layer's default, a layer that only rewrites, a counting rule, a step with no rule. */
  | { kind: 'pass' }
  /** Load balancing to a backend: `dnat` rewrites the destination, `dsr` keeps the VIP and sends the frame to the backend; `hns` when HNS's load balancer (not a VFP rule) did it. */
  | { kind: 'lb'; mode: 'dnat' | 'dsr' | 'unknown'; backend?: string; by: 'vfp' | 'hns'; nodePort?: boolean }
  /** Address translation: which side it rewrote (`none`: nothing could be rewritten, e.g. its target is unknown). */
  | { kind: 'nat'; side: 'source' | 'destination' | 'both' | 'none' }
  | { kind: 'encap'; dstIp?: string }
  | { kind: 'decap' }
  /** Explicit header rewrite (transposition `Modify:`, MAC rewrites). */
  | { kind: 'rewrite' }
  /** Provider-address routing by the host (paroute), or the host's route table. */
  | { kind: 'route' }
  /** An address-rewriting rule met by ICMP: VFP does not transpose it; `would` is what the rule does to TCP/UDP. */
  | { kind: 'icmp-untransposed'; would: 'lb' | 'nat' }
  /** Reply walks: the flow the request left applied (with or without a reverse rewrite). */
  | { kind: 'flow'; reverse: boolean }
  /** The walk stopped here for a reason that is no rule: `why` says which. */
  | { kind: 'drop'; why: 'layer-default' | 'blocked-port' | 'no-vnic' | 'no-route' | 'no-encap' | 'no-lb' | 'stale-backend' | 'not-decapsulated' | 'not-addressed' | 'limitation' }
  /** The rule's effect is not modelled. */
  | { kind: 'unknown' };

export interface WalkHop {
  /** Where the packet is, in words a Windows engineer uses. */
  at: string;
  kind: HopKind;
  /** VFP port name when the hop is on a port. */
  port?: string;
  direction?: 'IN' | 'OUT';
  layer?: string;
  group?: string;
  rule?: string;
  ruleType?: string;
  priority?: number;
  /** allow, block, DNAT, SNAT, encap, MAC rewrite, no-match, route, deliver, … (display text: decide on `effect`). */
  action: string;
  /** What the hop did, typed (set on every hop whose effect a later step or the findings join looks at). */
  effect?: HopEffect;
  rewrite?: Rewrite;
  evidence?: SourceRef;
  /** The bundle does not state this; the engine assumed it (the reason is in `note`). */
  inferred?: boolean;
  note?: string;
  before?: Packet;
  after?: Packet;
  skipped?: SkippedRule[];
  /**
   * Why the rule matched: each of its conditions (then its group's, marked "(group)") against the
   * packet. Set on every hop of a matched rule; empty when the rule has no condition (matches everything).
   */
  matchedBecause?: MatchedCondition[];
  /** Other backends a load balancer could have picked. */
  alternatives?: string[];
  /** Topology node ids this hop lights up. */
  nodes?: string[];
  /** The matched rule keeps flow state (stateful flag, or "Creating a flow pair"): replies are translated back. */
  stateful?: boolean;
  /**
   * The rule's effect is not modelled (an unknown type whose data says nothing the engine understands, an
   * encap destination the bundle does not resolve, …): the reason. The walk's verdict depends on it.
   */
  unmodelled?: string;
  /** Another rule of the same priority also matches: which one a real node applies is undefined. */
  ambiguous?: string;
  /** A non-terminating match that a later group of the same layer overrode (VFP applies the last group's match). */
  superseded?: boolean;
  /** Reply walks: the layer let the packet through by the flow state the request created, not by a rule. */
  flow?: boolean;
}

export type CaveatKind =
  | 'unmodelled'
  | 'ambiguous'
  | 'icmp'
  | 'stateless-rewrite'
  | 'black-hole'
  | 'reply-mismatch'
  | 'no-return'
  | 'limitation';

/** Something the reader must know about the verdict, with the source that says why. */
export interface WalkCaveat {
  kind: CaveatKind;
  text: string;
  /** The hop it concerns. */
  hop?: number;
  /** Where the behaviour is documented (a URL or document section), when it is not the bundle itself. */
  source?: string;
}

/** The reply of a delivered or forwarded flow, as far as the rules on the way make it visible. */
export interface ReturnPath {
  /** What the peer sends back. */
  sent: { srcIp: string; dstIp: string; srcPort?: number; dstPort?: number; proto: Proto };
  /** What the source receives once the node's flow state has undone the rewrites. */
  received: { srcIp: string; dstIp: string; srcPort?: number; dstPort?: number; proto: Proto };
  /** The rewrites undone for the reply, last first, each with the rule whose flow state does it. */
  steps: { hop: number; rule?: string; layer?: string; what: string; stateful: boolean; evidence?: SourceRef }[];
  /** Replies the rules do not translate back (a rewriting rule without flow state), or other caveats. */
  notes: string[];
}

export type Verdict = 'delivered' | 'forwarded' | 'dropped' | 'unknown';

/**
 * A finding that concerns this walk (analysis/walk/findings-on-path.ts): a check's finding about an
 * object or rule on the path (`key` is its FindingView key), or what the walk itself sees on its path
 * (`key` is `walk:<id>#n`).
 */
export interface WalkFinding {
  key: string;
  id: string;
  severity: 'error' | 'warning' | 'info';
  title: string;
  /** 0-based index of the hop it concerns. */
  hop?: number;
  /** One sentence: how this finding bears on this packet. */
  why: string;
}

export interface WalkResult {
  flow: Flow;
  verdict: Verdict;
  reason: string;
  hops: WalkHop[];
  /** Index of the hop that decided the verdict. */
  deciding: number;
  final: { srcIp: string; dstIp: string; srcPort?: number; dstPort?: number; proto: Proto };
  egress: { nextHop?: string; interface?: string; encapDst?: string };
  /** Topology node ids along the path, in order. */
  path: string[];
  /** The reply, for delivered and forwarded flows (none when no answer comes back: an untransposed ICMP echo). */
  returnPath?: ReturnPath;
  /** 'reply' for the walk of a reply (`trace --reply`, walkReply); absent or 'forward' otherwise. */
  kind?: 'forward' | 'reply';
  // The three fields below are always set by the engine; optional only so results built elsewhere stay valid.
  /** The verdict depends on a hop whose effect is not modelled (see the hops' `unmodelled`): show it beside the verdict. */
  dependsOnUnmodelled?: boolean;
  /** At least one hop is an inference (hops with `inferred`), not read from the bundle. */
  inferred?: boolean;
  /** What the reader must know about this verdict (ambiguous rules, ICMP limits, stale backends, …). */
  caveats?: WalkCaveat[];
  /**
   * The findings on the path, joined by the caller (`withPathFindings`): walkFlow itself runs no check.
   * Absent when nobody joined them; an empty list when none concerns this walk.
   */
  findings?: WalkFinding[];
  /**
   * The worst error or warning on the path, as the clause the verdict carries: "delivered, but <text>"
   * (for a dropped or unknown walk: "dropped, and <text>"). The verdict itself stays what the rules say.
   */
  verdictCaveat?: { severity: 'error' | 'warning'; text: string };
  /** The reply walked as a packet of its own, when asked for (`walkFlow(…, { reply: true })`). */
  reply?: WalkResult;
  /** Kubernetes names of the walk's addresses (address → words), joined by the caller from the kubectl snapshot (analysis/k8s/name-walk.ts). */
  names?: Record<string, string>;
}
