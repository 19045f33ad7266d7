// The same Services on every node: kube-proxy (winkernel) watches every Service and EndpointSlice of
// the cluster and programs an HNS load balancer per Service port on every node, NodePorts included,
// with an HNS endpoint per backend — local or remote (kubernetes pkg/proxy/winkernel proxier.go
// syncProxyRules). A node missing a load balancer its peers have, or sending one to other backends,
// is the odd one out. Exception: with ExternalTrafficPolicy Local a NodePort load balancer holds only
// the node's own backends (DSR, local endpoints only, proxier.go): those are compared by presence only.
import type { ClusterNode } from '../types.ts';
import type { ClusterCheck, ClusterFinding } from './types.ts';
import { list, nodeEv, plural } from './majority.ts';

interface Seen {
  node: ClusterNode;
  dips: string;
  flags: number;
  line: number;
  file: string;
}

/** `10.96.0.10:53/UDP` → `10.96.0.10`; `NodePort 31000/TCP` → `NodePort`. */
const serviceOf = (key: string) => (key.startsWith('NodePort ') ? 'NodePort' : key.slice(0, key.lastIndexOf(':')));
/** The VIP of the first ClusterIP key (what the evidence line is looked up by). */
const vipOf = (keys: string[]) => keys.map(serviceOf).find((v) => v !== 'NodePort');

export const servicesCheck: ClusterCheck = {
  id: 'cluster-services',
  ids: ['cluster-lb-missing', 'cluster-lb-extra', 'cluster-lb-backends-differ'],
  title: 'The same load balancers on every node',
  assumes: 'kube-proxy programs every Service port (and NodePort) on every node, with the same backends except ExternalTrafficPolicy Local NodePorts',
  run(c) {
    const out: ClusterFinding[] = [];
    const nodes = c.nodes.filter((n) => n.digest.kubeProxy && n.digest.counts.loadBalancers !== null);
    if (nodes.length < 2) return out;
    const byKey = new Map<string, Seen[]>();
    for (const n of nodes) {
      const l = n.digest.lbs;
      const seen = new Set<string>();
      for (const [i, key] of l.keys.entries()) {
        // The columns are filled together (digest.ts): a row short of one is skipped, never read as undefined.
        const dips = l.dips[i];
        const flags = l.flags[i];
        const line = l.lines[i];
        const file = l.files[i];
        if (seen.has(key) || dips === undefined || flags === undefined || line === undefined || file === undefined) continue;
        seen.add(key);
        byKey.set(key, [...(byKey.get(key) ?? []), { node: n, dips, flags, line, file }]);
      }
    }
    // Presence: group the missing keys by who lacks them and by Service, so one Service's ports are one finding.
    const missing = new Map<string, { keys: string[]; lacking: ClusterNode[]; having: Seen[] }>();
    const extra = new Map<string, { keys: string[]; having: Seen[] }>();
    for (const [key, seen] of byKey) {
      if (seen.length === nodes.length) continue;
      const having = new Set(seen.map((s) => s.node));
      const lacking = nodes.filter((n) => !having.has(n));
      // One finding per set of lacking nodes: a node that lost a Service lost its ClusterIP and NodePort load balancers alike.
      const group = lacking.map((n) => n.id).join(',');
      if (seen.length * 2 > nodes.length) {
        const g = missing.get(group) ?? { keys: [], lacking, having: seen };
        g.keys.push(key);
        missing.set(group, g);
      } else if (nodes.length >= 3 || seen.length === 1) {
        const g2 = `${serviceOf(key)}|${seen.map((s) => s.node.id).join(',')}`;
        const g = extra.get(g2) ?? { keys: [], having: seen };
        g.keys.push(key);
        extra.set(g2, g);
      }
    }
    for (const g of missing.values()) {
      const ids = g.lacking.map((n) => n.id);
      out.push({
        id: 'cluster-lb-missing',
        severity: 'error',
        area: 'lb',
        title: `${list(ids)} ${ids.length > 1 ? 'have' : 'has'} no load balancer for ${plural(g.keys.length, 'Service port')} (${list(g.keys, 4)}); ${g.having.length} of ${nodes.length} nodes have`,
        explanation: `kube-proxy programs every Service port on every node. ${plural(g.having.length, 'node')} (${list(g.having.map((s) => s.node.id))}) load-balance ${list(g.keys, 4)}; on ${list(ids)} nothing does, so pods there that call the Service get no answer (a ClusterIP is not routable) while the same call works from other nodes.`,
        fix: `Look at kube-proxy's log on ${list(ids)} for errors creating the load balancer ("Policy creation failed", HNS error codes), then restart kube-proxy there.`,
        objects: [...g.keys, ...ids],
        evidence: [...g.having.slice(0, 2).map((s) => nodeEv(c, s.node, { file: s.file, line: s.line }, vipOf(g.keys))), ...g.lacking.slice(0, 3).map((n) => nodeEv(c, n, { file: n.model?.meta.sources.loadBalancers?.[0] ?? n.digest.lbs.files[0] ?? 'policy.txt', line: 0 }))],
        nodes: { odd: ids, majority: g.having.map((s) => s.node.id), majorityValue: 'load-balanced', total: nodes.length },
        trace: serviceTrace(g.lacking[0], g.keys),
      });
    }
    for (const g of extra.values()) {
      const ids = g.having.map((s) => s.node.id);
      out.push({
        id: 'cluster-lb-extra',
        severity: 'warning',
        area: 'lb',
        title: `Only ${list(ids)} load-balance${ids.length > 1 ? '' : 's'} ${list(g.keys, 4)} (${g.having.length} of ${nodes.length} nodes)`,
        explanation: `Every node programs the same Services; ${list(g.keys, 4)} exists on ${plural(g.having.length, 'node')} only. Either the Service was deleted and ${ids.length > 1 ? 'these nodes keep' : 'this node keeps'} a stale load balancer, or the others miss it: the kubectl snapshot (kubectl get svc -A) says which.`,
        fix: 'If the Service is gone, restart kube-proxy on the nodes that still have it (it removes policies it no longer owns); otherwise see why the other nodes lack it.',
        objects: [...g.keys, ...ids],
        evidence: g.having.slice(0, 3).map((s) => nodeEv(c, s.node, { file: s.file, line: s.line })),
        nodes: { odd: ids, majority: nodes.filter((n) => !ids.includes(n.id)).map((n) => n.id), total: nodes.length },
      });
    }
    // Backends: the same DIPs everywhere (a node that load-balances to a pod the others dropped sends
    // part of the traffic nowhere; one that lacks a backend the others have gives it no traffic).
    const differ = new Map<string, { keys: string[]; node: ClusterNode; extra: string[]; lacking: string[]; majority: [Seen, ...Seen[]]; src: Seen }>();
    for (const [key, seen] of byKey) {
      if (seen.length < 2) continue;
      const compared = seen.filter((s) => !((s.flags & 1) && (s.flags & 2)));
      const counts = new Map<string, Seen[]>();
      for (const s of compared) counts.set(s.dips, [...(counts.get(s.dips) ?? []), s]);
      let best: Seen[] | undefined;
      for (const v of counts.values()) if (!best || v.length > best.length) best = v;
      if (!best || best.length < 2 || best.length * 2 <= compared.length) continue;
      const [ref, ...others] = best;
      if (!ref) continue;
      const majority: [Seen, ...Seen[]] = [ref, ...others];
      const want = new Set(ref.dips.split(',').filter(Boolean));
      for (const s of compared) {
        if (s.dips === ref.dips) continue;
        const have = new Set(s.dips.split(',').filter(Boolean));
        const extraDips = [...have].filter((d) => !want.has(d));
        const lackingDips = [...want].filter((d) => !have.has(d));
        const group = `${s.node.id}|${extraDips.join(',')}|${lackingDips.join(',')}`;
        const g = differ.get(group) ?? { keys: [], node: s.node, extra: extraDips, lacking: lackingDips, majority, src: s };
        g.keys.push(key);
        differ.set(group, g);
      }
    }
    for (const g of differ.values()) {
      const parts = [g.extra.length ? `also sends to ${list(g.extra, 4)}` : '', g.lacking.length ? `lacks ${list(g.lacking, 4)}` : ''].filter(Boolean).join(' and ');
      out.push({
        id: 'cluster-lb-backends-differ',
        severity: g.extra.length ? 'error' : 'warning',
        area: 'lb',
        title: `${g.node.id}'s load balancer for ${list(g.keys, 3)} ${parts} (${g.majority.length} nodes agree on the backends)`,
        explanation: `${plural(g.majority.length, 'node')} (${list(g.majority.map((s) => s.node.id))}) send ${list(g.keys, 3)} to ${list(g.majority[0].dips.split(','), 6)}. ${g.node.id} ${parts}${g.extra.length ? ': a backend only it still has is usually a pod that is gone, and its share of the traffic is lost' : ': that backend gets no traffic from pods on this node'}.`,
        fix: `Restart kube-proxy on ${g.node.id} so it resyncs the Service's endpoints; if it keeps happening, look at its log for HNS errors while updating load balancers.`,
        objects: [...g.keys, g.node.id, ...g.extra, ...g.lacking],
        evidence: [nodeEv(c, g.node, { file: g.src.file, line: g.src.line }), nodeEv(c, g.majority[0].node, { file: g.majority[0].file, line: g.majority[0].line })],
        nodes: { odd: [g.node.id], majority: g.majority.map((s) => s.node.id), majorityValue: g.majority[0].dips, total: g.majority.length + 1 },
      });
    }
    return out;
  },
};

/** A pod of the node that lacks the load balancer calling the Service's first ClusterIP port: the walk that shows it. */
function serviceTrace(n: ClusterNode | undefined, keys: string[]): ClusterFinding['trace'] {
  const src = n?.digest.localPods[0];
  if (!src) return undefined;
  for (const k of keys) {
    // `10.96.0.10:53/UDP` or `[fd00::10]:53/UDP` (digest.ts); node ports have no VIP to call.
    const m = /^\[?([^\]\s]+?)\]?:(\d+)\/(TCP|UDP)$/i.exec(k);
    if (m?.[1] && m[3]) return { srcIp: src, dstIp: m[1], dstPort: Number(m[2]), proto: m[3].toLowerCase() as 'tcp' | 'udp' };
  }
  return undefined;
}
