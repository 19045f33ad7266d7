// Whether a pasted text comes from another node than the open one, from what the text is read as: the
// host name ipconfig printed, the subnets of the HNS networks, the addresses of the local endpoints.
// Claimed only on explicit evidence (a different host name; subnets or addresses that none of the
// node's subnets covers); anything less says nothing, and the paste dialog keeps "Add to this node".
import type { ParsedFile } from '../../parsers/bundle/parsed-file.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import type { Compartment } from '../../parsers/ipconfig/types.ts';
import { parseCidr, maskToPrefix, ipv4ToInt, isApipa } from '../../parsers/net/ip.ts';

export interface Identity {
  hostNames: string[];
  /** IPv4 subnets in CIDR form. */
  subnets: string[];
  /** IPv4 addresses of local endpoints. */
  addresses: string[];
}

/** Why the paste looks like another node's, in words for the dialog. */
export interface OtherNode {
  hostName?: string;
  subnet?: string;
  address?: string;
  /** "host win-b (the open node is win-a)". */
  why: string;
}

const short = (h: string) => h.trim().toLowerCase().split('.')[0];

function ipconfigFacts(comps: readonly Compartment[], into: Identity): void {
  for (const c of comps) {
    if (c.hostName?.trim()) into.hostNames.push(c.hostName.trim());
    for (const a of c.adapters) {
      for (const v of a.ipv4) {
        if (isApipa(v.address) || v.address.startsWith('127.')) continue;
        const len = v.prefixLength ?? (v.mask ? maskToPrefix(v.mask) : null);
        if (len !== null && len !== undefined && len > 0 && len < 32) into.subnets.push(`${v.address}/${len}`);
      }
    }
  }
}

/** What a pasted text says about the node it came from. */
export function pasteIdentity(p: ParsedFile): Identity {
  const id: Identity = { hostNames: [], subnets: [], addresses: [] };
  const c = p.content;
  if (c.type === 'ip') ipconfigFacts(c.value.compartments, id);
  else if (c.type === 'hns') {
    for (const n of c.value.networks) for (const s of n.subnets) id.subnets.push(s.prefix);
    for (const e of c.value.endpoints) if (!e.isRemote && e.ip) id.addresses.push(e.ip);
  }
  return id;
}

/** What the open node's model says about itself. */
export function nodeIdentity(m: NodeModel): Identity {
  const id: Identity = { hostNames: m.meta.hostName ? [m.meta.hostName] : [], subnets: [], addresses: [] };
  for (const n of m.networks ?? []) for (const s of n.subnets) id.subnets.push(s.prefix);
  if (m.ip) ipconfigFacts(m.ip.compartments, id);
  return id;
}

interface Range {
  lo: number;
  hi: number;
  text: string;
}

function range(cidr: string): Range | undefined {
  const c = parseCidr(cidr);
  if (!c || c.family !== 'ipv4' || c.network === undefined) return undefined;
  const size = 2 ** (32 - c.prefixLength);
  const lo = Math.floor(c.network / size) * size;
  return { lo, hi: lo + size - 1, text: `${c.address}/${c.prefixLength}` };
}

const overlaps = (a: Range, b: Range) => a.lo <= b.hi && b.lo <= a.hi;

/** The paste looks like another node's: why, or undefined when nothing says so. */
export function otherNode(paste: Identity, node: Identity): OtherNode | undefined {
  const ph = [...new Set(paste.hostNames.map(short))];
  const nh = new Set(node.hostNames.map(short));
  const host = paste.hostNames[0]?.trim();
  const nodeHost = node.hostNames[0];
  if (ph.length && nh.size && host !== undefined && nodeHost !== undefined) {
    if (ph.some((h) => nh.has(h))) return undefined;
    return { hostName: host, why: `host ${host} (the open node is ${nodeHost})` };
  }
  const mine = node.subnets.map(range).filter((r): r is Range => !!r);
  if (!mine.length) return undefined;
  const theirs = paste.subnets.map(range).filter((r): r is Range => !!r);
  const [t0] = theirs;
  if (t0) {
    if (theirs.some((t) => mine.some((r) => overlaps(t, r)))) return undefined;
    return { subnet: t0.text, why: `subnet ${t0.text} (the open node's: ${mine.map((r) => r.text).slice(0, 3).join(', ')})` };
  }
  const addrs = paste.addresses.filter((a) => ipv4ToInt(a) !== null);
  if (!addrs.length) return undefined;
  const inside = (a: string) => mine.some((r) => ipv4ToInt(a)! >= r.lo && ipv4ToInt(a)! <= r.hi);
  if (addrs.some(inside)) return undefined;
  return { address: addrs[0], why: `address ${addrs[0]}${addrs.length > 1 ? ` and ${addrs.length - 1} more` : ''}, in none of the open node's subnets (${mine.map((r) => r.text).slice(0, 3).join(', ')})` };
}

