// Cluster DNS (the Windows troubleshooting guide's DNS example): the DNS VIP needs a load balancer on UDP 53 and TCP 53, and the pods'
// NICs must use the DNS VIP as their DNS server.
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { covers, ipNum, ipRange } from './context.ts';
import { k8sNames, withPod, withService } from '../k8s/index.ts';
import { pluginsWhere } from '../platform/index.ts';
import { plural } from '../../parsers/text/quantities.ts';

export const dnsCheck: Check = {
  id: 'dns',
  ids: ['dns-vip-no-lb', 'pod-dns-not-vip', 'dns-undecided'],
  title: 'Cluster DNS',
  platforms: pluginsWhere((f) => f.dns.fromRuntime),
  assumes: "pods resolve through the kube-dns Service VIP the runtime passes to the CNI (kubelet --cluster-dns); the VIP's load balancer is checked only where kube-proxy programs HNS load balancers",
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    const pods = ctx.localPods;
    if (!pods.length) return out;
    const lbs = m.loadBalancers ?? [];
    const has = (vip: string, proto: number) => lbs.some((l) => l.vips.includes(vip) && l.ports.some((p) => p.externalPort === 53 && p.protocol === proto));
    // The DNS VIP: kube-dns from kubectl, else the DNS server most pods use when it is a service address.
    const kubeDns = (m.k8s?.services ?? []).find((s) => s.namespace === 'kube-system' && /^(kube-dns|coredns)$/.test(s.name) && s.clusterIps.length);
    const serversOf = (e: (typeof pods)[number]) => {
      const a = ctx.tc.adapterOf.get(e.id)?.adapter;
      return { hns: e.dnsServers, nic: a?.dnsServers ?? [], adapter: a };
    };
    const tally = new Map<string, number>();
    for (const e of pods) for (const s of new Set([...serversOf(e).hns, ...serversOf(e).nic])) tally.set(s, (tally.get(s) ?? 0) + 1);
    const serviceRanges = pods.flatMap((e) => e.routes.filter((r) => r.needEncap !== false).map((r) => ipRange(r.destinationPrefix))).filter((r): r is NonNullable<typeof r> => !!r);
    let dnsVips: string[] = kubeDns?.clusterIps ?? [];
    let from = kubeDns ? `Service ${kubeDns.namespace}/${kubeDns.name}` : '';
    if (!dnsVips.length) {
      const top = [...tally.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
      const n = ipNum(top);
      const isVip = !!top && (lbs.some((l) => l.vips.includes(top)) || (n !== undefined && serviceRanges.some((r) => covers(r, { lo: n, hi: n }))));
      if (top && isVip) {
        dnsVips = [top];
        from = 'the DNS server the pods use';
      } else {
        const lb53 = lbs.find((l) => l.ports.some((p) => p.externalPort === 53 && p.protocol === 17) && l.vips.some((v) => !ctx.tc.hostIps.has(v)));
        if (lb53) {
          dnsVips = lb53.vips.filter((v) => !ctx.tc.hostIps.has(v));
          from = 'the load balancer on UDP 53';
        }
      }
    }
    if (!dnsVips.length) {
      out.push({ id: 'dns-undecided', severity: 'info', area: 'dns', undecided: true, title: 'Cluster DNS VIP unknown', explanation: 'No kube-dns Service (kubectl snapshot), no load balancer on UDP 53 and no pod DNS server that is a service address: the DNS checks were skipped.', fix: 'Add `kubectl get pods,svc,endpointslices -A -o json > k8s.json` to the bundle folder.', objects: [], evidence: [] });
      return out;
    }
    if (m.loadBalancers && ctx.kubeProxy) {
      for (const vip of dnsVips) {
        const miss = [has(vip, 17) ? '' : 'UDP 53', has(vip, 6) ? '' : 'TCP 53'].filter(Boolean);
        if (!miss.length) continue;
        const udp = miss.includes('UDP 53');
        const e0 = ctx.traceSource(pods.filter((e) => e.dnsServers.includes(vip))) ?? ctx.traceSource(pods)!;
        out.push(ctx.hedge({
          id: 'dns-vip-no-lb',
          severity: udp ? 'error' : 'warning',
          area: 'dns',
          title: `DNS VIP ${withService(m, vip)} has no load balancer on ${miss.join(' and ')}`,
          explanation: `${from} makes ${vip} the cluster DNS VIP, but HNS has no load balancer for ${vip} on ${miss.join(' and ')}. ${udp ? 'DNS queries from pods go to a VIP nobody translates and time out: name resolution fails in every pod.' : 'UDP queries work, but answers too large for UDP (truncated, retried over TCP) fail.'}`,
          fix: 'kube-proxy programs the DNS load balancers when the kube-dns Service has ready endpoints: check `kubectl -n kube-system get endpointslices -l kubernetes.io/service-name=kube-dns`, then restart kube-proxy on this node and verify with `hnsdiag list loadbalancers` (or Get-HnsPolicyList) that the VIP has UDP and TCP 53.',
          objects: miss.map((x) => `${vip}:53/${x.split(' ')[0]}`),
          evidence: [ctx.ev(e0.src, vip), ...(m.meta.sources.loadBalancers?.[0] ? [ctx.absent(m.meta.sources.loadBalancers[0], `no load balancer with VIP ${vip} on ${miss.join(' and ')}`)] : [])],
          trace: e0.ip ? { srcIp: e0.ip, dstIp: vip, dstPort: 53, proto: udp ? 'udp' : 'tcp' } : undefined,
        }, 'loadBalancers', 'ip'));
      }
    }
    // A pod whose spec asks for other servers gets them on purpose: dnsPolicy Default takes the node's
    // (kubelet getPodDNSType → podDNSHost, pkg/kubelet/network/dns), None its own dnsConfig.
    const names = k8sNames(m);
    const ownDns = (e: (typeof pods)[number]) => /^(Default|None)$/.test(names.podByIp(e.ip)?.dnsPolicy ?? '');
    const wrong = pods.filter((e) => {
      const s = serversOf(e);
      const list = s.nic.length ? s.nic : s.hns;
      return list.length > 0 && !list.some((x) => dnsVips.includes(x)) && !ownDns(e);
    });
    const none = pods.filter((e) => !serversOf(e).nic.length && !serversOf(e).hns.length && ctx.tc.adapterOf.has(e.id));
    const [w0] = wrong;
    if (w0) {
      const s0 = serversOf(w0);
      const shown = s0.nic.length ? s0.nic : s0.hns;
      out.push(ctx.hedge({
        id: 'pod-dns-not-vip',
        severity: 'error',
        area: 'dns',
        title: `${plural(wrong.length, 'pod')} ${wrong.length === 1 ? 'uses' : 'use'} DNS server ${shown.join(', ')} instead of the DNS VIP ${dnsVips.join(', ')}`,
        explanation: `The DNS VIP is ${dnsVips.join(', ')} (${from}), but ${wrong.map((e) => withPod(m, e.ip)).slice(0, 5).join(', ')}${wrong.length > 5 ? ' …' : ''} resolve names through ${shown.join(', ')}: cluster names (*.svc.cluster.local) do not resolve in those pods.${names.present ? '' : ' A pod with dnsPolicy Default or None gets other servers on purpose; this bundle has no kubectl snapshot to tell.'}`,
        fix: 'The pod DNS comes from the CNI config (`dns.Nameservers`, or the runtime config kubelet passes when `capabilities.dns` is true: kubelet `--cluster-dns`). Correct it, then recreate the pods. Check inside a pod with `ipconfig /all` / `Get-DnsClientServerAddress`.',
        // The wrong servers first: they are what the reader has to change.
        objects: [...new Set(wrong.flatMap((e) => (serversOf(e).nic.length ? serversOf(e).nic : serversOf(e).hns)))].concat(dnsVips, wrong.slice(0, 20).map((e) => e.id)),
        evidence: wrong.slice(0, 3).map((e) => {
          const a = serversOf(e).adapter;
          return a && serversOf(e).nic.length ? ctx.ev(a.src, serversOf(e).nic[0], 60) : ctx.ev(e.src, shown[0]);
        }),
        trace: w0.ip && dnsVips[0] ? { srcIp: w0.ip, dstIp: dnsVips[0], dstPort: 53, proto: 'udp' } : undefined,
      }, 'loadBalancers', 'ip'));
    }
    if (none.length) {
      out.push(ctx.hedge({
        id: 'pod-dns-not-vip',
        severity: 'warning',
        area: 'dns',
        title: `${plural(none.length, 'pod')} ${none.length === 1 ? 'has' : 'have'} no DNS server`,
        explanation: `${none.map((e) => withPod(m, e.ip)).slice(0, 5).join(', ')} have no DNS server in HNS or on their NIC: name resolution fails in them.`,
        fix: 'Set `dns.Nameservers` in the CNI config (or enable `capabilities.dns` so kubelet passes --cluster-dns), then recreate the pods.',
        objects: none.slice(0, 20).map((e) => e.id),
        evidence: none.slice(0, 3).map((e) => ctx.ev(e.src, e.id)),
      }, 'loadBalancers', 'ip'));
    }
    return out;
  },
};
