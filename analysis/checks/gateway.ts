// The pod's default gateway, as the node's own network plugin sets it (analysis/platform/facts.ts):
// .2 (the host-attached bridge endpoint) on Flannel host-gw and Calico BGP, .1 (a virtual router or
// antrea-gw0) on Flannel VXLAN, Calico VXLAN, Azure CNI Overlay, Antrea and OVN-Kubernetes, the HNS
// subnet's own gateway (the VNet/VPC router) on Azure CNI and EKS. Checked in HNS (endpoint.txt) and in
// the pod's NIC (ip.txt).
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { intToIp, ipRange } from './context.ts';
import { withPod } from '../k8s/index.ts';
import { pluginsWhere } from '../platform/index.ts';

export const gatewayCheck: Check = {
  id: 'pod-gateway',
  ids: ['pod-gateway-wrong'],
  title: 'Pod default gateway',
  platforms: pluginsWhere((f) => !!f.gateway),
  assumes: "the pod's gateway is the address the plugin's own code gives it (.2 bridge endpoint, .1 router, or the VNet/VPC subnet gateway)",
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    const rule = ctx.facts?.gateway;
    if (!rule) return out;
    for (const e of ctx.localPods) {
      const net = ctx.networkOf(e);
      const sub = ctx.subnetOf(e);
      const r = sub && ipRange(sub.prefix);
      if (!net || !r) continue;
      const expected = rule.rule === 'dot2' ? intToIp(r.lo + 2) : rule.rule === 'dot1' ? intToIp(r.lo + 1) : sub.gateway;
      if (!expected) continue;
      const wrong: { where: string; value: string; ev: ReturnType<typeof ctx.ev> }[] = [];
      if (e.gateway && e.gateway !== expected) wrong.push({ where: 'HNS endpoint', value: e.gateway, ev: ctx.ev(e.src, e.gateway) });
      const a = ctx.tc.adapterOf.get(e.id)?.adapter;
      if (a && a.gateways.length && !a.gateways.includes(expected)) {
        const g = a.gateways.find((x) => /^\d+\.\d+\.\d+\.\d+$/.test(x)) ?? a.gateways[0];
        if (g) wrong.push({ where: `pod NIC ${a.name}`, value: g, ev: ctx.ev(a.src, g, 60) });
      }
      const [first] = wrong;
      if (!first) continue;
      const plugin = ctx.platform.label;
      out.push({
        id: 'pod-gateway-wrong',
        severity: 'error',
        area: 'hns',
        title: `Pod ${withPod(m, e.ip)} has gateway ${first.value}, expected ${expected}`,
        explanation: `On ${plugin} the pod's default gateway is ${rule.rule === 'hns-gateway' ? `the gateway HNS has for ${sub.prefix}` : rule.rule === 'dot2' ? `.2 of the pod subnet` : `.1 of the pod subnet`} (${expected}): ${rule.owner} (${rule.source}). The ${wrong.map((w) => w.where).join(' and ')} say${wrong.length === 1 ? 's' : ''} ${[...new Set(wrong.map((w) => w.value))].join(', ')}, so traffic leaving the pod subnet is sent to an address that does not route it: pod → service, pod → other node and pod → outside fail.`,
        fix: `Fix the gateway the CNI hands out (${ctx.facts?.family === 'flannel' ? 'flannel: the delegate\'s ipam / `forceBridgeGateway` of sdnbridge, or let flanneld rewrite the config' : 'the plugin\'s ipam settings in its CNI config'}), then recreate the pod so its endpoint is created again (\`kubectl delete pod\`). Check with \`Get-HnsEndpoint -Id ${e.id} | ConvertTo-Json\` (GatewayAddress) and \`ipconfig /all\` inside the pod.`,
        objects: [e.id, e.ip ?? '', first.value, expected],
        evidence: wrong.map((w) => w.ev),
        trace: e.ip ? { srcIp: e.ip, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' } : undefined,
      });
    }
    return out;
  },
};
