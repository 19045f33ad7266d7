// Side files of a platform node: its CNI config, the plugin's own log with one CNI ADD per pod,
// containerd's and kubelet's lines for the same sandboxes, and a kubectl snapshot of the cluster.
// Message texts are the plugins' own (each cited beside it; real samples in ../shared/corpus/). Layouts marked "unverified" in
// FORMATS.md are plausible, not copied from a real file.
import type { GeneratedNode, HnsEndpoint } from '../types.ts';
import { SLOW_MS, backendLabel } from '../cluster.ts';
import { cniConfig } from './cni-config.ts';
import { j4, type SideFile } from './side-file.ts';

const p2 = (n: number, w = 2) => String(n).padStart(w, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
const hms = (d: Date) => `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
const iso = (ms: number) => new Date(ms).toISOString();
/** containerd on Windows prints 7 fraction digits (corpus containerd-log-flannel…). */
const isoNs = (ms: number) => `${iso(ms).slice(0, 23)}${p2((ms * 10000) % 10000, 4)}Z`;
const slash = (ms: number) => `${ymd(new Date(ms)).replace(/-/g, '/')} ${hms(new Date(ms))}`;
const calicoTs = (ms: number) => `${ymd(new Date(ms))} ${hms(new Date(ms))}.${p2(ms % 1000, 3)}`;
const klogTs = (ms: number, level = 'I') => {
  const d = new Date(ms);
  return `${level}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ${hms(d)}.${p2(ms % 1000, 3)}${p2(Math.floor((ms * 7919) % 1000), 3)}`;
};
const seelog = (ms: number) => `${iso(Math.floor(ms / 1000) * 1000).slice(0, 19)}Z`;

/** A pod's CNI ADD as the runtime and the plugin saw it. */
interface Add {
  ep: HnsEndpoint;
  ns: string;
  pod: string;
  uid: string;
  id: string;
  netns: string;
  start: number;
  slow: boolean;
}

function adds(node: GeneratedNode): Add[] {
  const t0 = node.collectedAt.getTime() - 3_600_000;
  return node.endpoints
    .filter((e) => e.kind === 'pod' && e.containerId)
    .map((e, i) => ({
      ep: e,
      ns: e.pod?.namespace ?? 'default',
      pod: e.pod?.name ?? `pod-${i}`,
      uid: e.pod?.uid ?? '00000000-0000-0000-0000-000000000000',
      id: e.containerId!,
      netns: (e.namespaceId ?? '').toLowerCase(),
      start: t0 + i * 9137,
      slow: node.logFaults.slow === e.containerId,
    }));
}

const cniArgs = (a: Add) => `K8S_POD_NAMESPACE=${a.ns};K8S_POD_NAME=${a.pod};K8S_POD_INFRA_CONTAINER_ID=${a.id};K8S_POD_UID=${a.uid};IgnoreUnknown=1`;

/** The plugin's steps of one ADD: [ms after the plugin starts, line]. The slow fault stalls before `slowBefore`. */
type Steps = { at: number; line: (ms: number) => string; slowBefore?: boolean }[];

function timed(a: Add, steps: Steps, begin: number): { lines: [number, string][]; end: number } {
  let extra = 0;
  const lines: [number, string][] = [];
  for (const s of steps) {
    if (s.slowBefore && a.slow) extra = SLOW_MS;
    const ms = begin + s.at + extra;
    lines.push([ms, s.line(ms)]);
  }
  return { lines, end: lines[lines.length - 1][0] };
}

// ---------------------------------------------------------------- plugin ADD steps
function azureSteps(node: GeneratedNode, a: Add, pid: number): Steps {
  const zap = (level: string, msg: string, extra: Record<string, unknown> = {}) => (ms: number) => JSON.stringify({ level, ts: iso(ms), msg, pid, component: 'cni', ...extra });
  const overlay = node.platform === 'azure-cni-overlay';
  const gw = a.ep.gateway;
  // cni/network/network.go (Processing ADD → ADD command completed), invoker_cns.go, network/endpoint_windows.go.
  return [
    { at: 0, line: zap('info', 'Plugin Info', { name: 'azure-vnet', version: 'v1.5.28' }) },
    { at: 1, line: (ms) => `${slash(ms)} [${pid}] [net] Restored state` },
    { at: 1, line: zap('info', 'Plugin started') },
    { at: 2, line: zap('info', '[cni-net] Processing ADD command', { containerId: a.id, netNS: a.netns, ifName: 'eth0', args: cniArgs(a), path: 'c:/k/azurecni/bin' }) },
    ...(overlay
      ? [
          { at: 4, line: zap('info', 'Requesting IP for pod using ipconfig', { ipconfig: { PodInterfaceID: `${a.id.slice(0, 8)}-eth0`, InfraContainerID: a.id } }) },
          { at: 19, line: zap('info', 'Received info for pod', { ipv4info: { PodIPConfig: { IPAddress: a.ep.ip, PrefixLength: a.ep.prefixLength }, GatewayIPAddress: gw } }) },
        ]
      : [{ at: 11, line: (ms: number) => `${slash(ms)} [${pid}] [cni] Calling plugin azure-vnet-ipam ADD` }]),
    { at: 23, line: zap('info', 'Generated endpoint info from fields', { epInfo: { EndpointID: `${a.id.slice(0, 8)}-eth0`, IPAddresses: [`${a.ep.ip}/${a.ep.prefixLength}`], Gateway: gw } }) },
    { at: 25, line: zap('info', 'Creating hcn endpoint', { name: `${a.id.slice(0, 8)}-eth0`, netns: a.netns }) },
    { at: 211, slowBefore: true, line: zap('info', 'Successfully created hcn endpoint with response', { hcnEndpoint: { Id: a.ep.id.toLowerCase(), Name: `${a.id.slice(0, 8)}-eth0` } }) },
    { at: 240, line: zap('info', 'Created endpoint. Num of endpoints', { numEndpoints: 1 }) },
    { at: 246, line: zap('info', 'ADD command completed for', { pod: a.pod, IPs: [`${a.ep.ip}/${a.ep.prefixLength}`], error: null }) },
  ];
}

function wcnSteps(node: GeneratedNode, a: Add): Steps {
  // windows-container-networking common/core/network.go: logrus JSON with second precision (SDN#238 sample).
  const j = (msg: string) => (ms: number) => JSON.stringify({ level: 'info', msg, time: seelog(ms) });
  const net = node.networks.find((n) => n.type !== 'nat' && !n.infra) ?? node.networks[0];
  return [
    { at: 0, line: j(`[cni-net] Processing ADD command with args {ContainerID:${a.id} Netns:${a.netns} IfName:eth0 Args:${cniArgs(a)} Path:C:\\opt\\cni\\bin}.`) },
    { at: 2, line: j(`[cni-net] Read network configuration &{CNIVersion:0.3.0 Name:${net.name} Type:sdnbridge}.`) },
    { at: 3, line: j('[cni-net] Dual stack is disabled') },
    { at: 40, line: j(`[cni-net] Found network ${net.name} with subnet ${net.subnet}.`) },
    { at: 52, line: j('[cni-net] Creating a new Endpoint') },
    { at: 930, slowBefore: true, line: j(`[cni-net] IPAM plugin returned result &{IP4:0xc000 IP6:<nil> DNS:{Nameservers:[${node.dnsVip}]}}.`) },
    { at: 1120, line: j(`[cni-net] result: &{CNIVersion:0.3.0 Interfaces:[{Name:eth0}] IPs:[{Version:4 Address:{IP:${a.ep.ip}}}]}`) },
  ];
}

function eksSteps(node: GeneratedNode, a: Add): Steps {
  // aws/amazon-vpc-cni-plugins plugin/commands.go + network/bridge_windows.go (seelog, second precision).
  const s = (msg: string, level = 'INFO') => (ms: number) => `${seelog(ms)} [${level}] ${msg}`;
  const net = node.networks.find((n) => n.type === 'l2bridge')!;
  return [
    { at: 0, line: s('Plugin vpc-bridge version 1.2 executing CNI command.') },
    { at: 3, line: s(`Executing ADD with netconfig: &{NetConf:{CNIVersion:0.4.0 Name:vpc Type:vpc-bridge} ServiceCIDR:${node.serviceCidr}} ContainerID:${a.id} Netns:${a.netns} IfName:eth0 Args:${cniArgs(a)}.`) },
    { at: 20, line: s('Running on HNS version: {Major:13 Minor:2}') },
    { at: 31, line: s(`Found existing HCN network ${net.name}.`) },
    { at: 35, line: s(`Creating HCN endpoint: &{Name:${a.ep.name} HostComputeNetwork:${net.id.toLowerCase()}}`) },
    { at: 1210, slowBefore: true, line: s(`Received HCN endpoint response: &{Id:${a.ep.id.toLowerCase()} Name:${a.ep.name}}.`) },
    { at: 1230, line: s(`Adding HCN endpoint ${a.ep.id.toLowerCase()} to ns ${a.netns}.`) },
    { at: 1480, line: s(`Writing CNI result to stdout: Interfaces:[{Name:eth0 Sandbox:${a.netns}}], IP:[{Version:4 Address:{IP:${a.ep.ip} Mask:ffffff00} Gateway:${a.ep.gateway}}]`) },
  ];
}

function calicoSteps(node: GeneratedNode, a: Add, pid: number): Steps {
  // projectcalico/calico cni-plugin k8s.go, ipam_plugin.go, dataplane_windows.go (corpus …-9120).
  const wep = `${node.nodeName.replace(/-/g, '--')}-k8s-${a.pod.replace(/-/g, '--')}-eth0`;
  const kv = ` ContainerID="${a.id}" Namespace="${a.ns}" Pod="${a.pod}" WorkloadEndpoint="${wep}"`;
  const c = (file: string, msg: string, tail = kv) => (ms: number) => `${calicoTs(ms)} [INFO][${pid}] ${file}: ${msg}${tail}`;
  return [
    { at: 0, line: c('k8s.go 72', 'Extracted identifiers for CmdAddK8s') },
    { at: 36, line: c('ipam_plugin.go 311', 'Calico CNI IPAM request count IPv4=1 IPv6=0') },
    { at: 118, line: c('ipam_plugin.go 407', `Calico CNI IPAM assigned addresses IPv4=[${a.ep.ip}/26] IPv6=[]`) },
    { at: 131, line: c('k8s.go 423', `Calico CNI using IPs: [${a.ep.ip}/26]`) },
    { at: 132, line: c('dataplane_windows.go 79', 'Trying to acquire lock {TigeraCalicoCNINetworkMutex {} 50ms 1m30s <nil>}') },
    { at: 133, line: c('dataplane_windows.go 85', 'Acquired lock {TigeraCalicoCNINetworkMutex {} 50ms 1m30s <nil>}') },
    { at: 151, line: c('dataplane_windows.go 326', 'Found existing HNS network [&{Id:… Name:Calico}]') },
    { at: 160, line: c('dataplane_windows.go 789', `Attempting to create HostComputeEndpoint: ${a.id}_Calico for container`) },
    { at: 402, slowBefore: true, line: c('dataplane_windows.go 854', 'Endpoint to container created!') },
    { at: 420, line: c('k8s.go 458', 'Added Mac, interface name, and active container ID to endpoint') },
    { at: 451, line: c('k8s.go 544', 'Wrote updated endpoint to datastore') },
  ];
}

function antreaSteps(node: GeneratedNode, a: Add, pid: number): Steps {
  // The agent's CmdAdd sequence (samples antrea-agent-log-cmdadd-full-sequence__knabben-blog-2023-0406).
  const k = (file: string, msg: string) => (ms: number) => `${klogTs(ms)}    ${pid} ${file}] ${msg}`;
  return [
    { at: 0, line: k('server.go:425', `Received CmdAdd request cni_args:{container_id:"${a.id}" netns:"${a.netns}" ifname:"eth0" args:"K8S_POD_UID=${a.uid};IgnoreUnknown=1;K8S_POD_NAMESPACE=${a.ns};K8S_POD_NAME=${a.pod};K8S_POD_INFRA_CONTAINER_ID=${a.id}" path:"C:/opt/cni/bin"}`) },
    { at: 74, line: k('server.go:495', `"Allocated IP addresses" container="${a.id}" result=&{Result:{CNIVersion:0.4.0 IPs:[{Version:4 Address:{IP:${a.ep.ip} Mask:ffffff00} Gateway:${a.ep.gateway}}]}}`) },
    { at: 75, line: k('server_windows.go:42', `Got runtime DNS configuration: {[${node.dnsVip}]  [${a.ns}.svc.cluster.local svc.cluster.local cluster.local] []}`) },
    { at: 77, line: k('interface_configuration_windows.go:136', `Configuring IP address for container ${a.id}`) },
    { at: 610, slowBefore: true, line: k('pod_configuration_windows.go:97', `Adding OVS port ${a.ep.name} for container ${a.id}`) },
    { at: 890, line: k('pod_configuration.go:268', `Configured interfaces for container ${a.id}`) },
    { at: 891, line: k('server.go:522', `CmdAdd for container ${a.id} succeeded`) },
  ];
}

function pluginSteps(node: GeneratedNode, a: Add, pid: number): Steps | undefined {
  switch (node.platform) {
    case 'azure-cni':
    case 'azure-cni-overlay':
      return azureSteps(node, a, pid);
    case 'flannel-host-gw':
    case 'flannel-vxlan':
    case 'nat':
      return wcnSteps(node, a);
    case 'eks-vpc-bridge':
      return eksSteps(node, a);
    case 'calico-vxlan':
    case 'calico-bgp':
      return calicoSteps(node, a, pid);
    case 'antrea':
      return antreaSteps(node, a, pid);
    default:
      return undefined;
  }
}

/** The plugin's failure text for the cni-add-failures fault (what each plugin prints when HNS refuses). */
function pluginError(): string {
  const hcn = 'hcnCreateEndpoint failed in Win32: IP address is either invalid or not part of any configured subnet(s). (0x803b001e) {"Success":false,"Error":"IP address is either invalid or not part of any configured subnet(s). ","ErrorCode":2151350302}';
  return `Failed to create endpoint: ${hcn}`;
}

function pluginType(node: GeneratedNode): string {
  return ({ 'azure-cni': 'azure-vnet', 'azure-cni-overlay': 'azure-vnet', 'flannel-host-gw': 'flannel', 'flannel-vxlan': 'flannel', 'eks-vpc-bridge': 'vpc-bridge', 'calico-vxlan': 'calico', 'calico-bgp': 'calico', antrea: 'antrea', 'ovn-kubernetes': 'win-overlay', nat: 'nat' } as Record<string, string>)[node.platform!];
}

// ---------------------------------------------------------------- log files
export function platformLogs(node: GeneratedNode): SideFile[] {
  if (!node.platform) return [];
  const list = adds(node);
  const plugin: [number, string][] = [];
  const ctrd: [number, string][] = [];
  const kubelet: [number, string][] = [];
  const lr = (ms: number, level: string, msg: string, extra = '') => `time="${isoNs(ms)}" level=${level} msg=${JSON.stringify(msg)}${extra}`;
  const meta = (a: { pod: string; uid: string; ns: string }, attempt = 0) => `&PodSandboxMetadata{Name:${a.pod},Uid:${a.uid},Namespace:${a.ns},Attempt:${attempt},}`;
  list.forEach((a, i) => {
    ctrd.push([a.start, lr(a.start, 'info', `RunPodSandbox for ${meta(a)}`)]);
    kubelet.push([a.start - 20, `${klogTs(a.start - 20)}    4312 kubelet.go:2434] "SyncLoop ADD" source="api" pods=["${a.ns}/${a.pod}"]`]);
    const begin = a.start + 35;
    ctrd.push([begin, lr(begin, 'debug', 'begin cni setup', ` podsandboxid=${a.id}`)]);
    const steps = pluginSteps(node, a, 6100 + i * 17);
    let end = begin + 5 + (a.slow ? SLOW_MS : 0) + 900;
    if (steps) {
      const t = timed(a, steps, begin + 5);
      plugin.push(...t.lines);
      end = t.end;
    }
    ctrd.push([end + 3, lr(end + 3, 'debug', `cni result: {"Interfaces":{"eth0":{"IPConfigs":[{"IP":"${a.ep.ip}","Gateway":"${a.ep.gateway}"}]}}}`, ` podsandboxid=${a.id}`)]);
    ctrd.push([end + 61, lr(end + 61, 'info', `RunPodSandbox for ${meta(a)} returns sandbox id "${a.id}"`)]);
  });
  // cni-add-failures: three sandboxes of one pod, each ADD failing in the plugin.
  const failing = node.logFaults.failing;
  if (failing) {
    const f = { pod: failing, uid: '7a1c0b52-5f7e-4bb6-9a4e-2d2c9d6e0f11', ns: 'default' };
    const err = pluginError();
    (node.logFaults.failingSandboxes ?? []).forEach((id, k) => {
      const t = node.collectedAt.getTime() - 1_200_000 + k * 15_000;
      const a: Add = { ep: { ...list[0].ep, ip: '' }, ns: f.ns, pod: f.pod, uid: f.uid, id, netns: '', start: t, slow: false };
      ctrd.push([t, lr(t, 'info', `RunPodSandbox for ${meta(f, k)}`)]);
      ctrd.push([t + 30, lr(t + 30, 'debug', 'begin cni setup', ` podsandboxid=${id}`)]);
      const steps = pluginSteps(node, a, 7100 + k);
      if (steps) {
        // The plugin gets as far as creating the endpoint, then reports HNS's refusal.
        const cut = steps.findIndex((s) => s.slowBefore);
        const t2 = timed(a, steps.slice(0, cut > 0 ? cut : 1), t + 35);
        plugin.push(...t2.lines);
        plugin.push([t2.end + 40, failLine(node, a, t2.end + 40, err)]);
      }
      const msg = `failed to setup network for sandbox "${id}": plugin type="${pluginType(node)}" name="${node.networks.find((n) => n.type !== 'nat' && !n.infra)?.name ?? 'nat'}" failed (add): ${err}`;
      ctrd.push([t + 400, lr(t + 400, 'error', `RunPodSandbox for ${meta(f, k)} failed`, ` error=${JSON.stringify(`failed to setup network for sandbox "${id}": ${err}`)}`)]);
      kubelet.push([t + 420, `${klogTs(t + 420, 'E')}    4312 remote_runtime.go:193] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = ${msg.replace(/"/g, '\\"')}"`]);
    });
  }
  const sortText = (xs: [number, string][]) => xs.sort((x, y) => x[0] - y[0]).map((x) => x[1]).join('\n') + '\n';
  const out: SideFile[] = [
    { path: 'containerd.log', text: sortText(ctrd) },
    { path: 'kubelet.log', text: sortText(kubelet) },
  ];
  if (!plugin.length) return out;
  // wincni.log is reopened without O_APPEND at every call: it holds the last invocation only (platforms.md §3.1).
  if (node.platform === 'flannel-host-gw' || node.platform === 'flannel-vxlan' || node.platform === 'nat') {
    const sorted = [...plugin].sort((x, y) => x[0] - y[0]);
    let from = 0;
    sorted.forEach(([, l], i) => {
      if (l.includes('Processing ADD command')) from = i;
    });
    out.push({ path: 'wincni.log', text: sortText(sorted.slice(from)) });
  } else out.push({ path: pluginLogPath(node), text: sortText(plugin) });
  return out;
}

function failLine(node: GeneratedNode, a: Add, ms: number, err: string): string {
  switch (node.platform) {
    case 'azure-cni':
    case 'azure-cni-overlay':
      return JSON.stringify({ level: 'error', ts: iso(ms), msg: 'ADD command completed for', pid: 7100, component: 'cni', pod: a.pod, IPs: null, error: err });
    case 'eks-vpc-bridge':
      return `${seelog(ms)} [ERROR] Failed to create HCN endpoint: ${err}`;
    case 'calico-vxlan':
    case 'calico-bgp':
      return `${calicoTs(ms)} [ERROR][7100] dataplane_windows.go 800: Error creating endpoint ContainerID="${a.id}" Namespace="${a.ns}" Pod="${a.pod}" error=${JSON.stringify(err)}`;
    case 'antrea':
      return `${klogTs(ms, 'E')}    7100 server.go:510] "Failed to configure interfaces for container" err=${JSON.stringify(err)} container="${a.id}"`;
    default:
      return JSON.stringify({ level: 'error', msg: `[cni-net] Failed to create endpoint, err:${err}.`, time: seelog(ms) });
  }
}

function pluginLogPath(node: GeneratedNode): string {
  switch (node.platform) {
    case 'azure-cni':
    case 'azure-cni-overlay':
      return 'azure-vnet.log';
    case 'eks-vpc-bridge':
      return 'Amazon/EKS/logs/vpc-bridge.log';
    case 'calico-vxlan':
    case 'calico-bgp':
      return 'calico/cni/cni.log';
    case 'antrea':
      return 'antrea/antrea-agent.log';
    default:
      return 'cni.log';
  }
}

// ---------------------------------------------------------------- CNI configs

// ---------------------------------------------------------------- kubectl snapshot
export function kubectlJson(node: GeneratedNode, opts: { slices?: boolean } = {}): string | undefined {
  if (!node.platform || node.platform === 'nat') return undefined;
  const items: unknown[] = [];
  for (const n of node.k8sNodes) {
    items.push({ apiVersion: 'v1', kind: 'Node', metadata: { name: n.name, labels: { 'kubernetes.io/os': n.os ?? (n.name === node.nodeName ? 'windows' : 'linux'), 'kubernetes.io/hostname': n.name } }, spec: n.podCidr ? { podCIDR: n.podCidr, podCIDRs: [n.podCidr] } : {}, status: { addresses: [{ type: 'InternalIP', address: n.ip }, { type: 'Hostname', address: n.name }] } });
  }
  for (const p of node.pods) {
    items.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: p.name, namespace: p.namespace, uid: p.uid, labels: p.labels },
      spec: { nodeName: p.nodeName, containers: [{ name: 'main' }] },
      status: { phase: p.phase, hostIP: node.k8sNodes.find((n) => n.name === p.nodeName)?.ip, ...(p.ip ? { podIP: p.ip, podIPs: [{ ip: p.ip }] } : {}), conditions: [{ type: 'Ready', status: p.phase === 'Running' ? 'True' : 'False' }], ...(p.containerId ? { containerStatuses: [{ name: 'main', containerID: `containerd://${p.containerId}`, ready: true }] } : {}) },
    });
  }
  for (const s of node.services) {
    const [lk, lv] = backendLabel(s);
    const ports = s.ports.map((p) => ({ name: `${p.protocol === 17 ? 'udp' : 'tcp'}-${p.port}`, protocol: p.protocol === 17 ? 'UDP' : 'TCP', port: p.port, targetPort: p.targetPort, ...(p.nodePort ? { nodePort: p.nodePort } : {}) }));
    items.push({ apiVersion: 'v1', kind: 'Service', metadata: { name: s.name, namespace: s.namespace }, spec: { type: s.type, clusterIP: s.vip, clusterIPs: [s.vip], ports, ...(s.name === 'kubernetes' ? {} : { selector: { [lk]: lv } }) } });
    if (opts.slices === false) continue;
    const owner = (ip: string) => node.pods.find((p) => p.ip === ip);
    items.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: `${s.name}-${s.vip.split('.').join('').slice(-5)}`, namespace: s.namespace, labels: { 'kubernetes.io/service-name': s.name } },
      addressType: 'IPv4',
      endpoints: s.backends.map((ip) => ({ addresses: [ip], conditions: { ready: true }, ...(owner(ip) ? { nodeName: owner(ip)!.nodeName, targetRef: { kind: 'Pod', namespace: owner(ip)!.namespace, name: owner(ip)!.name } } : {}) })),
      ports: s.ports.map((p) => ({ name: `${p.protocol === 17 ? 'udp' : 'tcp'}-${p.port}`, protocol: p.protocol === 17 ? 'UDP' : 'TCP', port: p.targetPort })),
    });
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } }, null, 4) + '\n';
}

/** Every side file of a platform node. */
export function platformSideFiles(node: GeneratedNode, opts: { kubectl?: boolean; slices?: boolean } = {}): SideFile[] {
  if (!node.platform) return [];
  const out: SideFile[] = [];
  const conf = cniConfig(node);
  if (conf) out.push(conf);
  if (node.platform.startsWith('azure')) out.push({ path: 'kubeclusterconfig.json', text: kubeClusterConfig(node) });
  out.push(...platformLogs(node));
  if (opts.kubectl !== false) {
    const k = kubectlJson(node, opts);
    if (k) out.push({ path: 'kubectl-get-all.json', text: k });
  }
  return out;
}

/** C:\\k\\kubeclusterconfig.json as AgentBaker's kubernetesfunc.ps1 writes it (ConvertTo-Json: PS 5.1 layout not reproduced). */
function kubeClusterConfig(node: GeneratedNode): string {
  return j4({ Cri: { Name: 'containerd' }, Cni: { Name: 'azure', Plugin: { Name: 'bridge' } }, Kubernetes: { Network: { ClusterCidr: node.clusterCidr, ServiceCidr: node.serviceCidr, DnsIp: node.dnsVip }, Kubeproxy: { FeatureGates: ['WinDSR=true'] } }, Services: { IsSkipCleanupNetwork: false } });
}
