// Joins the nodes of a cluster by what they share. An address names a node only when one node claims
// it (every AKS node has the same `ext` 192.168.255.x address; that names nobody); a pod subnet is
// owned only by one node (Azure CNI's VNet pods share the node subnet: ownership comes from the local
// endpoints there). Every belief a node holds about another — a remote subnet's provider address, a
// host route's next hop, a remote endpoint, a Node object of the snapshot — becomes a join, resolved
// when an open bundle answers for it, kept with the reason when none does.
import type { NodeModel } from '../../parsers/model/types.ts';
import { canonIp, inCidr } from '../walk/ip.ts';
import type { NodeDigest } from './digest.ts';
import { partitionNodes, splitDuplicates } from './partition.ts';
import type { ClusterJoin, ClusterModel, ClusterNode, ServiceJoin } from './types.ts';

export interface ClusterInput {
  digest: NodeDigest;
  model?: NodeModel;
}

export interface BuildOptions {
  /** List every join (inspect --cluster). A fleet run only needs the lookups, not N² join records. */
  joins?: boolean;
}

/** The one element of a collection of exactly one, else undefined. */
const single = <T>(xs: Iterable<T>): T | undefined => {
  const all = [...xs];
  return all.length === 1 ? all[0] : undefined;
};

const prefixInside = (inner: string, outer: string): boolean => {
  const [ip = '', bits] = inner.split('/');
  const [, obits] = outer.split('/');
  return Number(bits) >= Number(obits) && inCidr(ip, outer);
};

/**
 * The nodes of the bundles, a second bundle of a host left out (`duplicates`), split into the clusters
 * they come from (`parts`, partition.ts): the checks compare the nodes of one part with each other only.
 */
export function buildClusterModel(inputs: ClusterInput[], opts: BuildOptions = {}): ClusterModel {
  const { kept, duplicates } = splitDuplicates(inputs);
  const model = buildOne(kept, opts);
  model.duplicates = duplicates;
  const index = new Map(model.nodes.map((n, i) => [n, i]));
  const p = partitionNodes(
    model.nodes.map((n) => n.digest),
    (ip) => {
      const n = model.nodeOfAddress(ip);
      return n ? index.get(n) : undefined;
    },
  );
  if (p.parts.length > 1) {
    model.parts = p.parts.map((ix) => buildOne(ix.flatMap((i) => kept[i] ?? []), opts));
    model.apart = p.apart;
    // A join resolves within its own cluster only (addresses repeat between clusters).
    if (opts.joins) model.joins = model.parts.flatMap((x) => x.joins);
  }
  return model;
}

function buildOne(inputs: ClusterInput[], opts: BuildOptions): ClusterModel {
  const taken = new Set<string>();
  const nodes: ClusterNode[] = inputs.map(({ digest, model }) => {
    let id = digest.id;
    for (let k = 2; taken.has(id.toLowerCase()); k++) id = `${digest.id} (${k})`;
    taken.add(id.toLowerCase());
    if (id !== digest.id) digest.id = id;
    return { id, bundle: digest.bundle, identity: digest.identity, digest, model };
  });

  // --- addresses -----------------------------------------------------------------------------------
  const claims = new Map<string, Set<ClusterNode>>();
  const claim = (ip: string | undefined, n: ClusterNode) => {
    const c = canonIp(ip);
    if (!c) return;
    let s = claims.get(c);
    if (!s) claims.set(c, (s = new Set()));
    s.add(n);
  };
  for (const n of nodes) for (const a of n.identity.addresses) claim(a, n);
  // The snapshot's Node object of a node adds the addresses Kubernetes knows it by (EKS names nodes
  // ip-…ec2.internal while Windows calls itself EC2AMAZ-…: the address is the join).
  const k8sByName = new Map<string, { name: string; addresses: string[]; podCidrs: string[]; os?: string }>();
  for (const n of nodes) for (const k of n.digest.k8sNodes) if (!k8sByName.has(k.name)) k8sByName.set(k.name, k);
  for (const n of nodes) {
    const k = n.identity.k8sNode ? k8sByName.get(n.identity.k8sNode) : undefined;
    for (const a of k?.addresses ?? []) if (canonIp(a)) claim(a, n);
  }
  const byAddress = new Map<string, ClusterNode>();
  const sharedAddresses: ClusterModel['sharedAddresses'] = [];
  for (const [a, s] of claims) {
    const owner = single(s);
    if (owner) byAddress.set(a, owner);
    else sharedAddresses.push({ address: a, nodes: [...s].map((x) => x.id) });
  }

  // --- pods and pod subnets ------------------------------------------------------------------------
  const podClaims = new Map<string, ClusterNode[]>();
  for (const n of nodes) for (const ip of n.digest.localPods) podClaims.set(ip, [...(podClaims.get(ip) ?? []), n]);
  const subnetClaims = new Map<string, Set<ClusterNode>>();
  for (const n of nodes) for (const s of n.identity.podSubnets) {
    let set = subnetClaims.get(s.prefix);
    if (!set) subnetClaims.set(s.prefix, (set = new Set()));
    set.add(n);
  }
  const ownedSubnets: { prefix: string; node: ClusterNode }[] = [];
  for (const [prefix, s] of subnetClaims) {
    const node = single(s);
    if (node) ownedSubnets.push({ prefix, node });
  }

  const nodeOfAddress = (ip: string) => byAddress.get(canonIp(ip) ?? ip);
  const nodeOfPod = (ip: string): ClusterNode | undefined => {
    const c = canonIp(ip) ?? ip;
    const local = podClaims.get(c);
    if (local?.length === 1) return local[0];
    if (local && local.length > 1) return undefined;
    return single(ownedSubnets.filter((o) => inCidr(c, o.prefix)))?.node;
  };
  const ownerOfSubnet = (prefix: string): ClusterNode | undefined => {
    const exact = subnetClaims.get(prefix);
    if (exact?.size === 1) return single(exact);
    if (exact && exact.size > 1) return undefined;
    // A subnet inside one a node owns (a Calico block of a node's pool), else the node whose pods are in it.
    const inside = single(ownedSubnets.filter((o) => prefixInside(prefix, o.prefix)));
    if (inside) return inside.node;
    const withPods = new Set<ClusterNode>();
    for (const [ip, ns] of podClaims) {
      const only = single(ns);
      if (only && inCidr(ip, prefix)) withPods.add(only);
    }
    return single(withPods);
  };
  const byId = (id: string) => nodes.find((n) => n.id === id);

  // --- services --------------------------------------------------------------------------------------
  const svc = new Map<string, ServiceJoin>();
  for (const n of nodes) {
    const seen = new Set<string>();
    for (const key of n.digest.lbs.keys) {
      if (seen.has(key)) continue;
      seen.add(key);
      let s = svc.get(key);
      if (!s) svc.set(key, (s = { key, label: key, nodes: [] }));
      s.nodes.push(n.id);
    }
  }

  const model: ClusterModel = {
    nodes,
    joins: [],
    services: [...svc.values()],
    sharedAddresses,
    nodeOfAddress,
    nodeOfPod,
    ownerOfSubnet,
    byId,
    parts: [],
    apart: [],
    duplicates: [],
  };
  model.parts = [model];
  if (opts.joins) model.joins = listJoins(model, k8sByName);
  return model;
}

const addrOf = (n: ClusterNode) => n.identity.providerAddress ?? n.identity.nodeIp ?? n.identity.addresses[0] ?? '?';

function listJoins(c: ClusterModel, k8sByName: Map<string, { name: string; addresses: string[]; podCidrs: string[]; os?: string }>): ClusterJoin[] {
  const out: ClusterJoin[] = [];
  for (const n of c.nodes) {
    const d = n.digest;
    for (const r of d.remoteSubnets) {
      const to = c.nodeOfAddress(r.pa);
      const owner = c.ownerOfSubnet(r.prefix);
      const what = `${r.prefix} → PA ${r.pa}${r.drMac ? ` (DR MAC ${r.drMac})` : ''}`;
      let note: string | undefined;
      if (!to) note = owner ? `no open bundle has address ${r.pa}; ${r.prefix} belongs to ${owner.id} (${addrOf(owner)})` : `no open bundle has address ${r.pa} (a node whose bundle is not open, or a Linux node)`;
      else if (owner && owner !== to) note = `${r.pa} is ${to.id}, but ${r.prefix} belongs to ${owner.id}`;
      else if (!owner) note = `${to.id} does not say it holds ${r.prefix}`;
      out.push({ kind: 'remote-subnet', from: n.id, to: to?.id, what, key: r.prefix, evidence: r.src, resolved: !!to && (!owner || owner === to), note });
    }
    for (const r of d.hostRoutes) {
      const to = c.nodeOfAddress(r.nextHop);
      const owner = c.ownerOfSubnet(r.prefix);
      if (!to && !owner) continue;
      let note: string | undefined;
      if (!to) note = `no open bundle has address ${r.nextHop}; ${r.prefix} belongs to ${owner!.id} (${addrOf(owner!)})`;
      else if (owner && owner !== to) note = `${r.nextHop} is ${to.id}, but ${r.prefix} belongs to ${owner.id}`;
      out.push({ kind: 'host-route', from: n.id, to: to?.id, what: `${r.prefix} via ${r.nextHop}`, key: r.prefix, evidence: r.src, resolved: !!to && (!owner || owner === to), note });
    }
    // Remote endpoints, one join per node they point at (a node has thousands).
    const groups = new Map<string, { to?: ClusterNode; owner?: ClusterNode; pa?: string; ips: string[]; src: ClusterJoin['evidence'] }>();
    for (const e of d.remoteEndpoints) {
      if (e.pa && n.identity.addresses.includes(e.pa)) continue; // the node's own (Calico_ep, source VIP)
      const owner = c.nodeOfPod(e.ip);
      const to = e.pa ? c.nodeOfAddress(e.pa) : owner;
      const key = `${e.pa ?? ''}|${to?.id ?? ''}|${owner?.id ?? ''}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { to, owner, pa: e.pa, ips: [], src: e.src }));
      g.ips.push(e.ip);
    }
    for (const g of groups.values()) {
      const list = `${g.ips.length} remote endpoint${g.ips.length > 1 ? 's' : ''} (${g.ips.slice(0, 3).join(', ')}${g.ips.length > 3 ? ', …' : ''})`;
      const wrong = g.owner && g.to !== g.owner ? g.owner : undefined;
      const note = wrong
        ? g.to
          ? `their provider address ${g.pa} is ${g.to.id}, but the pods live on ${wrong.id}`
          : `their provider address ${g.pa} is no open node, but the pods live on ${wrong.id} (${addrOf(wrong)})`
        : !g.to
          ? `no open bundle holds ${g.ips.length > 1 ? 'these addresses' : 'this address'} (a node whose bundle is not open, a Linux node, or an address outside the cluster)`
          : undefined;
      out.push({ kind: 'remote-endpoint', from: n.id, to: g.to?.id, what: `${list}${g.pa ? ` → PA ${g.pa}` : ''}`, key: g.pa ?? g.ips[0] ?? '', evidence: g.src, resolved: !!g.to && !wrong, note });
    }
  }
  // The snapshot's Node objects: one join per Node (the snapshots of a cluster are usually one).
  for (const [name, k] of k8sByName) {
    const to = c.nodes.find((n) => n.identity.k8sNode === name) ?? k.addresses.map((a) => c.nodeOfAddress(a)).find(Boolean);
    const from = c.nodes.find((n) => n.digest.k8sNodes.some((x) => x.name === name))!;
    const windows = k.os === 'windows';
    if (!to && !windows) continue;
    out.push({
      kind: 'k8s-node',
      from: from.id,
      to: to?.id,
      what: `Node ${name} (${k.addresses.filter((a) => canonIp(a)).join(', ') || 'no address'}${k.podCidrs.length ? `, pod CIDR ${k.podCidrs.join(', ')}` : ''})`,
      key: name,
      resolved: !!to,
      note: to ? undefined : `the Windows node ${name} is in the kubectl snapshot, but no open bundle is its`,
    });
  }
  return out;
}
