// What each node believes about where its peers' pods are, against what the peers say about
// themselves. The facts that make these beliefs checkable (sources in ../identity.ts):
// - Flannel VXLAN / Calico VXLAN / OVN hybrid overlay: a RemoteSubnetRoute per peer pod subnet, with the
//   peer's provider address (flannel lease PublicIP, Calico vtep.ParentDeviceIp, OVN node address) and
//   its distributed router MAC (flannel VtepMAC = the peer's HNS DrMacAddress; Calico Node
//   VXLANTunnelMACAddr from the same; OVN: the node annotation, ho_node_windows.go:195-215).
// - kube-proxy gives a remote endpoint the provider address of the RemoteSubnetRoute that covers it
//   (kubernetes pkg/proxy/winkernel findRemoteSubnetProviderAddress): a stale route makes stale endpoints.
// - Flannel host-gw routes a peer's pod CIDR via the peer's PublicIP (route_network_windows.go:91-118);
//   Antrea via the peer's gateway on antrea-gw0 (route_windows.go:248-289), an address of the peer too.
// - One pod subnet per node on the per-node-CIDR plugins: two nodes holding the same one is a conflict.
import type { ClusterModel, ClusterNode } from '../types.ts';
import type { ClusterCheck, ClusterFinding } from './types.ts';
import { list, majorityOf, nodeEv, plural } from './majority.ts';

const addrOf = (n: ClusterNode) => n.identity.providerAddress ?? n.identity.nodeIp ?? n.identity.addresses[0];
/** A packet to try from a pod of one node to a pod of another, when both have pods. */
const podPair = (from: ClusterNode | undefined, to: ClusterNode) => {
  const srcIp = from?.digest.localPods[0];
  const dstIp = to.digest.localPods[0];
  return srcIp && dstIp ? { srcIp, dstIp, dstPort: 80, proto: 'tcp' as const } : undefined;
};
const FIX_RSR =
  'The agent that programs RemoteSubnetRoutes on the odd node (flanneld, Calico Felix, hybrid-overlay-node) did not see the peer\'s current address: restart it there, then check `(Get-HnsNetwork | ? Type -eq Overlay).Policies | ? Type -eq RemoteSubnetRoute` names the peer\'s provider address and DR MAC. kube-proxy re-creates its remote endpoints from the corrected routes on its next sync.';

function remoteSubnetFindings(c: ClusterModel): ClusterFinding[] {
  const out: ClusterFinding[] = [];
  // prefix → what each node says.
  const says = new Map<string, { node: ClusterNode; pa: string; drMac?: string; vni?: number; src: ClusterNode['digest']['remoteSubnets'][number]['src'] }[]>();
  for (const n of c.nodes) for (const r of n.digest.remoteSubnets) says.set(r.prefix, [...(says.get(r.prefix) ?? []), { node: n, ...r }]);
  for (const [prefix, all] of says) {
    const owner = c.ownerOfSubnet(prefix);
    const peers = all.filter((s) => s.node !== owner);
    if (!peers.length) continue;
    if (owner) {
      const truth = addrOf(owner);
      // An owner whose bundle shows no address of its own (no ipconfig, no provider address) cannot
      // tell which peers are stale: no finding rather than a false one.
      if (truth === undefined) continue;
      const right = peers.filter((s) => owner.identity.addresses.includes(s.pa));
      // One finding per stale address (several nodes may hold the same stale belief).
      const wrong = new Map<string, typeof peers>();
      for (const s of peers) if (!owner.identity.addresses.includes(s.pa)) wrong.set(s.pa, [...(wrong.get(s.pa) ?? []), s]);
      for (const [pa, odd] of wrong) {
        const other = c.nodeOfAddress(pa);
        out.push({
          id: 'cluster-stale-provider-address',
          severity: 'error',
          area: 'routes',
          title: `${list(odd.map((s) => s.node.id))} tunnel${odd.length > 1 ? '' : 's'} ${prefix} (${owner.id}'s pods) to ${pa}; ${owner.id} is at ${truth}`,
          explanation: `${owner.id}'s own bundle says it holds ${prefix} with provider address ${truth}${owner.identity.drMac ? ` and DR MAC ${owner.identity.drMac}` : ''}. ${list(odd.map((s) => s.node.id))} still ${odd.length > 1 ? 'have' : 'has'} a RemoteSubnetRoute to ${pa}${other ? `, which is ${other.id}` : ', which no open node has (the address the node had before it was recreated, or a node that is gone)'}: pods there cannot reach ${owner.id}'s pods (the VXLAN packets go to ${pa}), and kube-proxy gives the remote endpoints of ${owner.id}'s pods that provider address too. ${right.length ? `${plural(right.length, 'other node')} (${list(right.map((s) => s.node.id))}) tunnel${right.length === 1 ? 's' : ''} it to ${truth}.` : ''}`,
          fix: FIX_RSR,
          objects: [prefix, pa, truth, ...odd.map((s) => s.node.id)],
          evidence: [...odd.slice(0, 5).map((s) => nodeEv(c, s.node, s.src, s.pa)), nodeEv(c, owner, owner.identity.src, truth)],
          nodes: { odd: odd.map((s) => s.node.id), majority: [owner.id, ...right.map((s) => s.node.id)], majorityValue: `${prefix} → ${truth}`, total: peers.length + 1 },
          trace: podPair(odd[0]?.node, owner),
        });
      }
      const macOdd = right.filter((s) => s.drMac && owner.identity.drMac && s.drMac !== owner.identity.drMac);
      const [oddMac] = macOdd;
      if (oddMac) {
        out.push({
          id: 'cluster-stale-dr-mac',
          severity: 'error',
          area: 'routes',
          title: `${list(macOdd.map((s) => s.node.id))} address${macOdd.length > 1 ? '' : 'es'} ${owner.id}'s pods (${prefix}) to DR MAC ${oddMac.drMac}; ${owner.id}'s is ${owner.identity.drMac}`,
          explanation: `The RemoteSubnetRoute for ${prefix} names the right provider address ${truth} but another distributed router MAC than ${owner.id}'s own network (${owner.identity.drMac}). Windows decapsulates VXLAN at L2 and needs the correct destination MAC (flannel-io/flannel vxlan_windows.go design notes): ${owner.id} drops these frames.`,
          fix: FIX_RSR,
          objects: [prefix, owner.identity.drMac!, ...macOdd.map((s) => s.drMac!)],
          evidence: [...macOdd.slice(0, 5).map((s) => nodeEv(c, s.node, s.src, s.drMac)), nodeEv(c, owner, owner.identity.src, owner.identity.drMac)],
          nodes: { odd: macOdd.map((s) => s.node.id), majority: [owner.id, ...right.filter((s) => !macOdd.includes(s)).map((s) => s.node.id)], majorityValue: owner.identity.drMac, total: peers.length + 1 },
        });
      }
      const vniOdd = right.filter((s) => s.vni !== undefined && owner.identity.vni !== undefined && s.vni !== owner.identity.vni);
      const [oddVni] = vniOdd;
      if (oddVni) {
        out.push({
          id: 'cluster-vni-differs',
          severity: 'warning',
          area: 'routes',
          title: `${list(vniOdd.map((s) => s.node.id))} tunnel${vniOdd.length > 1 ? '' : 's'} ${prefix} with VNI ${oddVni.vni}; ${owner.id}'s network has VSID ${owner.identity.vni}`,
          explanation: `A VXLAN packet with another VNI belongs to no virtual network on ${owner.id}. Every node of one overlay must use the same VNI (flannel: the backend's VNI; Calico: vxlan_vni; OVN: 4097).`,
          fix: 'Use one VNI in every node\'s network configuration and recreate the odd node\'s overlay network.',
          objects: [prefix, String(owner.identity.vni)],
          evidence: [...vniOdd.slice(0, 5).map((s) => nodeEv(c, s.node, s.src)), nodeEv(c, owner, owner.identity.src)],
          nodes: { odd: vniOdd.map((s) => s.node.id), majority: [owner.id], majorityValue: `VNI ${owner.identity.vni}`, total: peers.length + 1 },
        });
      }
      continue;
    }
    // The owner's bundle is not open: the nodes that agree outvote the ones that do not.
    const m = majorityOf(peers.map((s) => ({ node: s.node.id, value: s.pa })));
    if (!m || !m.odd.length) continue;
    out.push({
      id: 'cluster-stale-provider-address',
      severity: 'warning',
      area: 'routes',
      title: `${list(m.odd.map((o) => o.node))} tunnel${m.odd.length > 1 ? '' : 's'} ${prefix} elsewhere than ${m.nodes.length} other nodes (${m.value})`,
      explanation: `No open bundle holds ${prefix}, so the truth is not known; but ${m.nodes.length} of ${peers.length} nodes tunnel it to ${m.value}, and ${list(m.odd.map((o) => `${o.node} to ${o.value}`))}. Open the bundle of the node at ${m.value} to be sure.`,
      fix: FIX_RSR,
      objects: [prefix, m.value, ...m.odd.map((o) => o.value)],
      evidence: peers.filter((s) => m.odd.some((o) => o.node === s.node.id)).slice(0, 5).map((s) => nodeEv(c, s.node, s.src, s.pa)),
      nodes: { odd: m.odd.map((o) => o.node), majority: m.nodes, majorityValue: `${prefix} → ${m.value}`, total: peers.length },
      undecided: true,
    });
  }
  return out;
}

function hostRouteFindings(c: ClusterModel): ClusterFinding[] {
  const out: ClusterFinding[] = [];
  const wrong = new Map<string, { owner: ClusterNode; prefix: string; nextHop: string; odd: { node: ClusterNode; src: ClusterNode['digest']['hostRoutes'][number]['src'] }[] }>();
  const right = new Map<string, string[]>();
  for (const n of c.nodes) {
    if (n.identity.crossNode !== 'host-routes') continue;
    for (const r of n.digest.hostRoutes) {
      const owner = c.ownerOfSubnet(r.prefix);
      if (!owner || owner === n) continue;
      if (owner.identity.addresses.includes(r.nextHop)) {
        right.set(r.prefix, [...(right.get(r.prefix) ?? []), n.id]);
        continue;
      }
      const key = `${r.prefix}|${r.nextHop}`;
      let w = wrong.get(key);
      if (!w) wrong.set(key, (w = { owner, prefix: r.prefix, nextHop: r.nextHop, odd: [] }));
      w.odd.push({ node: n, src: r.src });
    }
  }
  for (const w of wrong.values()) {
    const other = c.nodeOfAddress(w.nextHop);
    const agree = right.get(w.prefix) ?? [];
    const truth = w.owner.identity.nodeIp ?? w.owner.identity.addresses[0];
    // No address of the owner in its bundle: which next hop is right is not known.
    if (truth === undefined) continue;
    out.push({
      id: 'cluster-stale-host-route',
      severity: w.owner.identity.plugin === 'calico-bgp' ? 'warning' : 'error',
      area: 'routes',
      title: `${list(w.odd.map((o) => o.node.id))} route${w.odd.length > 1 ? '' : 's'} ${w.prefix} (${w.owner.id}'s pods) via ${w.nextHop}; ${w.owner.id} is at ${truth}`,
      explanation: `${w.owner.id} holds ${w.prefix}; its peers reach those pods through a host route via ${w.owner.id}'s address. ${list(w.odd.map((o) => o.node.id))} route${w.odd.length > 1 ? '' : 's'} it via ${w.nextHop}${other ? ` (${other.id})` : ', which no open node has'}: the packets go to the wrong host.${agree.length ? ` ${plural(agree.length, 'other node')} (${list(agree)}) route it via ${w.owner.id}.` : ''}`,
      fix: `Restart the agent that programs the routes on the odd node (flanneld for host-gw; antrea-agent; the BGP router for Calico) or fix the route: \`Remove-NetRoute -DestinationPrefix ${w.prefix} -NextHop ${w.nextHop}; New-NetRoute -DestinationPrefix ${w.prefix} -NextHop ${truth} -InterfaceIndex <the node's vNIC>\`.`,
      objects: [w.prefix, w.nextHop, truth],
      evidence: [...w.odd.slice(0, 5).map((o) => nodeEv(c, o.node, o.src)), nodeEv(c, w.owner, w.owner.identity.src)],
      nodes: { odd: w.odd.map((o) => o.node.id), majority: [w.owner.id, ...agree], majorityValue: `${w.prefix} via ${truth}`, total: w.odd.length + agree.length + 1 },
      trace: podPair(w.odd[0]?.node, w.owner),
    });
  }
  return out;
}

function remoteEndpointFindings(c: ClusterModel): ClusterFinding[] {
  const out: ClusterFinding[] = [];
  // Per node that owns pods: the other nodes whose remote endpoints of those pods name its own address
  // (they agree with it), and the groups of those that name another address.
  const agree = new Map<ClusterNode, Set<string>>();
  const odd: { n: ClusterNode; g: { owner: ClusterNode; pa: string; ips: string[]; src: ClusterNode['digest']['remoteEndpoints'][number]['src'] } }[] = [];
  for (const n of c.nodes) {
    const groups = new Map<string, { owner: ClusterNode; pa: string; ips: string[]; src: ClusterNode['digest']['remoteEndpoints'][number]['src'] }>();
    for (const e of n.digest.remoteEndpoints) {
      if (!e.pa || n.identity.addresses.includes(e.pa)) continue;
      const owner = c.nodeOfPod(e.ip);
      if (!owner || owner === n) continue;
      if (owner.identity.addresses.includes(e.pa)) {
        let a = agree.get(owner);
        if (!a) agree.set(owner, (a = new Set()));
        a.add(n.id);
        continue;
      }
      const key = `${owner.id}|${e.pa}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { owner, pa: e.pa, ips: [], src: e.src }));
      g.ips.push(e.ip);
    }
    for (const g of groups.values()) odd.push({ n, g });
  }
  for (const { n, g } of odd) {
    const truth = addrOf(g.owner);
    if (truth === undefined) continue;
    // A node that also has right endpoints of the owner's pods is odd for these, not among those who agree.
    const right = [...(agree.get(g.owner) ?? [])].filter((id) => !odd.some((o) => o.n.id === id && o.g.owner === g.owner));
    out.push({
      id: 'cluster-remote-endpoint-pa',
      severity: 'error',
      area: 'hns',
      title: `${n.id} has ${plural(g.ips.length, 'remote endpoint')} of ${g.owner.id}'s pods with provider address ${g.pa}; ${g.owner.id} is at ${truth}`,
      explanation: `kube-proxy gives each remote backend the provider address of the RemoteSubnetRoute that covers it (kubernetes pkg/proxy/winkernel findRemoteSubnetProviderAddress). ${n.id}'s endpoints for ${list(g.ips, 3)} name ${g.pa}, but those pods are on ${g.owner.id} (${truth}): load-balanced traffic from ${n.id} to them is tunnelled to the wrong place.${right.length ? ` ${plural(right.length, 'other node')} (${list(right)}) give${right.length === 1 ? 's' : ''} them ${truth}.` : ''}`,
      fix: `Correct ${n.id}'s RemoteSubnetRoute first (see the provider address finding); then restart kube-proxy there so it re-creates the remote endpoints.`,
      objects: [n.id, g.pa, truth, ...g.ips.slice(0, 10)],
      evidence: [nodeEv(c, n, g.src, g.pa)],
      nodes: { odd: [n.id], majority: [g.owner.id, ...right], majorityValue: `${g.owner.id}'s pods → ${truth}`, total: 2 + right.length },
    });
  }
  return out;
}

function subnetConflicts(c: ClusterModel): ClusterFinding[] {
  const out: ClusterFinding[] = [];
  const claims = new Map<string, ClusterNode[]>();
  for (const n of c.nodes) {
    if (n.identity.crossNode === 'fabric' || n.identity.crossNode === 'unknown' || n.identity.crossNode === 'none') continue;
    for (const s of n.identity.podSubnets) if (s.from === 'hns') claims.set(s.prefix, [...(claims.get(s.prefix) ?? []), n]);
  }
  for (const [prefix, ns] of claims) {
    const [first] = ns;
    if (!first || ns.length < 2) continue;
    out.push({
      id: 'cluster-pod-subnet-twice',
      severity: 'error',
      area: 'hns',
      title: `${list(ns.map((n) => n.id))} all hold pod subnet ${prefix}`,
      explanation: `On ${first.identity.platformLabel} each node has a pod subnet of its own (its lease, IPAM block or podCIDR); peers route or tunnel ${prefix} to one node only, so the pods of the others are unreachable from other nodes and their addresses may collide.`,
      fix: 'Recreate the HNS network of the node whose subnet is wrong (its CNI/agent takes the subnet from the node\'s lease or podCIDR), after checking `kubectl get nodes -o custom-columns=NAME:.metadata.name,CIDR:.spec.podCIDR`.',
      objects: [prefix, ...ns.map((n) => n.id)],
      evidence: ns.slice(0, 5).map((n) => nodeEv(c, n, n.identity.podSubnets.find((s) => s.prefix === prefix)?.src)),
      nodes: { odd: ns.map((n) => n.id), majority: [], total: ns.length },
    });
  }
  return out;
}

export const peersCheck: ClusterCheck = {
  id: 'cluster-peers',
  ids: ['cluster-stale-provider-address', 'cluster-stale-dr-mac', 'cluster-vni-differs', 'cluster-stale-host-route', 'cluster-remote-endpoint-pa', 'cluster-pod-subnet-twice'],
  title: 'What nodes believe about their peers',
  assumes: "a peer's RemoteSubnetRoute, host route and remote endpoints name the node that holds the pod subnet, by the address and DR MAC that node's own bundle shows",
  run: (c) => [...remoteSubnetFindings(c), ...hostRouteFindings(c), ...remoteEndpointFindings(c), ...subnetConflicts(c)],
};
