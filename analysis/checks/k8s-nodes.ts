// The node's routes to other nodes held against the snapshot's Node objects: a RemoteSubnetRoute or
// host route that leads to an address no Node has (a node that left the cluster and whose route the
// plugin never removed: projectcalico/calico#8569), a route to a Node's pod CIDR through another
// node's address (the prefix moved), and a remote endpoint whose provider address is not the address
// of the node its pod runs on (an IP reused on another node: microsoft/Windows-Containers#631,
// Azure/AKS#5653). A Node's pod CIDR with no route at all is remote-subnets.ts's
// (remote-subnet-no-route / -no-policy).
//
// Per plugin (analysis/platform/facts.ts): Flannel VXLAN names the peer's PublicIP as the route's
// provider address (flannel-io/flannel pkg/backend/vxlan/vxlan_network_windows.go handleSubnetEvents),
// Calico VXLAN the VTEP's parent device IP (projectcalico/calico felix/dataplane/windows/vxlan_mgr.go),
// OVN-Kubernetes the node address (ovn-org/ovn-kubernetes ho_node_windows.go); Flannel host-gw's next hop
// is the peer's PublicIP (pkg/backend/route_network_windows.go), Antrea's the peer's address on
// antrea-gw0 (pkg/agent/route/route_windows.go), Calico BGP's is inferred (warnings only). kube-proxy
// takes a remote endpoint's provider address from the RemoteSubnetRoute holding its IP (kubernetes
// pkg/proxy/winkernel findRemoteSubnetProviderAddress). Azure CNI and EKS leave routing to the cloud
// fabric: nothing to route, the check does not run there.
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import type { K8sNode } from '../../parsers/k8s/index.ts';
import { covers, ipRange, ipNum, type Range } from './context.ts';
import { skewNote, snapshotMoments } from '../k8s/index.ts';

const nodeIps = (n: K8sNode) => n.addresses.filter((a) => a.type === 'InternalIP' || a.type === 'ExternalIP').map((a) => a.address);

export const k8sNodesCheck: Check = {
  id: 'k8s-nodes',
  ids: ['k8s-route-to-unknown-node', 'k8s-route-to-wrong-node', 'k8s-remote-endpoint-moved', 'k8s-nodes-undecided'],
  title: 'Routes to other nodes against the cluster',
  platforms: ['flannel-host-gw', 'flannel-vxlan', 'calico-vxlan', 'calico-bgp', 'antrea', 'ovn-kubernetes'],
  assumes: "the plugin routes each remote pod subnet to the node that holds it (a RemoteSubnetRoute's provider address or a host route's next hop is that node's address)",
  run(ctx) {
    const { m } = ctx;
    const snap = m.k8s;
    if (!snap) return [];
    const out: Finding[] = [];
    const how = ctx.facts?.crossNode.how;
    if (!snap.nodes.length) {
      return [{ id: 'k8s-nodes-undecided', severity: 'info', area: 'k8s', title: 'Routes to other nodes not compared with the cluster', explanation: 'Insufficient information: needs the Node objects in the kubectl snapshot (`kubectl get nodes -o json`) to tell which node each route leads to.', fix: 'Add `kubectl get nodes -o json` to the bundle.', objects: [], evidence: [{ file: snap.files[0] ?? '', line: 0, text: 'no Node objects' }] }];
    }
    const skew = skewNote(snapshotMoments(m));
    const inferred = !!ctx.facts?.crossNode.inferred;
    const sev = (s: 'error' | 'warning') => (skew.hedge || inferred ? 'warning' : s);
    const tail = [skew.text, inferred ? 'This plugin\'s routes are inferred (no documentation or dump shows them), so this is only a warning.' : ''].filter(Boolean).join(' ');
    const byIp = new Map<string, K8sNode>();
    for (const n of snap.nodes) for (const ip of nodeIps(n)) byIp.set(ip, n);
    // Which Node holds a prefix: by podCIDR, where the plugin routes per node pod CIDR (not Calico's IPAM blocks).
    const perNodeCidr = ctx.facts?.crossNode.unit === 'node pod CIDR';
    const cidrs = perNodeCidr ? snap.nodes.flatMap((n) => n.podCidrs.map((c) => ({ r: ipRange(c), n, c })).filter((x): x is { r: Range; n: K8sNode; c: string } => !!x.r)) : [];
    const ownerOf = (prefix: string) => {
      const r = ipRange(prefix);
      return r ? cidrs.find((x) => covers(x.r, r)) : undefined;
    };
    const nodeList = snap.nodes.map((n) => `${n.name} (${nodeIps(n).join(', ') || 'no address'})`).slice(0, 6).join(', ');
    // Antrea's next hop is the peer's antrea-gw0, the first address of the peer's pod CIDR
    // (antrea-io/antrea pkg/agent/route/route_windows.go: the route's gateway is the peer's GatewayIP).
    const antrea = ctx.platform.plugin === 'antrea';
    const nodeAt = (via: string) => {
      const hit = byIp.get(via);
      if (hit || !antrea) return hit;
      const n = ipNum(via);
      return n === undefined ? undefined : snap.nodes.find((x) => x.podCidrs.some((c) => { const r = ipRange(c); return r && n >= r.lo && n <= r.hi; }));
    };
    const check = (kind: string, prefix: string, via: string, ev: Finding['evidence'][number]) => {
      const owner = ownerOf(prefix);
      const at = nodeAt(via);
      if (!at) {
        out.push(ctx.hedge({
          id: 'k8s-route-to-unknown-node', severity: sev('error'), area: 'k8s',
          title: `${kind} ${prefix} leads to ${via}, an address no Node of the cluster has`,
          explanation: `${kind} ${prefix} sends pod traffic to ${via}, but no Node in the kubectl snapshot has that address (Nodes: ${nodeList}${snap.nodes.length > 6 ? ', …' : ''})${owner ? `; ${prefix} is the pod CIDR of ${owner.n.name}, at ${nodeIps(owner.n).join(', ')}` : ''}. The node it led to has left the cluster or changed address, and the plugin never removed the route: traffic to pods in ${prefix} goes nowhere. ${tail}`.trim(),
          fix: `Restart the network plugin's agent on this node so it rebuilds its routes from the cluster${how === 'host-routes' ? ` (or remove the route: \`route delete ${prefix.split('/')[0]}\`)` : ''}.`,
          objects: [prefix, via],
          evidence: [ev],
        }, ...(how === 'host-routes' ? ['routes' as const] : [])));
      } else if (owner && owner.n !== at) {
        out.push(ctx.hedge({
          id: 'k8s-route-to-wrong-node', severity: sev('error'), area: 'k8s',
          title: `${kind} ${prefix} leads to ${at.name} (${via}), but the prefix is ${owner.n.name}'s pod CIDR`,
          explanation: `Per the snapshot, ${prefix} is the pod CIDR of ${owner.n.name} (${nodeIps(owner.n).join(', ')}), but this node sends it to ${via}, the address of ${at.name}: the prefix moved to another node and the route was not updated. ${tail}`.trim(),
          fix: "Restart the network plugin's agent on this node so it rebuilds its routes from the cluster.",
          objects: [prefix, via, owner.n.name],
          evidence: [ev, { file: owner.n.src.file, line: owner.n.src.line, text: `Node ${owner.n.name} podCIDR ${owner.c}` }],
        }, ...(how === 'host-routes' ? ['routes' as const] : [])));
      }
    };
    if (how === 'remote-subnet-routes') {
      for (const net of ctx.podNetworks) for (const rs of net.remoteSubnetRoutes) check('RemoteSubnetRoute', rs.destinationPrefix, rs.providerAddress, ctx.ev(net.src, rs.destinationPrefix, 4000));
    } else if (how === 'host-routes' && m.routes) {
      // Routes inside the cluster's pod range through a gateway: the Nodes' pod CIDRs, and the cluster
      // range the pods' OutBoundNAT exceptions name (an entry holding this node's pod subnet), which
      // still covers the pod CIDR of a Node that left.
      const podRanges = snap.nodes.flatMap((n) => n.podCidrs.map((c) => ipRange(c)).filter((r): r is Range => !!r));
      const local = ctx.podNetworks.flatMap((n) => n.subnets.map((x) => ipRange(x.prefix)).filter((r): r is Range => !!r));
      for (const e of ctx.localPods) for (const nat of e.outboundNat) for (const x of nat.exceptions) {
        const r = ipRange(x);
        if (r && r.hi - r.lo < 2 ** 24 && local.some((l) => covers(r, l) && (l.hi - l.lo) < (r.hi - r.lo))) podRanges.push(r);
      }
      for (const r of m.routes.ipv4Active) {
        const gw = ipNum(r.gateway);
        if (gw === undefined || r.prefixLength === undefined || r.prefixLength === 0) continue;
        const dst = ipRange(`${r.destination}/${r.prefixLength}`);
        // An Antrea peer route goes via the first address of the prefix it routes: its own even when
        // no Node holds that prefix any more.
        const antreaPeer = antrea && dst && gw === dst.lo + 1;
        if (!dst || (!antreaPeer && !podRanges.some((p) => covers(p, dst) || covers(dst, p)))) continue;
        check('The route to', `${r.destination}/${r.prefixLength}`, r.gateway, ctx.ev(r.src));
      }
    }
    // Remote endpoints of overlay plugins: the provider address must be the pod's node's.
    if (ctx.facts?.remoteEndpoints === 'pa') {
      const podNode = new Map<string, string>();
      for (const p of snap.pods) if (!p.hostNetwork && p.phase === 'Running' && p.nodeName) for (const ip of p.ips) podNode.set(ip, p.nodeName);
      const byName = new Map(snap.nodes.map((n) => [n.name, n]));
      const moved = (m.endpoints ?? []).filter((e) => e.isRemote && e.ip && e.providerAddress).flatMap((e) => {
        const n = byName.get(podNode.get(e.ip!) ?? '');
        if (!n || nodeIps(n).includes(e.providerAddress!)) return [];
        const pa = ipNum(e.providerAddress);
        // An address of this host is no other node's (Calico's VXLAN endpoint of a local IP): not judged.
        if (pa === undefined || ctx.tc.hostIps.has(e.providerAddress!)) return [];
        return [{ e, n }];
      });
      for (const { e, n } of moved.slice(0, 20)) {
        const at = byIp.get(e.providerAddress!);
        out.push(ctx.hedge({
          id: 'k8s-remote-endpoint-moved', severity: sev('error'), area: 'k8s',
          title: `Remote endpoint ${e.ip} points at ${at ? `${at.name} (${e.providerAddress})` : e.providerAddress}, but its pod runs on ${n.name}`,
          explanation: `Per the snapshot, ${e.ip} is a pod on ${n.name} (${nodeIps(n).join(', ')}), but HNS's remote endpoint for it still sends to provider address ${e.providerAddress}${at ? `, ${at.name}'s` : ', which no Node has'}: the IP was reused on another node and kube-proxy kept the old endpoint. Load-balanced connections to it go to the wrong node. ${tail}`.trim(),
          fix: 'Restart kube-proxy on this node (it recreates remote endpoints), or remove the endpoint with `Remove-HnsEndpoint`.',
          objects: [e.ip!, e.providerAddress!, n.name],
          evidence: [ctx.ev(e.src, e.providerAddress), { file: n.src.file, line: n.src.line, text: `Node ${n.name} ${nodeIps(n).join(', ')}` }],
        }, 'endpoints'));
      }
    }
    return out;
  },
};

