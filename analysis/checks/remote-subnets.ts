// Reaching pods on other nodes, the way the node's plugin does it (analysis/platform/facts.ts): a host
// route per remote pod subnet (Flannel host-gw, Calico BGP, Antrea; the Windows troubleshooting guide's inter-node example, Get-NetRoute), or
// a RemoteSubnetRoute policy on the HNS network per remote pod subnet (Flannel VXLAN, Calico VXLAN,
// OVN-Kubernetes). Azure CNI and EKS leave it to the cloud fabric: the check does not run there.
import type { Finding } from '../findings/types.ts';
import { pluginsWhere, type PluginFacts } from '../platform/index.ts';
import type { Check } from './types.ts';
import { covers, intToIp, ipNum, ipRange, inRange, rangeText, type Range } from './context.ts';
import { lookupRoute } from '../walk/context.ts';
import type { SourceRef } from '../../parsers/types.ts';
import { plural } from '../../parsers/text/quantities.ts';

interface RemoteIp {
  ip: string;
  src: SourceRef;
  what: string;
}

export const remoteSubnetsCheck: Check = {
  id: 'remote-subnets',
  ids: ['remote-subnet-no-route', 'remote-subnet-no-policy', 'remote-subnet-undecided'],
  title: 'Routes to remote pod subnets',
  platforms: pluginsWhere((f) => f.crossNode.how === 'host-routes' || f.crossNode.how === 'remote-subnet-routes'),
  assumes: 'the node itself routes pod traffic to other nodes: a host route (host-gw, BGP, Antrea) or a RemoteSubnetRoute (VXLAN) per remote pod subnet',
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    const how = ctx.facts?.crossNode.how;
    if (how !== 'host-routes' && how !== 'remote-subnet-routes') return out;
    const inferred = !!ctx.facts?.crossNode.inferred;
    // Other nodes' pod CIDRs (kubectl Node objects) are remote pod subnets by definition, where the
    // plugin routes per node pod CIDR (not Calico, which routes per IPAM block).
    const hostIps = new Set([ctx.nodeIp, ...ctx.tc.hostIps].filter(Boolean));
    const nodeCidrs = ctx.facts?.crossNode.unit === 'node pod CIDR' ? (m.k8s?.nodes ?? []).filter((n) => !n.addresses.some((a) => hostIps.has(a.address))).flatMap((n) => n.podCidrs.filter((c) => !c.includes(':')).map((c) => ({ cidr: c, node: n }))) : [];
    for (const net of ctx.podNetworks) {
      const local = net.subnets.map((s) => ({ s, r: ipRange(s.prefix) })).filter((x): x is { s: typeof x.s; r: Range } => !!x.r);
      if (!local.length) continue;
      const nodeN = ipNum(ctx.nodeIp);
      // VNet-routed pods (Azure CNI) share the node's subnet: the VNet routes them, nothing to check here.
      if (nodeN !== undefined && local.some((x) => inRange(x.r, nodeN))) continue;
      const bits = Math.min(...local.map((x) => 32 - Math.log2(x.r.hi - x.r.lo + 1)));
      // The cluster range: exception-list entries (or RemoteSubnetRoutes) that hold this node's pod subnet.
      const cluster: Range[] = [];
      for (const e of ctx.localPods) for (const nat of e.outboundNat) for (const x of nat.exceptions) {
        const r = ipRange(x);
        const len = r ? 32 - Math.log2(r.hi - r.lo + 1) : 0;
        if (r && len >= 8 && len < bits && local.some((l) => covers(r, l.r))) cluster.push(r);
      }
      const remotes: RemoteIp[] = [];
      for (const e of m.endpoints ?? []) if (e.isRemote && e.ip) remotes.push({ ip: e.ip, src: e.src, what: `remote endpoint ${e.ip}` });
      for (const p of m.k8s?.pods ?? []) if (!p.hostNetwork) for (const ip of p.ips) remotes.push({ ip, src: p.src, what: `pod ${p.namespace}/${p.name} (${ip})` });
      for (const rs of net.remoteSubnetRoutes) {
        const r = ipRange(rs.destinationPrefix);
        if (r) remotes.push({ ip: intToIp(r.lo + 1), src: net.src, what: `RemoteSubnetRoute ${rs.destinationPrefix}` });
      }
      const fromNodes = new Set<string>();
      for (const { cidr, node } of nodeCidrs) {
        const r = ipRange(cidr);
        if (!r || local.some((l) => covers(l.r, r) || covers(r, l.r))) continue;
        const ip = intToIp(r.lo + 1);
        fromNodes.add(ip);
        remotes.push({ ip, src: node.src, what: `node ${node.name}'s pod CIDR ${cidr}` });
      }
      const blocks = new Map<number, RemoteIp[]>();
      const size = 2 ** (32 - bits);
      for (const x of remotes) {
        const n = ipNum(x.ip);
        if (n === undefined || local.some((l) => inRange(l.r, n))) continue;
        if (!fromNodes.has(x.ip)) {
          if (!cluster.some((c) => inRange(c, n)) && !net.remoteSubnetRoutes.length) continue;
          if (cluster.length && !cluster.some((c) => inRange(c, n))) continue;
        }
        const base = n - (n % size);
        const list = blocks.get(base) ?? [];
        list.push(x);
        blocks.set(base, list);
      }
      const src0 = ctx.traceSource(ctx.localPods.filter((e) => ctx.networkOf(e) === net));
      if (how === 'host-routes') {
        if (!blocks.size) continue;
        if (!m.routes) {
          out.push({ id: 'remote-subnet-undecided', severity: 'info', area: 'routes', undecided: true, title: 'Routes to remote pod subnets not checked', explanation: `routes.txt (route print) is not in the bundle, so the host routes for the ${plural(blocks.size, 'remote pod subnet')} of l2bridge network ${net.name} cannot be checked.`, fix: 'Collect routes.txt (`route print` and `Get-NetRoute`) with collectlogs.ps1.', objects: [], evidence: [ctx.absent('routes.txt', 'file not in the bundle')] });
          continue;
        }
        for (const [base, xs] of blocks) {
          const [x0] = xs;
          if (!x0) continue;
          const block = { lo: base, hi: base + size - 1 };
          const route = lookupRoute(ctx.tc, x0.ip);
          if (route && route.bits > 0) continue;
          const cidr = rangeText(block);
          const dflt = route?.route;
          out.push(ctx.hedge({
            id: 'remote-subnet-no-route',
            severity: inferred ? 'warning' : 'error',
            area: 'routes',
            title: `No route for remote pod subnet ${cidr}`,
            explanation: `On ${ctx.platform.label} the node routes pod traffic to other nodes itself: it needs a route for each other node's pod subnet (${ctx.facts!.crossNode.source}; Microsoft's Windows networking troubleshooting guide: "there should be routes programmed for each pod subnet"). ${x0.what} lies in ${cidr}, but the routing table has no route for it${dflt ? `, so traffic to it follows the default route via ${dflt.gateway} and is dropped or misrouted by the underlay` : ''}. Pods on this node cannot reach pods on that node.${inferred ? ' (That this plugin installs such a route is inferred from its code; no real route table of it was seen.)' : ''}`,
            fix: routeFix(ctx.facts!, cidr),
            objects: [cidr, ...xs.slice(0, 5).map((x) => x.ip)],
            evidence: [ctx.ev(x0.src, x0.ip), ...(dflt ? [ctx.ev(dflt.src)] : [ctx.absent(m.meta.sources.routes?.[0] ?? 'routes.txt', `no route covers ${cidr}`)])],
            trace: src0?.ip ? { srcIp: src0.ip, dstIp: x0.ip, dstPort: 80, proto: 'tcp' } : undefined,
          }, 'routes'));
        }
      } else {
        for (const [base, xs] of blocks) {
          const [x0] = xs;
          if (!x0) continue;
          const block = { lo: base, hi: base + size - 1 };
          const rsr = net.remoteSubnetRoutes.map((x) => ipRange(x.destinationPrefix)).filter((r): r is Range => !!r);
          if (rsr.some((r) => covers(r, block) || inRange(r, ipNum(x0.ip)!))) continue;
          // Remote endpoints of the overlay that are not pods (the API server, a node) carry a PA of their own node.
          if (xs.every((x) => x.what.startsWith('remote endpoint')) && !cluster.length) continue;
          const cidr = rangeText(block);
          out.push({
            id: 'remote-subnet-no-policy',
            severity: 'error',
            area: 'hns',
            title: `No RemoteSubnetRoute for remote pod subnet ${cidr} on network ${net.name}`,
            explanation: `On ${ctx.platform.label}, traffic to another node's pods is encapsulated (VXLAN) to that node's provider address by REMOTESUBNETROUTE rules, which HNS derives from the network's RemoteSubnetRoute policies (${ctx.facts!.crossNode.source}). ${x0.what} is in ${cidr}, but network ${net.name} has no RemoteSubnetRoute for it: pods here cannot reach pods there.`,
            fix: `${rsrOwner(ctx.facts!)} adds the policy when it learns the remote subnet: check its log and restart it on this node to re-add the policies; check with \`Get-HnsNetwork | ? Name -eq ${net.name} | ConvertTo-Json -Depth 10\` (Policies, Type RemoteSubnetRoute).`,
            objects: [cidr, ...xs.slice(0, 5).map((x) => x.ip)],
            evidence: [ctx.ev(x0.src, x0.ip), ctx.ev(net.src, /RemoteSubnetRoute/i)],
            trace: src0?.ip ? { srcIp: src0.ip, dstIp: x0.ip, dstPort: 80, proto: 'tcp' } : undefined,
          });
        }
      }
    }
    return out;
  },
};


function rsrOwner(f: PluginFacts): string {
  return f.family === 'calico' ? 'Felix (calico-node, vxlan_mgr)' : f.family === 'ovn' ? 'hybrid-overlay-node' : 'flanneld (vxlan)';
}

function routeFix(f: PluginFacts, cidr: string): string {
  const check = `Then verify with \`Get-NetRoute -DestinationPrefix ${cidr}\`.`;
  if (f.family === 'calico') return `Calico BGP learns the route from its peers: check the BGP sessions (\`Get-BgpPeer\`, calico-confd's log) and that the remote node advertises ${cidr}. ${check}`;
  if (f.family === 'antrea') return `antrea-agent installs a route per peer pod CIDR on antrea-gw0: check the agent log for route errors and restart the agent. ${check}`;
  return `Add the route (flannel host-gw adds it when it sees the subnet lease: check flanneld's log for "Subnet added: ${cidr} via …"), e.g. \`New-NetRoute -DestinationPrefix ${cidr} -NextHop <that node's IP> -InterfaceAlias "vEthernet (Ethernet)"\`; on a cloud, the network also needs a route (UDR) for ${cidr}. ${check}`;
}
