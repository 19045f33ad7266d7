// Findings from the Service states (service-states.ts) that no other check reports: a node port whose
// load balancer HNS has but for which no host port (the host vNIC's LB_HOST_ rule, the uplink's LB_ rule) holds a load-balancing rule, and an
// externalTrafficPolicy: Local node port with no local endpoint (no load balancer by design; said as
// info, since users take it for a fault: kubernetes/kubernetes#115783). The other states are reported
// by k8s.ts (no load balancer, backends) and lb-vfp.ts (a ClusterIP's VFP rule missing).
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { serviceStates } from './service-states.ts';
import { skewNote, snapshotMoments } from '../k8s/index.ts';

export const k8sServicesCheck: Check = {
  id: 'k8s-services',
  ids: ['k8s-nodeport-rule-missing', 'k8s-local-policy-no-endpoint'],
  title: 'Services realised on this node',
  platforms: 'any',
  assumes: 'kube-proxy programs a node port load balancer and HNS its LB_HOST_ rule on the host vNIC port (checked only where kube-proxy runs)',
  run(ctx) {
    if (!ctx.m.k8s || !ctx.kubeProxy) return [];
    const skew = skewNote(snapshotMoments(ctx.m));
    const out: Finding[] = [];
    for (const r of serviceStates(ctx)) {
      const who = `${r.namespace}/${r.name}`;
      if (r.state === 'node port rule missing') {
        out.push(ctx.hedge({
          id: 'k8s-nodeport-rule-missing', severity: skew.hedge ? 'warning' : 'error', area: 'k8s',
          title: `Service ${who} node port ${r.port}/${r.proto} has no VFP rule on the host ports`,
          explanation: `${r.detail} ${skew.text}`.trim(),
          fix: 'Restart kube-proxy so it recreates the load balancer (HNS writes the rule again); verify with `vfpctrl /port <host vNIC port> /layer SLB_NAT_LAYER /list-rule`.',
          objects: [`${r.port}/${r.proto}`, who],
          evidence: r.evidence,
        }, 'loadBalancers'));
      } else if (r.state === 'local policy, no local endpoint') {
        out.push({
          id: 'k8s-local-policy-no-endpoint', severity: 'info', area: 'k8s',
          title: `Service ${who} node port ${r.port}/${r.proto} is not served by this node (externalTrafficPolicy: Local, no local endpoint)`,
          explanation: `${r.detail} ${skew.text}`.trim(),
          fix: 'Expected if the external load balancer health-checks the node; otherwise run a backend on this node or use externalTrafficPolicy: Cluster.',
          objects: [`${r.port}/${r.proto}`, who],
          evidence: r.evidence,
        });
      }
    }
    return out;
  },
};
