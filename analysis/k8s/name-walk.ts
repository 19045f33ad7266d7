// Kubernetes names for the addresses of a packet walk, added after the walk (the engine names only
// the pods and Services it meets on this node's objects): a pod of another node that only the kubectl
// snapshot knows, the node behind a provider address or a next hop, a Service VIP, a node's pod CIDR.
// The walk's text (hop notes, the verdict's reason, the reply's notes, caveats) gets the name after the
// first mention of each address, and `names` lists every named address for views that show the
// addresses in their own way (the UI's hop rows, the report). Without a snapshot the walk is returned
// as it is.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { WalkHop, WalkResult } from '../walk/types.ts';
import { k8sNames, type K8sNames } from './names.ts';

/** A walk with the Kubernetes names of its addresses (`names`: address → words). */
export type NamedWalk = WalkResult;

/** An IPv4 address (optionally `:port` or `/prefix`) standing alone in text (a sentence's full stop may follow): not inside a rule name or a range. */
const ADDRESS = /(?<![\w.:/-])(\d{1,3}(?:\.\d{1,3}){3})(\/\d{1,2}|:\d{1,5})?(?![\w:/-]|\.\w)/g;

/** Adds `(name)` after the first mention of each named address in `text`, unless a name follows already. */
export function nameAddressesIn(text: string, label: (ip: string, prefix?: string) => string | undefined, seen = new Set<string>()): string {
  return text.replace(ADDRESS, (whole: string, ip: string, tail: string | undefined, at: number, all: string) => {
    const prefix = tail?.startsWith('/') ? `${ip}${tail}` : undefined;
    const key = prefix ?? ip;
    if (seen.has(key) || all.startsWith(' (', at + whole.length)) return whole;
    const name = label(ip, prefix);
    if (!name) return whole;
    seen.add(key);
    return `${whole} (${name})`;
  });
}

function addressesOf(w: WalkResult): string[] {
  const out = new Set<string>();
  const add = (ip: string | undefined) => {
    if (ip) out.add(ip);
  };
  const packet = (p: { srcIp?: string; dstIp?: string; encap?: { dstIp: string; srcIp?: string } } | undefined) => {
    add(p?.srcIp);
    add(p?.dstIp);
    add(p?.encap?.dstIp);
    add(p?.encap?.srcIp);
  };
  packet(w.flow);
  packet(w.final);
  add(w.flow.dip);
  add(w.egress.nextHop);
  add(w.egress.encapDst);
  for (const h of w.hops) {
    packet(h.before);
    packet(h.after);
    add(h.rewrite?.srcIp);
    add(h.rewrite?.dstIp);
    add(h.rewrite?.encap?.dstIp);
    for (const a of h.alternatives ?? []) add(/^[\d.]+/.exec(a)?.[0]);
  }
  if (w.returnPath) {
    packet(w.returnPath.sent);
    packet(w.returnPath.received);
  }
  return [...out];
}

function nameOne(w: WalkResult, names: K8sNames): NamedWalk {
  const label = (ip: string, prefix?: string) => (prefix ? names.cidrLabel(prefix) : names.addressLabel(ip));
  const found: Record<string, string> = {};
  for (const ip of addressesOf(w)) {
    const l = names.addressLabel(ip);
    if (l) found[ip] = l;
  }
  const text = (t: string | undefined) => (t === undefined ? t : nameAddressesIn(t, label));
  const hops: WalkHop[] = w.hops.map((h) => (h.note ? { ...h, note: text(h.note) } : h));
  const out: NamedWalk = {
    ...w,
    reason: text(w.reason) ?? w.reason,
    hops,
    ...(w.caveats ? { caveats: w.caveats.map((c) => ({ ...c, text: text(c.text) ?? c.text })) } : {}),
    ...(w.returnPath ? { returnPath: { ...w.returnPath, notes: w.returnPath.notes.map((n) => text(n) ?? n) } } : {}),
    ...(Object.keys(found).length ? { names: found } : {}),
  };
  if (w.reply) out.reply = nameOne(w.reply, names);
  return out;
}

/** The walk with the snapshot's names of its addresses; unchanged without a kubectl snapshot. */
export function withNames(m: NodeModel, w: WalkResult): NamedWalk {
  const names = k8sNames(m);
  if (!names.present) return w;
  return nameOne(w, names);
}
