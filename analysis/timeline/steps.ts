// The named steps of a CNI ADD, per plugin, by the message each plugin logs (the messages are the
// plugins' own: each step names the source file that logs it). `start` opens an ADD, `ok` / `fail`
// close it; the others are steps in between. Runtime lines (containerd, kubelet) frame the ADD.
import type { TimedLine } from './line.ts';

export type StepRole = 'start' | 'step' | 'ok' | 'fail';

export interface StepDef {
  /** Who writes it: a plugin (its family) or the runtime. */
  by: 'azure-vnet' | 'azure-cns' | 'wincni' | 'vpc-bridge' | 'calico' | 'antrea' | 'flannel' | 'containerd' | 'kubelet';
  role: StepRole;
  /** Short name shown in the timeline and in findings. */
  name: string;
  test: (l: TimedLine) => boolean;
}

const msg = (re: RegExp) => (l: TimedLine) => re.test(l.message);
const failed = (l: TimedLine) => l.level === 'error' || l.level === 'fatal' || /\b(failed|error)\b/i.test(l.message);

export const STEPS: StepDef[] = [
  // azure-vnet (zap JSON; cni/network/network.go, invoker_cns.go, network/endpoint_windows.go).
  { by: 'azure-vnet', role: 'start', name: 'azure-vnet: Processing ADD command', test: msg(/Processing ADD command/) },
  { by: 'azure-vnet', role: 'step', name: 'azure-vnet: asked azure-cns for an IP', test: msg(/Requesting IP for pod using ipconfig/) },
  { by: 'azure-vnet', role: 'step', name: 'azure-vnet: IP received from azure-cns', test: msg(/Received info for pod/) },
  { by: 'azure-vnet', role: 'step', name: 'azure-vnet: calling azure-vnet-ipam', test: msg(/Calling plugin azure-vnet-ipam ADD|\[cni-net\] Calling IPAM/i) },
  { by: 'azure-vnet', role: 'step', name: 'azure-vnet: endpoint info generated', test: msg(/Generated endpoint info from fields/) },
  { by: 'azure-vnet', role: 'step', name: 'azure-vnet: creating the HCN endpoint', test: msg(/Creating hcn endpoint|HNSEndpointRequest POST request/i) },
  { by: 'azure-vnet', role: 'step', name: 'azure-vnet: HCN endpoint created', test: msg(/Successfully created hcn endpoint|HNSEndpointRequest POST response/i) },
  { by: 'azure-vnet', role: 'step', name: 'azure-vnet: endpoint recorded', test: msg(/Created endpoint\. Num of endpoints/) },
  { by: 'azure-vnet', role: 'fail', name: 'azure-vnet: ADD failed', test: (l) => /ADD command completed for/.test(l.message) && !!l.fields.error && l.fields.error !== 'null' && l.fields.error !== '<nil>' },
  { by: 'azure-vnet', role: 'ok', name: 'azure-vnet: ADD command completed', test: msg(/ADD command completed/) },
  { by: 'azure-vnet', role: 'step', name: 'azure-vnet: plugin started', test: msg(/^Plugin (Info|started)|\[cni-net\] Plugin (started|azure-vnet version)/) },
  // sdnbridge / sdnoverlay / nat (logrus JSON; windows-container-networking common/core/network.go).
  { by: 'wincni', role: 'start', name: 'wincni: Processing ADD command', test: msg(/^\[cni-net\] Processing ADD command with args/) },
  { by: 'wincni', role: 'step', name: 'wincni: network configuration read', test: msg(/^\[cni-net\] Read network configuration/) },
  { by: 'wincni', role: 'step', name: 'wincni: network found', test: msg(/^\[cni-net\] (Found network|Creating network)/) },
  // "Creating a new Endpoint" is logged when no endpoint of that name exists, *before* the IPAM delegate
  // runs (cni/network.go Add: Debugf("[cni-net] Creating a new Endpoint"), then allocateIpam →
  // invoke.DelegateAdd(ipam.type) → "[cni-net] IPAM plugin returned result"); the HNS endpoint is created
  // only after that. The gap up to the IPAM result is the IPAM plugin's (host-local on Flannel), not HNS's.
  { by: 'wincni', role: 'step', name: 'wincni: calling the IPAM plugin', test: msg(/^\[cni-net\] Creating a new Endpoint/) },
  { by: 'wincni', role: 'step', name: 'wincni: endpoint already exists', test: msg(/^\[cni-net\] Endpoint .* already exists/) },
  { by: 'wincni', role: 'step', name: 'wincni: IPAM result', test: msg(/^\[cni-net\] IPAM plugin returned result/) },
  { by: 'wincni', role: 'fail', name: 'wincni: ADD failed', test: (l) => /^\[cni-net\]/.test(l.message) && failed(l) },
  { by: 'wincni', role: 'ok', name: 'wincni: result returned', test: msg(/^\[cni-net\] result:/) },
  // vpc-bridge (seelog; amazon-vpc-cni-plugins plugin/commands.go, network/bridge_windows.go).
  { by: 'vpc-bridge', role: 'start', name: 'vpc-bridge: Executing ADD', test: msg(/^Executing ADD with netconfig/) },
  { by: 'vpc-bridge', role: 'step', name: 'vpc-bridge: HNS version read', test: msg(/^Running on HNS version/) },
  { by: 'vpc-bridge', role: 'step', name: 'vpc-bridge: HCN network found', test: msg(/^(Found existing HCN network|Creating HCN network)/) },
  { by: 'vpc-bridge', role: 'step', name: 'vpc-bridge: creating the HCN endpoint', test: msg(/^Creating HCN endpoint/) },
  { by: 'vpc-bridge', role: 'step', name: 'vpc-bridge: HCN endpoint created', test: msg(/^Received HCN endpoint response/) },
  { by: 'vpc-bridge', role: 'step', name: 'vpc-bridge: endpoint added to the namespace', test: msg(/^Adding HCN endpoint .* to ns/) },
  { by: 'vpc-bridge', role: 'fail', name: 'vpc-bridge: ADD failed', test: (l) => l.level === 'error' },
  { by: 'vpc-bridge', role: 'ok', name: 'vpc-bridge: CNI result written', test: msg(/^Writing CNI result to stdout/) },
  // Calico CNI (cni-plugin k8s.go, ipam_plugin.go, dataplane_windows.go).
  { by: 'calico', role: 'start', name: 'calico: CmdAddK8s', test: msg(/Extracted identifiers for CmdAddK8s/) },
  { by: 'calico', role: 'step', name: 'calico: IPAM request', test: msg(/Calico CNI IPAM request count/) },
  { by: 'calico', role: 'step', name: 'calico: IPAM assigned the address', test: msg(/Calico CNI IPAM assigned addresses/) },
  { by: 'calico', role: 'step', name: 'calico: using the IPs', test: msg(/Calico CNI using IPs/) },
  { by: 'calico', role: 'step', name: 'calico: waiting for the network lock', test: msg(/Trying to acquire lock/) },
  { by: 'calico', role: 'step', name: 'calico: network lock acquired', test: msg(/Acquired lock/) },
  { by: 'calico', role: 'step', name: 'calico: single network name used', test: msg(/Overriding network name, only a single IPAM block/) },
  { by: 'calico', role: 'step', name: 'calico: HNS network found', test: msg(/Found existing HNS network|Attempting to create HNSNetwork/) },
  { by: 'calico', role: 'step', name: 'calico: creating the HNS endpoint', test: msg(/Attempting to create (HostComputeEndpoint|HNS endpoint)/) },
  { by: 'calico', role: 'step', name: 'calico: endpoint attached to the container', test: msg(/Endpoint to container created/) },
  { by: 'calico', role: 'step', name: 'calico: endpoint updated', test: msg(/Added Mac, interface name, and active container ID/) },
  { by: 'calico', role: 'fail', name: 'calico: ADD failed', test: (l) => l.level === 'error' },
  { by: 'calico', role: 'ok', name: 'calico: endpoint written to the datastore', test: msg(/Wrote updated endpoint to datastore/) },
  // Antrea agent (cniserver; the deep dive's sequence).
  { by: 'antrea', role: 'start', name: 'antrea: Received CmdAdd request', test: msg(/Received CmdAdd request/) },
  { by: 'antrea', role: 'step', name: 'antrea: IP allocated', test: msg(/Allocated IP addresses/) },
  { by: 'antrea', role: 'step', name: 'antrea: configuring the IP address', test: msg(/Configuring IP address for container/) },
  { by: 'antrea', role: 'step', name: 'antrea: adding the OVS port', test: msg(/Adding OVS port/) },
  { by: 'antrea', role: 'step', name: 'antrea: interfaces configured', test: msg(/Configured interfaces for container/) },
  { by: 'antrea', role: 'fail', name: 'antrea: CmdAdd failed', test: (l) => (/CmdAdd/.test(l.message) && failed(l)) || (l.level === 'error' && /container/i.test(l.message)) },
  { by: 'antrea', role: 'ok', name: 'antrea: CmdAdd succeeded', test: msg(/CmdAdd for container .* succeeded/) },
  // containerd (CRI setupPodNetwork) and kubelet around it.
  { by: 'containerd', role: 'step', name: 'containerd: RunPodSandbox', test: (l) => /^RunPodsandbox for/i.test(l.message) && !/returns sandbox id|failed/.test(l.message) },
  { by: 'containerd', role: 'start', name: 'containerd: begin cni setup', test: msg(/^begin cni setup/) },
  { by: 'containerd', role: 'ok', name: 'containerd: cni result', test: msg(/^cni result/) },
  { by: 'containerd', role: 'step', name: 'containerd: sandbox ready', test: msg(/returns sandbox id/) },
  { by: 'containerd', role: 'fail', name: 'containerd: network setup failed', test: (l) => /failed to setup network for sandbox|RunPodSandbox for .* failed/i.test(l.message + ' ' + (l.fields.error ?? '')) },
  { by: 'kubelet', role: 'fail', name: 'kubelet: sandbox creation failed', test: (l) => l.component === 'kubelet' && /failed to setup network for sandbox|RunPodSandbox from runtime service failed|CreatePodSandbox/i.test(l.message) },
];

/** Runtime steps (not the plugin's own). */
export const isRuntime = (d: StepDef | undefined) => d?.by === 'containerd' || d?.by === 'kubelet';

export function stepOf(l: TimedLine): StepDef | undefined {
  const fam = familyOf(l);
  for (const d of STEPS) {
    if (fam && d.by !== fam && !isRuntime(d)) continue;
    // Runtime steps come from the runtime's own logs (kubelet's copy of a containerd error is kubelet's).
    if (isRuntime(d) && fam && d.by !== fam) continue;
    if (d.test(l)) return d;
  }
  return undefined;
}

/** Which writer a line comes from, by its file's component and name and by its format. */
export function familyOf(l: TimedLine): StepDef['by'] | undefined {
  const f = l.file.toLowerCase();
  if (l.component === 'containerd' || /containerd/.test(f)) return 'containerd';
  if (l.component === 'kubelet') return 'kubelet';
  if (/azure-cns/.test(f)) return 'azure-cns';
  // wincni.log's plugins share azure-vnet's `[cni-net]` tag: the file name decides first.
  if (/wincni|sdnbridge|sdnoverlay/.test(f)) return 'wincni';
  if (l.component === 'azure-cni' || /azure-vnet/.test(f)) return 'azure-vnet';
  if (l.component === 'antrea') return 'antrea';
  if (l.component === 'calico' || /calico/.test(f) || l.format === 'calico') return 'calico';
  if (/vpc-bridge|vpc-shared-eni/.test(f) || /^Executing ADD with netconfig|vpc-bridge|vpc-shared-eni/.test(l.message)) return 'vpc-bridge';
  if (l.format === 'zap') return 'azure-vnet';
  if (/wincni|sdnbridge|sdnoverlay/.test(f) || /^\[cni-net\]/.test(l.message)) return 'wincni';
  if (l.component === 'flannel') return 'flannel';
  return undefined;
}
