// internalTrafficPolicy: Local on this node. Kubernetes' meaning (kubernetes/enhancements
// keps/sig-network/2086-service-internal-traffic-policy): traffic from a pod to the ClusterIP goes only
// to endpoints on the pod's own node, and is dropped when the node has none.
//
// What kube-proxy on Windows does (kubernetes/kubernetes pkg/proxy/winkernel/proxier.go,
// syncProxyRules): it leaves a remote endpoint out of the load balancer only when
// `svcInfo.internalTrafficLocal && svcInfo.localTrafficDSR && !ep.IsLocal()` — localTrafficDSR is set
// when externalTrafficPolicy is Local and HNS supports DSR (newServiceInfo). So with
// internalTrafficPolicy: Local alone, the ClusterIP load balancer keeps every ready backend and pods here
// reach remote ones: the policy is not honoured. With both policies Local and DSR, a node with no local
// endpoint gets no load balancer (`len(hnsEndpoints) == 0 … continue`), so its pods get no answer.
// Only where kube-proxy programs HNS load balancers (ctx.kubeProxy); other plugins handle Services
// themselves.
import type { Finding, FindingEvidence } from '../findings/types.ts';
import type { Check } from './types.ts';
import { serviceIntents } from '../k8s/index.ts';
import { localReady } from './service-states.ts';
import { plural } from '../../parsers/text/quantities.ts';

export const internalTrafficPolicyCheck: Check = {
  id: 'k8s-internal-traffic-policy',
  ids: ['k8s-internal-local-no-endpoint', 'k8s-internal-local-remote-backends'],
  title: 'internalTrafficPolicy: Local',
  platforms: 'any',
  assumes: 'kube-proxy (winkernel) programs one HNS load balancer per ClusterIP:port (checked only where kube-proxy runs)',
  run(ctx) {
    const { m } = ctx;
    if (!m.k8s || !ctx.kubeProxy || !m.loadBalancers) return [];
    const out: Finding[] = [];
    const localIps = new Set(ctx.localPods.map((e) => e.ip).filter(Boolean));
    for (const it of serviceIntents(m)) {
      const svc = it.service;
      if (it.nodePort || svc.internalTrafficPolicy !== 'Local' || !it.ready.length) continue;
      const who = `${svc.namespace}/${svc.name}`;
      const where = `${it.vip}:${it.port}/${it.protocol}`;
      const local = localReady(ctx, it);
      const localSet = new Set([...local, ...localIps]);
      const svcEv: FindingEvidence = { file: svc.src.file, line: svc.src.line, text: `Service ${who} ${where} internalTrafficPolicy: Local` };
      const remote = it.lb ? it.hnsDips.filter((ip) => !localSet.has(ip)) : [];
      if (it.lb && remote.length) {
        // Whether winkernel would have dropped them: only with externalTrafficPolicy Local and DSR.
        const shouldDrop = svc.externalTrafficPolicy === 'Local' && it.lb.dsr;
        out.push({
          id: 'k8s-internal-local-remote-backends', severity: 'warning', area: 'k8s',
          title: `Service ${who} ${where} says internalTrafficPolicy: Local, but this node load-balances it to other nodes`,
          explanation: `HNS load balancer ${it.lb.id} for ${where} sends to ${remote.slice(0, 4).join(', ')}${remote.length > 4 ? ', …' : ''}, which ${remote.length === 1 ? 'is' : 'are'} not on this node, although internalTrafficPolicy: Local means pods here should reach only local endpoints${local.length ? ` (${local.join(', ')})` : ' (there is none)'}. ${shouldDrop
            ? 'With externalTrafficPolicy: Local and DSR, kube-proxy on Windows leaves remote endpoints out, so this load balancer is out of date.'
            : 'Kube-proxy on Windows honours internalTrafficPolicy: Local only when externalTrafficPolicy is also Local and DSR is on; otherwise it keeps every ready backend, as here.'}`,
          fix: shouldDrop
            ? 'Restart kube-proxy on this node so it rebuilds the load balancer; check with `hnsdiag list loadbalancers -d`.'
            : 'If pods must stay on their node, set externalTrafficPolicy: Local as well and run kube-proxy with DSR (`--enable-dsr=true`, feature gate WinDSR); otherwise expect cross-node traffic from this node.',
          objects: [`${it.vip}:${it.port}`, who, ...remote.slice(0, 4)],
          evidence: [svcEv, ctx.ev(it.lb.src, it.vip, 400)],
        });
      } else if (!local.length) {
        out.push({
          id: 'k8s-internal-local-no-endpoint', severity: 'warning', area: 'k8s',
          title: `Service ${who} ${where} has internalTrafficPolicy: Local and no ready endpoint on this node`,
          explanation: `${it.ready.length === 1 ? 'Its one ready backend' : `None of its ${plural(it.ready.length, 'ready backend')}`} (${it.ready.slice(0, 4).join(', ')}${it.ready.length > 4 ? ', …' : ''}) ${it.ready.length === 1 ? 'does not run' : 'runs'} on this node${it.lb ? '' : ', and HNS here has no load balancer for it'}: with internalTrafficPolicy: Local, connections from this node's pods to ${where} are dropped (by design, but often a surprise).`,
          fix: 'Run a backend on this node (a DaemonSet, or a node selector), or set internalTrafficPolicy: Cluster.',
          objects: [`${it.vip}:${it.port}`, who],
          evidence: it.lb ? [svcEv, ctx.ev(it.lb.src, it.vip, 400)] : [svcEv, ctx.absent(m.meta.sources.loadBalancers?.[0] ?? 'policy.txt', `no load balancer for ${where}`)],
        });
      }
    }
    return out;
  },
};
