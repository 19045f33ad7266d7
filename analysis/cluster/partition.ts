// Which bundles belong to one cluster. Bundles opened together are not always one cluster (a folder
// that gathers the bundles of several customers, a test cluster beside production): nodes of different
// clusters compared with each other give false odd-one-out findings (a Service "missing" on a node of
// another cluster). The nodes are split by what a cluster shares and two clusters do not:
// - The `default/kubernetes` Service. kube-apiserver gives it the first address of the service CIDR
//   (kubernetes pkg/controlplane/services.go ServiceIPRange: `GetIndexedIP(&serviceClusterIPRange, 1)`)
//   and kube-proxy programs it on every node like any Service, its backends being the API servers'
//   addresses. Its VIP is the kubectl snapshot's `default/kubernetes` ClusterIP when the bundle has one;
//   otherwise (inferred) the one load balancer on port 443/TCP whose VIP is a `.1` (IPv4) or `::1`
//   (IPv6) address. Two nodes with another such VIP, or with the same VIP sent to disjoint API
//   servers (two kubeadm clusters both use 10.96.0.1), are of two clusters.
// - The kubectl snapshot: snapshots that name disjoint sets of Nodes are of two clusters; a snapshot
//   that lists another node's Node joins the two.
// - The joins: a RemoteSubnetRoute's provider address or a host route's next hop that is another
//   node's address (a remote endpoint's provider address likewise) joins the two nodes. Pod addresses
//   alone join nothing here: pod CIDRs repeat between clusters (10.244.0.0/16 is every kubeadm default).
// - The plugin: nodes that nothing above joins, of different plugins, are taken for different
//   clusters (inferred: one cluster's Windows nodes run one CNI).
// What says two nodes are of different clusters wins over what joins them (addresses repeat between
// clusters; a cluster has one `default/kubernetes` Service). Nothing known either way: one cluster.
//
// A second bundle of the same host (same host name and node address) is the same node: it is counted
// once (the first bundle) so it cannot outvote the others or conflict with itself.
import { canonIp } from '../walk/ip.ts';
import type { NodeDigest } from './digest.ts';

export interface ApiService {
  vip: string;
  /** The API servers' addresses it load-balances to (sorted), empty when not known. */
  backends: string[];
  /** From the kubectl snapshot (certain) or from the load balancers (inferred). */
  from: 'kubectl' | 'load-balancers';
}

/** The node's `default/kubernetes` Service, when its bundle shows it. */
export function apiServiceOf(d: NodeDigest): ApiService | undefined {
  const l = d.lbs;
  const backendsOf = (vip: string) => {
    const key = `${vip.includes(':') ? `[${vip}]` : vip}:443/TCP`;
    const dips = l.dips[l.keys.indexOf(key)];
    return dips === undefined ? [] : dips.split(',').filter((x) => x && !x.startsWith('?')).sort();
  };
  if (d.kubernetesVip) {
    const vip = canonIp(d.kubernetesVip) ?? d.kubernetesVip;
    return { vip, backends: backendsOf(vip), from: 'kubectl' };
  }
  const hits = new Set<string>();
  for (const [i, key] of l.keys.entries()) {
    if ((l.flags[i] ?? 0) & 1) continue;
    const ip = /^\[?([^\]\s]+?)\]?:443\/TCP$/.exec(key)?.[1];
    if (ip && (/^\d+\.\d+\.\d+\.1$/.test(ip) || /::1$/.test(ip))) hits.add(ip);
  }
  const [vip] = hits;
  if (hits.size !== 1 || vip === undefined) return undefined;
  return { vip, backends: backendsOf(vip), from: 'load-balancers' };
}

export interface Duplicate {
  /** The later bundle's id, left out. */
  id: string;
  bundle: string;
  /** The node it repeats (its id, the first bundle of the host). */
  of: string;
  ofBundle: string;
}

/** Splits off the second and later bundles of a host (same host name, same node address). */
export function splitDuplicates<T extends { digest: NodeDigest }>(inputs: T[]): { kept: T[]; duplicates: Duplicate[] } {
  const first = new Map<string, T>();
  const kept: T[] = [];
  const duplicates: Duplicate[] = [];
  for (const x of inputs) {
    const i = x.digest.identity;
    const key = `${i.host.toLowerCase()}|${i.nodeIp ?? ''}`;
    const f = first.get(key);
    if (f) duplicates.push({ id: x.digest.id, bundle: x.digest.bundle, of: f.digest.id, ofBundle: f.digest.bundle });
    else {
      first.set(key, x);
      kept.push(x);
    }
  }
  return { kept, duplicates };
}

export interface Partition {
  /** Indexes into the digests, one list per cluster, the largest first. */
  parts: number[][];
  /** Why each two parts are apart, in words (`a`, `b`: indexes into parts). */
  apart: { a: number; b: number; why: string }[];
}

interface Facts {
  api?: ApiService;
  /** Node names of the snapshot (the same array object for equal snapshots). */
  snapshot?: Set<string>;
  plugin?: string;
}

/** Why nodes a and b cannot be of one cluster, or undefined. */
function conflict(a: Facts, b: Facts): string | undefined {
  if (a.api && b.api) {
    if (a.api.vip !== b.api.vip) return `the kubernetes Service is ${a.api.vip} on one and ${b.api.vip} on the other (a cluster has one)`;
    if (a.api.backends.length && b.api.backends.length && !a.api.backends.some((x) => b.api!.backends.includes(x)))
      return `the kubernetes Service ${a.api.vip} is sent to API server ${a.api.backends.join(', ')} on one and ${b.api.backends.join(', ')} on the other`;
  }
  if (a.snapshot?.size && b.snapshot?.size && ![...a.snapshot].some((x) => b.snapshot!.has(x))) return 'their kubectl snapshots list different Nodes';
  return undefined;
}

export function partitionNodes(ds: readonly NodeDigest[], nodeOfAddress: (ip: string) => number | undefined): Partition {
  // Equal snapshots are one array (the digests' interner): one set of names each.
  const snapshots = new Map<object, { names: Set<string>; key: string }>();
  const snapshotOf = (d: NodeDigest) => {
    if (!d.k8sNodes.length) return undefined;
    let s = snapshots.get(d.k8sNodes);
    if (!s) {
      const names = new Set(d.k8sNodes.map((k) => k.name.toLowerCase()));
      snapshots.set(d.k8sNodes, (s = { names, key: [...names].sort().join(',') }));
    }
    return s;
  };
  const facts: (Facts & { key: string })[] = ds.map((d) => {
    const api = apiServiceOf(d);
    const snap = snapshotOf(d);
    return { api, snapshot: snap?.names, plugin: d.identity.plugin === 'unknown' ? undefined : d.identity.plugin, key: `${api?.vip}|${api?.backends.join(',')}|${snap?.key ?? ''}` };
  });
  // Union-find whose components keep their members' distinct facts (few per cluster, however many nodes).
  const parent = ds.map((_, i) => i);
  const members = ds.map((_, i) => [i]);
  const distinct = facts.map((f) => new Map([[f.key, f as Facts]]));
  // Every index is a node's (0 … ds.length-1), so the lookups below always hit; the fallbacks keep it total.
  const membersOf = (r: number) => members[r] ?? [];
  const distinctOf = (r: number) => distinct[r] ?? new Map<string, Facts>();
  const find = (i: number): number => {
    const p = parent[i];
    if (p === undefined || p === i) return i;
    const root = find(p);
    parent[i] = root;
    return root;
  };
  const conflictOf = (ra: number, rb: number): string | undefined => {
    for (const a of distinctOf(ra).values()) for (const b of distinctOf(rb).values()) {
      const why = conflict(a, b);
      if (why) return why;
    }
    return undefined;
  };
  const merge = (into: number, from: number) => {
    membersOf(into).push(...membersOf(from));
    members[from] = [];
    for (const [k, f] of distinctOf(from)) distinctOf(into).set(k, f);
    distinctOf(from).clear();
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb || conflictOf(ra, rb)) return;
    parent[rb] = ra;
    merge(ra, rb);
  };

  // What joins two nodes: a snapshot that lists the other node, a peer address, the same API servers.
  const byName = new Map<string, number>();
  ds.forEach((d, i) => {
    byName.set(d.identity.host.toLowerCase(), i);
    if (d.identity.k8sNode) byName.set(d.identity.k8sNode.toLowerCase(), i);
  });
  ds.forEach((d, i) => {
    for (const k of d.k8sNodes) {
      const j = byName.get(k.name.toLowerCase()) ?? k.addresses.map((a) => nodeOfAddress(a)).find((x) => x !== undefined);
      if (j !== undefined && j !== i) union(i, j);
    }
    for (const r of d.remoteSubnets) {
      const j = nodeOfAddress(r.pa);
      if (j !== undefined && j !== i) union(i, j);
    }
    for (const r of d.hostRoutes) {
      const j = nodeOfAddress(r.nextHop);
      if (j !== undefined && j !== i) union(i, j);
    }
    const seenPa = new Set<string>();
    for (const e of d.remoteEndpoints) {
      if (!e.pa || seenPa.has(e.pa)) continue;
      seenPa.add(e.pa);
      const j = nodeOfAddress(e.pa);
      if (j !== undefined && j !== i) union(i, j);
    }
  });
  const byApi = new Map<string, number>();
  facts.forEach((f, i) => {
    if (!f.api?.backends.length) return;
    const k = `${f.api.vip}|${f.api.backends.join(',')}`;
    const j = byApi.get(k);
    if (j === undefined) byApi.set(k, i);
    else union(j, i);
  });

  // What nothing joined: one cluster with a compatible part of the same plugin, else a cluster of its own.
  const comps = ds.map((_, i) => i).filter((i) => find(i) === i).sort((a, b) => membersOf(b).length - membersOf(a).length || a - b);
  const pluginsOf = (r: number) => new Set(membersOf(r).map((i) => facts[i]?.plugin).filter((p): p is string => !!p));
  const groups: number[] = [];
  const differentPlugins = (g: number, r: number) => {
    const mine = pluginsOf(r);
    const theirs = pluginsOf(g);
    return mine.size && theirs.size && ![...mine].every((p) => theirs.has(p)) ? `nothing joins them and they run different network plugins (${[...theirs].join(', ')}; ${[...mine].join(', ')})` : undefined;
  };
  for (const r of comps) {
    const home = groups.find((g) => !conflictOf(g, r) && !differentPlugins(g, r));
    if (home === undefined) groups.push(r);
    else merge(home, r);
  }
  groups.sort((a, b) => membersOf(b).length - membersOf(a).length || Math.min(...membersOf(a)) - Math.min(...membersOf(b)));
  const apart: Partition['apart'] = [];
  groups.forEach((ga, a) =>
    groups.forEach((gb, b) => {
      if (b <= a) return;
      const why = conflictOf(ga, gb) ?? differentPlugins(ga, gb) ?? differentPlugins(gb, ga);
      if (why) apart.push({ a, b, why });
    }),
  );
  return { parts: groups.map((g) => [...membersOf(g)].sort((x, y) => x - y)), apart };
}
