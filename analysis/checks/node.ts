// Node-level state: blocked VFP ports, ephemeral port exhaustion, an APIPA (169.254/16) address where
// the node or a pod needs a real one.
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { isApipa } from '../../parsers/net/ip.ts';
import { withPod } from '../k8s/index.ts';

export const blockedPortCheck: Check = {
  id: 'vfp-port-blocked',
  ids: ['vfp-port-blocked'],
  title: 'Blocked VFP ports',
  platforms: 'any',
  assumes: 'VFP drops all traffic of a port marked Blocked',
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    const epById = new Map((m.endpoints ?? []).map((e) => [e.id, e]));
    for (const p of m.ports ?? []) {
      if (!p.policy) continue;
      // The scanner reads Blocked lines exactly as the detailed parser does (tested), so its flag is the
      // answer: no port is parsed whole to look again.
      const blocked = p.policy.blocked;
      let line: { file: string; line: number; text: string } | undefined;
      if (!blocked) continue;
      const hit = m.text?.find(p.policy.src.file, p.policy.src.line, (l) => /^\s*Blocked\s*:\s*TRUE/i.test(l), 5_000_000);
      if (hit) line = { file: p.policy.src.file, line: hit.line, text: hit.text.trim() };
      const e = p.endpointId ? epById.get(p.endpointId) : undefined;
      const who = e ? `endpoint ${e.name || e.id} (${withPod(m, e.ip)})` : p.role === 'external' ? 'the uplink' : p.role === 'host-vnic' ? 'the host vNIC' : 'no known endpoint';
      out.push({
        id: 'vfp-port-blocked',
        severity: 'error',
        area: 'vfp',
        title: `VFP port ${p.name} is blocked`,
        explanation: `vfpctrl /get-port-state says Blocked : TRUE for port ${p.name} (${who}). VFP drops every packet in and out of a blocked port: ${e ? 'this pod has no network at all' : 'everything through this port is cut'}. Ports are blocked while HNS programs them and should be unblocked when done; one left blocked means programming failed half-way.`,
        fix: `Check with \`vfpctrl /port ${p.name} /get-port-state\`. Recreate the pod (or restart HNS: \`Restart-Service hns\` — this disrupts every pod on the node) so the port is programmed again; look in the Host-Network-Service event log for the failure.`,
        objects: [p.name, ...(e ? [e.id] : [])],
        evidence: [ctx.portEv(p), ...(line ? [line] : [])],
        trace: e?.ip ? { srcIp: e.ip, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' } : undefined,
      });
    }
    return out;
  },
};

export const ephemeralPortsCheck: Check = {
  id: 'ephemeral-ports',
  ids: ['ephemeral-port-exhaustion', 'ephemeral-ports-undecided'],
  title: 'Ephemeral ports',
  platforms: 'any',
  assumes: "the host's TCP/UDP dynamic port ranges are shared by every plugin",
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    const file = m.files.find((f) => /(^|\/)reservedports\.txt$/i.test(f.name))?.name;
    const fullBundle = !!(m.meta.sources.endpoints || m.meta.sources.networks);
    if (!file || !m.text?.has(file)) {
      if (fullBundle) out.push({ id: 'ephemeral-ports-undecided', severity: 'info', area: 'node', undecided: true, title: 'Ephemeral port availability not checked', explanation: 'reservedports.txt (collectlogs.ps1\'s test reservation of 64-port TCP ranges) is not in the bundle, so port exhaustion cannot be judged.', fix: 'Collect the bundle with a recent collectlogs.ps1, or run `netsh int ipv4 show excludedportrange tcp` and `netstat -anoq` on the node.', objects: [], evidence: [ctx.absent('reservedports.txt', 'file not in the bundle')] });
      return out;
    }
    const err = m.text.find(file, 1, (l) => /running out of ephemeral ports|error|failed to reserve|0 allocations/i.test(l), 10_000);
    const est = m.text.find(file, 1, (l) => /up to\s+\d+\s+allocations/i.test(l), 10_000);
    const n = est ? Number(/up to\s+(\d+)/i.exec(est.text)![1]) : undefined;
    if (err || (n !== undefined && n < 16)) {
      const ev = (err ?? est)!;
      out.push({
        id: 'ephemeral-port-exhaustion',
        severity: err || n === 0 ? 'error' : 'warning',
        area: 'node',
        title: err ? 'The node is running out of ephemeral ports' : `Only ${n} ranges of 64 ephemeral ports are left`,
        explanation: `${file} says "${ev.text.trim()}". HNS reserves port ranges for SNAT (OutboundNAT) of pod traffic and for NodePorts; when the dynamic range is used up, new outbound connections from pods and the node fail (WSAEADDRINUSE / timeouts) and endpoints cannot be created.`,
        fix: 'Find the process holding the ports (`netstat -anoq`, `Get-NetTCPConnection | Group-Object OwningProcess`), widen the dynamic range (`netsh int ipv4 set dynamicport tcp start=10000 num=55535`), and check `netsh int ipv4 show excludedportrange tcp` for large reservations; restart the leaking service.',
        objects: [file],
        evidence: [{ file, line: ev.line, text: ev.text.trim() }],
      });
    }
    return out;
  },
};

export const apipaCheck: Check = {
  id: 'apipa',
  ids: ['apipa-management-ip', 'apipa-pod-ip'],
  title: 'APIPA addresses',
  platforms: 'any',
  assumes: 'a host vNIC or pod NIC with only a 169.254 address has no working network',
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    for (const n of m.networks ?? []) {
      if (n.managementIp && isApipa(n.managementIp)) {
        out.push({
          id: 'apipa-management-ip', severity: 'error', area: 'node',
          title: `HNS network ${n.name} has the APIPA management IP ${n.managementIp}`,
          explanation: `The management IP of network ${n.name} is ${n.managementIp} (169.254/16: Windows gave the adapter an address itself because DHCP or the static configuration failed when the vSwitch was created). SNAT, node routes and kube-proxy's source VIP all use the management IP: pod traffic leaving the node is broken.`,
          fix: 'Fix the host NIC\'s IP configuration (DHCP reachability, or the static address), then recreate the HNS network (restart the CNI agent / flanneld, or `Get-HnsNetwork | ? Name -eq <name> | Remove-HnsNetwork` and let it be recreated — this disrupts all pods). Check with `ipconfig /all` and `Get-HnsNetwork`.',
          objects: [n.name, n.managementIp],
          evidence: [ctx.ev(n.src, n.managementIp)],
        });
      }
    }
    const host = m.ip?.compartments.find((c) => c.id === 1) ?? (m.ip?.compartments.length === 1 ? m.ip.compartments[0] : undefined);
    const hostMac = ctx.tc.hostPort?.mac?.toUpperCase();
    for (const a of host?.adapters ?? []) {
      const v4 = a.ipv4.filter((x) => x.address);
      const [only] = v4;
      if (!only || !v4.every((x) => x.apipa || isApipa(x.address))) continue;
      const mgmt = (hostMac && a.mac === hostMac) || (m.networks ?? []).some((n) => n.networkAdapterName && a.name.toLowerCase() === `vethernet (${n.networkAdapterName.toLowerCase()})`);
      if (!mgmt || a.mediaDisconnected) continue;
      if (out.some((f) => f.objects.includes(only.address))) continue;
      out.push({
        id: 'apipa-management-ip', severity: 'error', area: 'node',
        title: `Host vNIC ${a.name} has only the APIPA address ${only.address}`,
        explanation: `${a.name} is the node's management adapter on the vSwitch, and its only IPv4 address is ${only.address} (169.254/16, self-assigned). The node has no usable address on the pod network: kubelet, kube-proxy and pod SNAT traffic cannot leave.`,
        fix: 'Fix the NIC\'s IP configuration (DHCP or static) and recreate the HNS network; `ipconfig /renew` may recover a DHCP address.',
        objects: [a.name, only.address],
        evidence: [ctx.ev(only.src)],
      });
    }
    for (const e of ctx.localPods) {
      const a = ctx.tc.adapterOf.get(e.id)?.adapter;
      const ap = a?.ipv4.find((x) => x.apipa || isApipa(x.address));
      if (!a || !ap || a.ipv4.some((x) => x.address === e.ip)) continue;
      out.push({
        id: 'apipa-pod-ip', severity: 'error', area: 'hns',
        title: `Pod NIC ${a.name} has APIPA ${ap.address} instead of ${e.ip}`,
        explanation: `HNS endpoint ${e.id} has ${withPod(m, e.ip)}, but its vNIC in the pod compartment has ${ap.address}: the address was never applied to the NIC (the async vNIC case). The pod cannot talk to anything.`,
        fix: 'Delete the pod so the sandbox and endpoint are recreated; if it repeats, check the CNI and containerd logs for the sandbox.',
        objects: [e.id, ap.address, e.ip ?? ''],
        evidence: [ctx.ev(ap.src), ctx.ev(e.src, e.id)],
      });
    }
    return out;
  },
};
