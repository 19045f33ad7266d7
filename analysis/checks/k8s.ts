// Kubernetes intent (kubectl snapshot) against what the node programmed: every ClusterIP service
// port with ready backends needs an HNS load balancer; its backends should be the EndpointSlice's.
import type { Finding } from '../inspect.ts';
import type { Check } from './types.ts';
import { protoName } from '../k8s/index.ts';

const PROTO: Record<string, number> = { TCP: 6, UDP: 17, SCTP: 132 };

export const k8sCheck: Check = {
  id: 'k8s',
  ids: ['k8s-service-no-lb', 'k8s-backends-drift', 'k8s-pod-no-endpoint'],
  title: 'Kubernetes intent',
  platforms: 'any',
  assumes: "kube-proxy programs one HNS load balancer per Service port with the Service's ready backends (only where kube-proxy runs)",
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    const snap = m.k8s;
    if (!snap || !m.loadBalancers) return out;
    const epById = new Map((m.endpoints ?? []).map((e) => [e.id.toLowerCase(), e]));
    const slicesOf = (ns: string, name: string) => snap.endpointSlices.filter((s) => s.namespace === ns && s.serviceName === name);
    const pod0 = ctx.localPods[0];
    for (const svc of ctx.kubeProxy ? snap.services : []) {
      if (!svc.clusterIps.length || svc.type === 'ExternalName') continue;
      const slices = slicesOf(svc.namespace, svc.name);
      const ready = [...new Set(slices.flatMap((s) => s.endpoints.filter((e) => e.ready).flatMap((e) => e.addresses)))];
      // kube-proxy on Windows creates no load balancer for a service without ready endpoints.
      if (!ready.length) continue;
      for (const vip of svc.clusterIps.filter((v) => !v.includes(':'))) {
        for (const p of svc.ports) {
          const proto = PROTO[p.protocol] ?? 6;
          const lb = m.loadBalancers.find((l) => l.vips.includes(vip) && l.ports.some((x) => x.externalPort === p.port && x.protocol === proto));
          const what = `${vip}:${p.port}/${protoName(proto)} (${svc.namespace}/${svc.name})`;
          if (!lb) {
            out.push(ctx.hedge({
              id: 'k8s-service-no-lb', severity: 'error', area: 'k8s',
              title: `Service ${svc.namespace}/${svc.name} port ${p.port}/${p.protocol} has no HNS load balancer`,
              explanation: `Kubernetes has ClusterIP ${what} with ${ready.length} ready backend(s) (${ready.slice(0, 4).join(', ')}), but HNS on this node has no load balancer for it: pods here cannot reach the service.`,
              fix: 'Restart kube-proxy on this node and watch its log for errors creating the policy (HNS errors, `--hostname-override`, `--network-name`); verify with `hnsdiag list loadbalancers`.',
              objects: [`${vip}:${p.port}/${protoName(proto)}`, `${svc.namespace}/${svc.name}`],
              evidence: [{ file: svc.src.file, line: svc.src.line, text: `Service ${svc.namespace}/${svc.name} ${svc.type} ${vip} ports ${svc.ports.map((x) => `${x.port}/${x.protocol}`).join(',')}` }, ctx.absent(m.meta.sources.loadBalancers?.[0] ?? 'policy.txt', `no load balancer for ${vip}:${p.port}/${protoName(proto)}`)],
              trace: pod0?.ip ? { srcIp: pod0.ip, dstIp: vip, dstPort: p.port, proto: proto === 17 ? 'udp' : 'tcp' } : undefined,
            }, 'loadBalancers', 'endpoints'));
            continue;
          }
          const dips = new Set(lb.endpointIds.map((id) => epById.get(id.toLowerCase())?.ip).filter((x): x is string => !!x));
          const missing = ready.filter((ip) => !dips.has(ip));
          const extra = [...dips].filter((ip) => !ready.includes(ip));
          if (!missing.length && !extra.length) continue;
          out.push(ctx.hedge({
            id: 'k8s-backends-drift', severity: extra.length ? 'error' : 'warning', area: 'k8s',
            title: `Backends of ${svc.namespace}/${svc.name} ${vip}:${p.port} differ from its EndpointSlice`,
            explanation: `EndpointSlice ready addresses: ${ready.join(', ')}. HNS load balancer ${lb.id} sends to: ${[...dips].join(', ') || 'none'}.${extra.length ? ` Not ready / gone in Kubernetes but still load-balanced here: ${extra.join(', ')} (connections to them fail).` : ''}${missing.length ? ` Ready but not load-balanced here: ${missing.join(', ')}.` : ''} kube-proxy on this node is behind (or failing to update HNS).`,
            fix: 'Restart kube-proxy and check its log; compare with `kubectl get endpointslices -n ' + svc.namespace + ' -l kubernetes.io/service-name=' + svc.name + '`.',
            objects: [what, lb.id, ...extra, ...missing],
            evidence: [{ file: svc.src.file, line: svc.src.line, text: `Service ${svc.namespace}/${svc.name} ${vip}` }, ctx.ev(lb.src, vip, 400)],
            trace: pod0?.ip ? { srcIp: pod0.ip, dstIp: vip, dstPort: p.port, proto: proto === 17 ? 'udp' : 'tcp' } : undefined,
          }, 'loadBalancers', 'endpoints'));
        }
      }
    }
    // Pods scheduled to this node with an IP but no local endpoint.
    const host = (m.meta.hostName ?? '').toLowerCase();
    if (host && m.endpoints) {
      const local = new Set(m.endpoints.filter((e) => !e.isRemote && e.ip).map((e) => e.ip));
      const lost = snap.pods.filter((p) => !p.hostNetwork && p.phase === 'Running' && p.nodeName?.toLowerCase() === host && p.ips.some((ip) => !ip.includes(':')) && !p.ips.some((ip) => local.has(ip)));
      if (lost.length) {
        out.push(ctx.hedge({
          id: 'k8s-pod-no-endpoint', severity: 'warning', area: 'k8s',
          title: `${lost.length} running pod(s) of this node have no HNS endpoint`,
          explanation: `Kubernetes says ${lost.slice(0, 5).map((p) => `${p.namespace}/${p.name} (${p.ips[0]})`).join(', ')} run on ${m.meta.hostName}, but HNS has no local endpoint with their IP: their network was removed (HNS restart, CNI DEL) while the pod kept running.`,
          fix: 'Delete those pods so they are recreated with a network; look for HNS restarts in the event log.',
          objects: lost.slice(0, 20).map((p) => `${p.namespace}/${p.name}`),
          evidence: lost.slice(0, 3).map((p) => ({ file: p.src.file, line: p.src.line, text: `Pod ${p.namespace}/${p.name} ${p.ips.join(',')} on ${p.nodeName}` })),
        }, 'loadBalancers', 'endpoints'));
      }
    }
    return out;
  },
};
