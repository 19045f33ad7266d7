// How many more pods' SNAT pools fit in the host's free dynamic ports (issue #26 point 6), with the
// arithmetic spelled out. A pod whose HNS endpoint has an OutBoundNAT policy is source-NATed by its
// VFP port's dynnat rule, which hands out the addresses and ports its port's `/list-nat-range` lists
// (dumpVfpPolicies.ps1 collects it for every port; parsers/vfp/port-tables.ts reads it). Those pools
// are carved out of the host's dynamic port range, which is why they show as excluded ranges in
// excludedportrange.txt (see port-capacity.ts).
// Inferred, not sourced: that each new pod takes as many 64-port blocks as the largest pool held now
// (64 is the block collectlogs' PortReservationTest.ps1 reserves, not a documented HNS chunk), and
// that the pools come from the TCP range. No published sample of `/list-nat-range` or of
// hnsportpoolallocs.txt shows the pool layout, so the forecast says "inferred" in its text.
import type { CheckContext } from './context.ts';
import { plural } from '../../parsers/text/quantities.ts';
import { natRangesOf } from '../../parsers/vfp/index.ts';
import type { FindingEvidence } from '../findings/types.ts';

export const BLOCK = 64;

export interface SnatForecast {
  /** The sentence for people: the forecast with its arithmetic, or what is missing. */
  text: string;
  /** Pods that fit (undefined when not forecast). */
  fit?: number;
  evidence: FindingEvidence[];
}

/** The forecast for `freeBlocks` whole 64-port blocks left in the TCP dynamic range; undefined when no local pod is source-NATed. */
export function snatForecast(ctx: CheckContext, freeBlocks: number): SnatForecast | undefined {
  const natted = ctx.localPods.filter((e) => e.policies.some((p) => p.type.toLowerCase() === 'outboundnat'));
  if (!natted.length) return undefined;
  if (!ctx.m.vfp) return { text: `${natted.length === 1 ? '1 pod here is' : `${natted.length} pods here are`} source-NATed (OutBoundNAT); how many ports each holds: insufficient information: needs the VFP dump with each pod port's NAT ranges (vfpctrl /port <port> /list-nat-range).`, evidence: [] };
  const held: { name: string; ports: number; file: string; line: number }[] = [];
  for (const e of natted) {
    const ref = ctx.portOf(e);
    // Its sections only: parsing every NATed pod's rules to read a few lines took minutes on a node
    // of 250 ports × 4,000 rules (parsers/vfp/port-tail.ts).
    const pol = ref && ctx.sections(ref);
    if (!pol) continue;
    const ports = natRangesOf(pol).reduce((s, r) => s + (r.portLo !== undefined && r.portHi !== undefined && r.portHi >= r.portLo ? r.portHi - r.portLo + 1 : 0), 0);
    if (ports > 0) held.push({ name: e.name ?? e.ip ?? e.id, ports, file: pol.src.file, line: pol.src.line });
  }
  if (!held.length) return { text: `${natted.length === 1 ? '1 pod here is' : `${natted.length} pods here are`} source-NATed (OutBoundNAT), but no pod port lists a NAT range with ports: how many ports each holds, and so how many more pods fit: insufficient information: needs each pod port's NAT ranges (vfpctrl /port <port> /list-nat-range).`, evidence: [] };
  const total = held.reduce((s, h) => s + h.ports, 0);
  const most = held.reduce((m, h) => Math.max(m, h.ports), 0);
  const perPod = Math.ceil(most / BLOCK);
  const fit = Math.floor(freeBlocks / perPod);
  return {
    fit,
    text: `SNAT per pod: ${plural(held.length, 'pod port')} hold ${total} NAT ports in all (the most, ${most} ports, is ${plural(perPod, 'block')} of ${BLOCK}); ${plural(freeBlocks, 'free block')} ÷ ${plural(perPod, 'block')} per pod = ${fit === 1 ? '1 more pod fits' : `${fit} more pods fit`} (inferred: each new pod takes what the largest pool here holds, in ${BLOCK}-port blocks).`,
    evidence: held.slice(0, 3).map((h) => ({ file: h.file, line: h.line, text: `NAT ranges of ${h.name}: ${h.ports} ports` })),
  };
}
