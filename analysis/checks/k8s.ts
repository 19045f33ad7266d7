// Kubernetes intent (kubectl snapshot) against what the node programmed (analysis/k8s/intent.ts):
// every Service port with ready backends needs an HNS load balancer (ClusterIP and NodePort, each
// protocol of a port); its DIPs — in HNS and in the VFP LB rule — must be the Service's backends: a
// DIP no Running pod holds is stale (its share of the traffic is black-holed), a ready backend that is
// missing gets no traffic from this node. Running pods of this node need a local HNS endpoint.
import type { Finding, FindingEvidence } from '../findings/types.ts';
import type { Check } from './types.ts';
import { podIntent, protoName, serviceIntents, skewNote, snapshotMoments, type ServiceIntent } from '../k8s/index.ts';
import { vfpLbDips, vfpNodePortDips } from './vfp-lb-dips.ts';
import { plural } from '../../parsers/text/quantities.ts';

export const k8sCheck: Check = {
  id: 'k8s',
  ids: ['k8s-service-no-lb', 'k8s-backends-drift', 'k8s-pod-no-endpoint', 'k8s-endpoint-no-pod'],
  title: 'Kubernetes intent',
  platforms: 'any',
  assumes: "kube-proxy programs one HNS load balancer per Service port with the Service's ready backends (checked only where kube-proxy runs); every Running pod of the node has a local HNS endpoint",
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    const snap = m.k8s;
    if (!snap) return out;
    const pod0 = ctx.localPods[0];
    const svcEv = (s: ServiceIntent['service'], text: string): FindingEvidence => ({ file: s.src.file, line: s.src.line, text });
    // VFP DIPs of a VIP:port: one pod port's LB rules, indexed once (every pod port carries the same list).
    const vfpDips = m.vfp ? (vip: string, port: number, proto: number, np?: { lbVips: string[] }) => (np ? vfpNodePortDips(ctx, port, proto, np.lbVips) : vfpLbDips(ctx, vip, port, proto)) : undefined;
    // The snapshot and the bundle may not be of the same moment: said in every finding that compares them.
    const skew = skewNote(snapshotMoments(m));
    const atMoment = (f: Finding): Finding => (skew.hedge && f.severity === 'error' ? { ...f, severity: 'warning', undecided: true, explanation: `${f.explanation} ${skew.text}` } : skew.text ? { ...f, explanation: `${f.explanation} ${skew.text}` } : f);
    if (ctx.kubeProxy && m.loadBalancers) {
      for (const it of serviceIntents(m, vfpDips)) {
        const svc = it.service;
        const who = `${svc.namespace}/${svc.name}`;
        const proto = it.protocol === 'UDP' ? 17 : 6;
        const what = it.nodePort ? `NodePort ${it.port}/${it.protocol} (${who})` : `${it.vip}:${it.port}/${protoName(proto)} (${who})`;
        // kube-proxy on Windows creates no load balancer for a Service without ready endpoints, and a
        // NodePort one with externalTrafficPolicy Local only when a backend runs here.
        if (!it.ready.length) continue;
        const trace = pod0?.ip && !it.nodePort ? { srcIp: pod0.ip, dstIp: it.vip, dstPort: it.port, proto: (proto === 17 ? 'udp' : 'tcp') as 'udp' | 'tcp' } : undefined;
        if (!it.lb) {
          if (it.nodePort && svc.externalTrafficPolicy === 'Local') continue;
          out.push(atMoment(ctx.hedge({
            id: 'k8s-service-no-lb',
            severity: it.nodePort ? 'warning' : 'error',
            area: 'k8s',
            title: `Service ${who} ${it.nodePort ? `node port ${it.port}` : `port ${it.port}`}/${it.protocol} has no HNS load balancer`,
            explanation: `Kubernetes has ${what} with ${plural(it.ready.length, 'ready backend')} (${it.ready.slice(0, 4).join(', ')}, from its ${it.source}), but HNS on this node has no load balancer for it: ${it.nodePort ? 'connections to this node on that port are not forwarded.' : 'pods here cannot reach the service.'}`,
            fix: 'Restart kube-proxy on this node and watch its log for errors creating the policy (HNS errors, `--hostname-override`, `--network-name`); verify with `hnsdiag list loadbalancers`.',
            objects: [it.nodePort ? `${it.port}/${it.protocol}` : `${it.vip}:${it.port}/${protoName(proto)}`, who],
            evidence: [svcEv(svc, `Service ${who} ${svc.type} ${svc.clusterIps.join(',')} ports ${svc.ports.map((x) => `${x.port}${x.nodePort ? `:${x.nodePort}` : ''}/${x.protocol}`).join(',')}`), ctx.absent(m.meta.sources.loadBalancers?.[0] ?? 'policy.txt', `no load balancer for ${what}`)],
            trace,
          }, 'loadBalancers', 'endpoints')));
          continue;
        }
        // A VFP DIP whose HNS endpoint is gone is the stale-DIP case lb-stale-dip reports from HNS.
        const dangling = m.joins.loadBalancers.find((j) => j.loadBalancerId === it.lb!.id)?.dangling.length ?? 0;
        if (dangling) it.stale = it.stale.filter((ip) => it.hnsDips.includes(ip));
        if (!it.stale.length && !it.notBackend.length && !it.missing.length) continue;
        const vfpOnly = it.vfp ? it.stale.filter((ip) => !it.hnsDips.includes(ip)) : [];
        const vfpPort = it.vfp ? `${it.nodePort ? 'the host vNIC port' : 'port'} ${it.vfp.port}` : '';
        // Only a stale DIP VFP still holds black-holes traffic; one HNS alone lists is out-of-date state.
        // Without the VFP rule in the bundle, HNS's DIPs are taken as what VFP was programmed with.
        const blackHoled = it.vfp ? it.stale.filter((ip) => it.vfp!.ips.includes(ip)) : it.stale;
        const hnsOnly = it.stale.filter((ip) => !blackHoled.includes(ip));
        const parts = [
          blackHoled.length
            ? `Load-balanced to ${blackHoled.join(', ')}, which no Running pod holds${vfpOnly.length ? ` (${vfpOnly.join(', ')} only in the VFP rule on ${vfpPort})` : ''}: the connections hashed there are black-holed${it.vfp ? '' : m.vfp ? ` (hnsight found no VFP load-balancing rule for it${it.nodePort ? ' on the host vNIC port' : ' on the pod ports'} to confirm that VFP still holds them)` : ' (the bundle has no VFP rule dump to confirm that VFP still holds them)'}.`
            : '',
          hnsOnly.length ? `HNS still lists ${hnsOnly.join(', ')}, which no Running pod holds, but the VFP rule on ${vfpPort} no longer sends to ${hnsOnly.length > 1 ? 'them' : 'it'}: nothing is black-holed now; the HNS load balancer is out of date.` : '',
          it.notBackend.length ? `Load-balanced to ${it.notBackend.join(', ')}, a Running pod that is not a ready backend of the Service.` : '',
          it.missing.length ? `Ready ${it.missing.length === 1 ? 'backend' : 'backends'} ${it.missing.join(', ')} ${it.missing.length === 1 ? 'gets' : 'get'} no traffic from this node.` : '',
        ].filter(Boolean);
        out.push(atMoment(ctx.hedge({
          id: 'k8s-backends-drift',
          severity: blackHoled.length ? 'error' : 'warning',
          area: 'k8s',
          title: blackHoled.length ? `${who} ${it.nodePort ? `node port ${it.port}` : `${it.vip}:${it.port}`} sends traffic to ${blackHoled.join(', ')}, which no Running pod holds` : `Backends of ${who} ${it.nodePort ? `node port ${it.port}` : `${it.vip}:${it.port}`} differ from its ${it.source}`,
          explanation: `${it.source === 'selector' ? 'The Running pods its selector picks' : 'The EndpointSlice ready addresses'}: ${it.ready.join(', ')}. HNS load balancer ${it.lb.id} sends to: ${it.hnsDips.join(', ') || 'none'}${it.vfp ? `; the VFP rule on ${vfpPort} to ${it.vfp.ips.join(', ')}` : ''}. ${parts.join(' ')} kube-proxy on this node is behind (or failing to update HNS).`,
          fix: `Restart kube-proxy and check its log; compare with \`kubectl get endpointslices -n ${svc.namespace} -l kubernetes.io/service-name=${svc.name}\`.`,
          objects: [what, it.lb.id, ...it.stale, ...it.notBackend, ...it.missing],
          evidence: [svcEv(svc, `Service ${who} ${it.vip || `NodePort ${it.port}`}`), ctx.ev(it.lb.src, it.vip || String(it.port), 400), ...(it.vfp?.src && vfpOnly.length ? [ctx.ev(it.vfp.src, vfpOnly[0], 40)] : [])],
          trace,
        }, 'loadBalancers', 'endpoints')));
      }
    }
    // Running pods of this node against the local HNS endpoints.
    const pi = podIntent(m);
    if (m.endpoints && pi.withoutEndpoint.length) {
      const lost = pi.withoutEndpoint;
      out.push(ctx.hedge({
        id: 'k8s-pod-no-endpoint', severity: 'warning', area: 'k8s',
        title: `${plural(lost.length, 'running pod')} of this node ${lost.length === 1 ? 'has' : 'have'} no HNS endpoint`,
        explanation: `Kubernetes says ${lost.slice(0, 5).map((p) => `${p.namespace}/${p.name} (${p.ips[0]})`).join(', ')} run on ${pi.node?.name ?? m.meta.hostName}${pi.node ? ` (the node with address ${pi.node.addresses.find((a) => a.type === 'InternalIP')?.address ?? pi.node.addresses[0]?.address})` : ''}, but HNS has no local endpoint with their IP: their network was removed (HNS restart, CNI DEL) while the pod kept running.`,
        fix: 'Delete those pods so they are recreated with a network; look for HNS restarts in the event log.',
        objects: lost.slice(0, 20).map((p) => `${p.namespace}/${p.name}`),
        evidence: lost.slice(0, 3).map((p) => ({ file: p.src.file, line: p.src.line, text: `Pod ${p.namespace}/${p.name} ${p.ips.join(',')} on ${p.nodeName}` })),
      }, 'loadBalancers', 'endpoints'));
    }
    const podIds = new Set(ctx.localPods.map((e) => e.id));
    const orphans = pi.withoutPod.filter((e) => podIds.has(e.id));
    if (orphans.length) {
      out.push(ctx.hedge({
        id: 'k8s-endpoint-no-pod', severity: 'warning', area: 'k8s',
        title: `${plural(orphans.length, 'local pod endpoint')} ${orphans.length === 1 ? 'holds' : 'hold'} an IP no pod has`,
        explanation: `HNS ${orphans.length === 1 ? 'endpoint' : 'endpoints'} ${orphans.slice(0, 5).map((e) => `${e.name} (${e.ip})`).join(', ')} are local pod endpoints, but no pod in the kubectl snapshot has their IP: left over from deleted pods (a CNI DEL that did not run), they keep the address reserved and may still be behind load balancers. (The snapshot and the bundle may have been taken at different times.)`,
        fix: 'If no container uses them (`hcsdiag list`, `crictl pods`), remove them with `Remove-HnsEndpoint` and check the CNI plugin log for failed DEL calls.',
        objects: orphans.slice(0, 20).map((e) => e.id),
        evidence: orphans.slice(0, 3).map((e) => ctx.ev(e.src, e.ip)),
      }, 'endpoints'));
    }
    return out;
  },
};
