// Endpoint-level facts: an HNS endpoint with no vNIC in any compartment (the containerd/Windows
// async vNIC case of the CNI CHECK thread), and IP addresses held by two endpoints.
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { k8sNames, withPod } from '../k8s/index.ts';

export const endpointsCheck: Check = {
  id: 'endpoints',
  ids: ['endpoint-without-vnic', 'duplicate-ip', 'endpoint-vnic-undecided'],
  title: 'HNS endpoints',
  platforms: 'any',
  assumes: 'every local HNS endpoint of a pod has a vNIC in a compartment and its own IP',
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    if (!m.endpoints) return out;
    const byId = new Map(m.endpoints.map((e) => [e.id, e]));
    // Say the pod runs only when Kubernetes says so (the kubectl snapshot); the bundle alone does not.
    const names = k8sNames(m);
    const running = (ip: string) => {
      const pod = names.podByIp(ip);
      if (pod?.phase === 'Running') return `Kubernetes has pod ${pod.namespace}/${pod.name} Running with this address, without a working network.`;
      return 'a pod started in this sandbox has no working network.';
    };
    if (!m.ip) {
      if (ctx.localPods.length) out.push({ id: 'endpoint-vnic-undecided', severity: 'info', area: 'hns', undecided: true, title: 'Pod vNICs not checked', explanation: 'ip.txt (ipconfig /allcompartments /all) is not in the bundle, so whether each HNS endpoint has its vNIC in a compartment cannot be checked.', fix: 'Collect ip.txt with collectlogs.ps1.', objects: [], evidence: [ctx.absent('ip.txt', 'file not in the bundle')] });
    } else {
      const nsOf = new Map<string, number | undefined>();
      for (const ns of m.namespaces ?? []) for (const id of ns.endpointIds) nsOf.set(id.toLowerCase(), ns.compartmentId);
      for (const u of m.joins.unmatched) {
        if (u.kind !== 'endpoint-adapter') continue;
        const e = byId.get(u.id);
        if (!e || !e.ip) continue;
        const comp = nsOf.get(e.id.toLowerCase()) ?? e.compartmentId;
        out.push(ctx.hedge({
          id: 'endpoint-without-vnic',
          severity: 'error',
          area: 'hns',
          title: `Endpoint ${e.name || e.id} (${withPod(m, e.ip)}) has no vNIC in any compartment`,
          explanation: `HNS has endpoint ${e.id} with ${e.ip}${comp !== undefined ? ` for compartment ${comp}` : ''}, but no adapter in ipconfig /allcompartments has this IP or MAC${comp !== undefined && !m.ip.compartments.some((c) => c.id === comp) ? ` (compartment ${comp} is not there at all)` : ''}. The endpoint was created but its vNIC was never attached or was lost — the Windows/containerd case where CNI ADD returns before the sandbox's vNIC exists (SIG Network thread on CNI CHECK): ${running(e.ip)}`,
          fix: `Delete the pod so the sandbox and its endpoint are recreated (\`kubectl delete pod …\`). If it repeats, look in the containerd and CNI logs for this sandbox, and remove a leftover endpoint with \`Get-HnsEndpoint | ? Id -eq ${e.id} | Remove-HnsEndpoint\`. A CNI with cniVersion ≥ 0.4.0 that implements CHECK lets the runtime detect this.`,
          objects: [e.id, e.ip, ...(e.portName ? [e.portName] : [])],
          evidence: [ctx.ev(e.src, e.id), ctx.absent(m.meta.sources.ip?.[0] ?? 'ip.txt', `no adapter with ${e.ip}${e.mac ? ` or ${e.mac}` : ''}`)],
          trace: e.ip ? { srcIp: e.ip, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' } : undefined,
        }, 'ip'));
      }
    }
    // Duplicate IPs: two endpoints with one address; at least one local (two remote ones on other nodes are not ours to judge).
    const byIp = new Map<string, typeof m.endpoints>();
    for (const e of m.endpoints) if (e.ip) byIp.set(e.ip, [...(byIp.get(e.ip) ?? []), e]);
    for (const [ip, eps] of byIp) {
      if (eps.length < 2) continue;
      const local = eps.filter((e) => !e.isRemote);
      if (!local.length) continue;
      const adapters = (m.ip?.compartments ?? []).flatMap((c) => c.adapters.filter((a) => a.ipv4.some((x) => x.address === ip)).map((a) => ({ c, a })));
      out.push({
        id: 'duplicate-ip',
        severity: 'error',
        area: 'hns',
        title: `IP ${withPod(m, ip)} is held by ${eps.length} endpoints`,
        explanation: `Endpoints ${eps.map((e) => `${e.name || e.id}${e.isRemote ? ' (remote)' : ''}`).join(', ')} all have ${ip}. VFP and the vSwitch deliver to one of them only, so the other pod gets no traffic and replies can cross. It comes from an IPAM that handed out an address still in use (host-local state lost, or a stale endpoint left behind).`,
        fix: `Find which pod really owns ${ip} (\`kubectl get pods -A -o wide | findstr ${ip}\`), delete the stale endpoint (\`Get-HnsEndpoint | ? IPAddress -eq '${ip}' | …\` then Remove-HnsEndpoint) and recreate the other pod; check the IPAM state (host-local: C:\\var\\lib\\cni\\networks) for leaks.`,
        objects: [ip, ...eps.map((e) => e.id)],
        evidence: [...eps.slice(0, 4).map((e) => ctx.ev(e.src, ip)), ...adapters.slice(0, 2).map(({ a }) => ctx.ev(a.src, ip, 60))],
      });
    }
    return out;
  },
};
