// The pod's default gateway: on l2bridge the bridge endpoint (.2 of the pod subnet), on overlay the
// distributed router (.1) — seed Example #2. Checked in HNS (endpoint.txt) and in the pod's NIC (ip.txt).
import type { Finding } from '../inspect.ts';
import type { Check } from './types.ts';
import { intToIp, ipNum, ipRange, inRange } from './context.ts';
import { withPod } from '../k8s/index.ts';

export const gatewayCheck: Check = {
  id: 'pod-gateway',
  ids: ['pod-gateway-wrong'],
  title: 'Pod default gateway',
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    const nodeN = ipNum(ctx.nodeIp);
    for (const e of ctx.localPods) {
      const net = ctx.networkOf(e);
      const sub = ctx.subnetOf(e);
      const r = sub && ipRange(sub.prefix);
      if (!net || !r) continue;
      let expected: string;
      let role: string;
      if (net.type === 'overlay') {
        expected = intToIp(r.lo + 1);
        role = 'the distributed router (DR) vNIC at .1 of the pod subnet';
      } else if (net.type === 'l2bridge') {
        // Azure CNI / VNet-style l2bridge puts pods in the node's own subnet: their gateway is the subnet's.
        if (nodeN !== undefined && inRange(r, nodeN)) {
          if (!sub.gateway) continue;
          expected = sub.gateway;
          role = `the subnet gateway HNS has for ${sub.prefix}`;
        } else {
          expected = intToIp(r.lo + 2);
          role = 'the bridge endpoint (cbr0_ep) at .2 of the pod subnet';
        }
      } else continue;
      const wrong: { where: string; value: string; ev: ReturnType<typeof ctx.ev> }[] = [];
      if (e.gateway && e.gateway !== expected) wrong.push({ where: 'HNS endpoint', value: e.gateway, ev: ctx.ev(e.src, e.gateway) });
      const a = ctx.tc.adapterOf.get(e.id)?.adapter;
      if (a && a.gateways.length && !a.gateways.includes(expected)) {
        const g = a.gateways.find((x) => /^\d+\.\d+\.\d+\.\d+$/.test(x)) ?? a.gateways[0];
        if (g !== e.gateway || !wrong.length) wrong.push({ where: `pod NIC ${a.name}`, value: g, ev: ctx.ev(a.src, g, 60) });
        else wrong.push({ where: `pod NIC ${a.name}`, value: g, ev: ctx.ev(a.src, g, 60) });
      }
      if (!wrong.length) continue;
      out.push({
        id: 'pod-gateway-wrong',
        severity: 'error',
        area: 'hns',
        title: `Pod ${withPod(m, e.ip)} has gateway ${wrong[0].value}, expected ${expected}`,
        explanation: `On ${net.type} the pod's default gateway must be ${role} (${expected}). The ${wrong.map((w) => w.where).join(' and ')} say${wrong.length === 1 ? 's' : ''} ${[...new Set(wrong.map((w) => w.value))].join(', ')}, so traffic leaving the pod subnet is sent to an address that does not route it: pod → service, pod → other node and pod → outside fail.`,
        fix: `Fix the gateway the CNI hands out (win-bridge/win-overlay: the ipam \`routes\`/\`gateway\` of the CNI config; flannel: let flanneld rewrite the config), then recreate the pod so its endpoint is created again (\`kubectl delete pod\`). Check with \`Get-HnsEndpoint -Id ${e.id} | ConvertTo-Json\` (GatewayAddress) and \`ipconfig /all\` inside the pod.`,
        objects: [e.id, e.ip ?? '', wrong[0].value, expected],
        evidence: wrong.map((w) => w.ev),
        trace: e.ip ? { srcIp: e.ip, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' } : undefined,
      });
    }
    return out;
  },
};
