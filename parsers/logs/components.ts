// Which component wrote a log: from the file name when it says (kubelet.log, azure-vnet.log), else
// from the words its lines use. Each hint is a phrase or source file the component prints, taken
// from the corpus and research samples named beside it.
import type { LogComponent } from './types.ts';

export function componentFromName(file: string): LogComponent | undefined {
  const b = (file.split(/[\\/]/).pop() ?? '').toLowerCase();
  if (/kubelet/.test(b)) return 'kubelet';
  if (/kube-?proxy/.test(b)) return 'kube-proxy';
  if (/containerd/.test(b)) return 'containerd';
  if (/azure-cns|azurecns/.test(b)) return 'azure-cns';
  if (/azure-vnet|azurecni|azure-cni/.test(b)) return 'azure-cni';
  if (/antrea/.test(b)) return 'antrea';
  if (/felix/.test(b)) return 'felix';
  if (/calico/.test(b)) return 'calico';
  if (/flannel/.test(b)) return 'flannel';
  // windows-container-networking's plugins (win-bridge, win-overlay, sdnbridge, sdnoverlay, nat) write
  // wincni.log; their lines share azure-vnet's `[cni-net]` tag, so the name must decide first.
  if (/wincni|win-bridge|win-overlay|sdnbridge|sdnoverlay|\bcni\b|cni\.log/.test(b)) return 'cni';
  return undefined;
}

const HINTS: [LogComponent, RegExp][] = [
  // azure-cni-log-* (Azure/azure-container-networking#335, PR #2143)
  ['azure-cni', /\[cni-net\]|\[azure-vnet(?:-ipam)?\]|\] \[net\] |"name":"azure-vnet"|azure-vnet-ipam/],
  // azure-cns-log-hcn-endpoint-bytes (azure-container-networking#3550)
  ['azure-cns', /\[Azure CNS\]|\[azure-cns\]/i],
  // antrea-agent-log-cmdadd (antrea PR #2406)
  ['antrea', /Received CmdAdd request|antrea-agent|antrea-hnsnetwork|\bovs_client\.go|Starting Antrea/i],
  // felix-log-windows-service (calico#7305)
  ['felix', /\bfelix\/|calculation graph|win_dataplane\.go/],
  // calico-cni-log-windows-dataplane (calico#9120)
  ['calico', /Calico CNI|dataplane_windows\.go|TigeraCalicoCNINetworkMutex|WorkloadEndpoint=|calico-node/],
  // containerd-log-* (sig-windows-tools#102, containernetworking/cni#881)
  ['containerd', /RunPodsandbox for|RunPodSandbox for|io\.containerd|containerd successfully booted|begin cni setup|PodSandboxMetadata/],
  // flanneld-log-hostgw-existing-network (flannel#833)
  ['flannel', /flanneld|vxlan_windows\.go|hostgw_windows\.go|kube subnet manager|Subnet manager|route_network_windows/i],
  // kube-proxy-log-winkernel-* (kubernetes#100962, #67827, calico#5762, SDN#227)
  ['kube-proxy', /proxier\.go|hnsV2\.go|hns\.go:\d+\]|winkernel|syncProxyRules|Adding new service port|Associated endpoints|Policy Applied/],
  // kubelet-log-wrapped-sandbox-calico (calico#4334)
  ['kubelet', /kuberuntime_\w+\.go|pod_workers\.go|remote_runtime\.go|kubelet\.go|component=kubelet/],
];

/** The component most hints point to in `lines` (a sample of the file). */
export function componentFromContent(lines: readonly string[]): LogComponent {
  const score = new Map<LogComponent, number>();
  for (const l of lines) {
    for (const [c, re] of HINTS) if (re.test(l)) score.set(c, (score.get(c) ?? 0) + 1);
  }
  let best: LogComponent = 'other';
  let n = 0;
  for (const [c, s] of score) if (s > n) [best, n] = [c, s];
  return best;
}

/** What a line's own tag (logrus component=, Azure's [cni-net]) says about who wrote it. */
export function componentFromTag(tag: string | undefined): LogComponent | undefined {
  if (!tag) return undefined;
  const t = tag.toLowerCase();
  if (t.startsWith('kubelet')) return 'kubelet';
  if (t.startsWith('kube-proxy') || t === 'kubeproxy') return 'kube-proxy';
  if (t === 'kubelet' || t === 'kubelet.exe') return 'kubelet';
  if (t === 'containerd') return 'containerd';
  if (t === 'felix') return 'felix';
  if (t === 'azure cns' || t === 'azure-cns') return 'azure-cns';
  if (t === 'cni-net' || t === 'net' || t === 'azure-vnet' || t === 'azure-vnet-ipam' || t === 'cni') return undefined;
  return undefined;
}
