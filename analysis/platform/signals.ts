// Everything in a bundle that says which network plugin and cloud built the node, each as a piece of
// evidence with its file and line. Names and types come from the plugins' own code
// (cited beside each signal, and in the plugin table of analysis/checks/README.md).
import type { NodeModel } from '../../parsers/model/types.ts';
import type { HnsNetwork } from '../../parsers/hns/index.ts';
import type { SourceRef } from '../../parsers/types.ts';
import type { CniConfigFile } from '../../parsers/cni/index.ts';
import { componentFromName, type LogComponent, type LogFile } from '../../parsers/logs/index.ts';
import { parseCidr } from '../../parsers/net/ip.ts';
import type { PlatformEvidence, PluginId } from './types.ts';

const AZURE: PluginId[] = ['azure-cni', 'azure-cni-overlay', 'azure-cni-pod-subnet'];
/** azure-cns hands out the pod IPs in these two modes (Overlay, or dynamic pod subnet IPs); azure-vnet-ipam in the other. */
const AZURE_CNS: PluginId[] = ['azure-cni-overlay', 'azure-cni-pod-subnet'];

/**
 * The ipam modes azure-vnet reads as Overlay: Azure/azure-container-networking cni/util/const.go
 * (`V4Overlay = "v4overlay"`, `DualStackOverlay = "dualStackOverlay"`, `Overlay = "overlay"`, the last
 * one replacing the other two) and cni/network/invoker_cns.go (`overlayMode := … V4Overlay || …
 * DualStackOverlay || … Overlay`). A real AKS conflist (../shared/corpus, azure-container-networking
 * pr-2281) and CNS's Windows writer (cns/cniconflist/generator_windows.go) say "overlay"; older ones
 * "v4overlay".
 */
export const isOverlayIpamMode = (mode: string | undefined): boolean => /^(overlay|v4overlay|dualstackoverlay)$/i.test((mode ?? '').trim());
const CALICO: PluginId[] = ['calico-vxlan', 'calico-bgp'];
const FLANNEL: PluginId[] = ['flannel-host-gw', 'flannel-vxlan'];

function line(m: NodeModel, src: SourceRef | undefined, needle?: string): { file: string; line: number; text: string } {
  if (!src) return { file: '', line: 0, text: '' };
  const t = m.text;
  if (needle && t?.has(src.file)) {
    const low = needle.toLowerCase();
    const hit = t.find(src.file, src.line, (l) => l.toLowerCase().includes(low), 400);
    if (hit) return { file: src.file, line: hit.line, text: hit.text.trim() };
  }
  return { file: src.file, line: src.line, text: (t?.lineText(src.file, src.line) ?? '').trim() };
}

const typeName = (t: string) => ({ l2bridge: 'L2Bridge', overlay: 'Overlay', transparent: 'Transparent', nat: 'NAT', ics: 'ICS', l2tunnel: 'L2Tunnel' })[t] ?? (t || 'unknown');

/** The HNS network that holds the pods: most local endpoints with an IP, else the only known name. */
export function podNetworkOf(m: NodeModel): HnsNetwork | undefined {
  const nets = m.networks ?? [];
  if (!nets.length) return undefined;
  const count = new Map<HnsNetwork, number>();
  const byId = new Map(nets.map((n) => [n.id.toLowerCase(), n]));
  const byName = new Map(nets.map((n) => [n.name.toLowerCase(), n]));
  for (const e of m.endpoints ?? []) {
    if (e.isRemote || !e.ip) continue;
    const n = (e.networkId && byId.get(e.networkId.toLowerCase())) || (e.networkName && byName.get(e.networkName.toLowerCase()));
    if (n) count.set(n, (count.get(n) ?? 0) + 1);
  }
  const [top, next] = [...count.entries()].sort((a, b) => b[1] - a[1]);
  if (top && (!next || top[1] > next[1])) return top[0];
  const named = nets.filter((n) => networkNamePlugins(n.name).length);
  if (named.length === 1) return named[0];
  // Infrastructure networks the installers create next to the pod network hold no pods.
  const rest = nets.filter((n) => n.type !== 'nat' && n.type !== 'ics' && !/^(ext|external|BaseOVNKubernetesHybridOverlayNetwork)$/i.test(n.name));
  return rest.length === 1 ? rest[0] : top?.[0];
}

/** Plugins whose installer names the pod network like this. */
function networkNamePlugins(name: string): PluginId[] {
  if (/^cbr0$/i.test(name)) return ['flannel-host-gw'];
  if (/^flannel\.\d+$/i.test(name) || /^vxlan0$/i.test(name)) return ['flannel-vxlan'];
  if (/^azure$/i.test(name)) return AZURE;
  if (/^vpcbr[0-9a-f]*$/i.test(name)) return ['eks-vpc-bridge'];
  if (/^calico(-[\d-]+)?$/i.test(name)) return CALICO;
  if (/^antrea-hnsnetwork$/i.test(name)) return ['antrea'];
  if (/^OVNKubernetesHybridOverlayNetwork$/i.test(name)) return ['ovn-kubernetes'];
  return [];
}

/** Which of those plugins use this HNS network type for it. */
function typeFits(p: PluginId, type: string): boolean {
  switch (p) {
    case 'flannel-host-gw':
    case 'azure-cni':
    case 'azure-cni-overlay':
    case 'azure-cni-pod-subnet':
    case 'eks-vpc-bridge':
    case 'calico-bgp':
      return type === 'l2bridge';
    case 'flannel-vxlan':
    case 'calico-vxlan':
    case 'ovn-kubernetes':
      return type === 'overlay';
    case 'antrea':
      return type === 'transparent';
    case 'nat':
      return type === 'nat' || type === 'ics';
    default:
      return false;
  }
}

function networkSignals(m: NodeModel, out: PlatformEvidence[]): void {
  const pod = podNetworkOf(m);
  for (const n of m.networks ?? []) {
    const at = line(m, n.src, n.name);
    const t = typeName(n.type);
    if (n === pod) {
      const named = networkNamePlugins(n.name);
      const fit = named.filter((p) => typeFits(p, n.type));
      if (fit.length) {
        out.push({ ...at, kind: 'hns-network', weight: 3, plugins: fit, says: `the pod network is HNS network "${n.name}" of type ${t}, the name and type ${labelOf(fit)} creates` });
      } else if (named.length && !n.type) {
        // hnsdiag's listing prints names without types: the name alone still names the plugin (its mode
        // only when the name does: Calico's mode is in the type).
        out.push({ ...at, kind: 'hns-network', weight: named.length === 1 ? 3 : 2, plugins: named, says: `the pod network is named "${n.name}" as ${labelOf(named)} names it (its type is not in the bundle)` });
      } else if (named.length) {
        out.push({ ...at, kind: 'hns-network', weight: 1, plugins: named, says: `the pod network is named "${n.name}" like ${labelOf(named)}'s, but its type is ${t}` });
      } else if ((n.type === 'nat' || n.type === 'ics') && (m.networks ?? []).every((x) => x === n || x.type === 'nat' || x.type === 'ics')) {
        out.push({ ...at, kind: 'hns-network', weight: 3, plugins: ['nat'], says: `the only network with containers is "${n.name}" of type ${t} (WinNAT): no Kubernetes network plugin network exists` });
      }
      continue;
    }
    if (/^ext$/i.test(n.name) && n.type === 'l2bridge') out.push({ ...at, kind: 'hns-network', weight: 1, plugins: AZURE, says: 'HNS network "ext" (L2Bridge) is the one AKS creates before Azure CNI to hold the vSwitch (AgentBaker New-ExternalHnsNetwork)' });
    if (/^BaseOVNKubernetesHybridOverlayNetwork$/i.test(n.name)) out.push({ ...at, kind: 'hns-network', weight: 2, plugins: ['ovn-kubernetes'], says: 'HNS network "BaseOVNKubernetesHybridOverlayNetwork" is created by OVN-Kubernetes hybrid overlay' });
  }
}

function endpointSignals(m: NodeModel, out: PlatformEvidence[]): void {
  const eps = m.endpoints ?? [];
  const first = (re: RegExp, remote?: boolean) => eps.find((e) => re.test(e.name) && (remote === undefined || e.isRemote === remote));
  const add = (e: (typeof eps)[number] | undefined, weight: number, plugins: PluginId[], says: string) => {
    if (e) out.push({ ...line(m, e.src, e.name), kind: 'hns-endpoint', weight, plugins, says });
  };
  add(first(/^cbr0_ep$/i), 2, ['flannel-host-gw'], 'endpoint "cbr0_ep" is the bridge endpoint flanneld host-gw creates (hostgw_windows.go)');
  const cal = first(/^Calico_ep$/i);
  if (cal) add(cal, 2, cal.isRemote ? ['calico-vxlan'] : ['calico-bgp'], cal.isRemote ? 'endpoint "Calico_ep" is a remote endpoint: Calico VXLAN creates it so (dataplane_windows.go:509-555)' : 'endpoint "Calico_ep" is local: Calico BGP attaches it to the host (dataplane_windows.go:558-609)');
  add(first(/^VIPEndpoint$/i), 2, ['ovn-kubernetes'], 'endpoint "VIPEndpoint" is the source-VIP endpoint OpenShift WMCO creates for OVN-Kubernetes hybrid overlay');
  add(first(/^[0-9a-f]{8}-eth\d+$/i, false), 2, AZURE, 'pod endpoints are named "<container id[:8]>-eth0" as azure-vnet names them (network/endpoint_windows.go:50-70)');
  add(first(/^cid-[0-9a-f-]+$/i, false), 2, ['eks-vpc-bridge'], 'pod endpoints are named "cid-<id>" as vpc-bridge names them');
  add(first(/^[0-9a-f]{64}_calico$/i, false), 1, CALICO, 'pod endpoints are named "<sandbox id>_Calico"');
  add(first(/^[0-9a-f]{64}_(cbr0|flannel\.\d+|vxlan0)$/i, false), 1, FLANNEL, 'pod endpoints are named "<sandbox id>_<flannel network>" (win-bridge/win-overlay/sdnbridge naming)');
}

/** containerd (libcni) loads the first config by name per directory. */
function loaded(configs: CniConfigFile[]): CniConfigFile[] {
  const byDir = new Map<string, CniConfigFile[]>();
  for (const c of configs) {
    if (c.ext === 'other' || c.invalid) continue;
    const d = c.file.includes('/') ? c.file.slice(0, c.file.lastIndexOf('/')) : '';
    byDir.set(d, [...(byDir.get(d) ?? []), c]);
  }
  const base = (f: string) => f.slice(f.lastIndexOf('/') + 1);
  return [...byDir.values()].flatMap((l) => [...l].sort((a, b) => (base(a.file) < base(b.file) ? -1 : base(a.file) > base(b.file) ? 1 : 0))[0] ?? []);
}

/** Plugin types named in a config that does not parse (cut by a paste) or is not a config file libcni loads. */
/** The first line of a log event's text. */
const firstLine = (text: string): string => text.split('\n')[0] ?? '';
const KNOWN_TYPES: Record<string, PluginId[]> = { 'azure-vnet': AZURE, flannel: FLANNEL, 'vpc-bridge': ['eks-vpc-bridge'], 'vpc-shared-eni': ['eks-vpc-bridge'], calico: CALICO, antrea: ['antrea'], nat: ['nat'], sdnbridge: [], sdnoverlay: [], 'win-bridge': [], 'win-overlay': [] };
/**
 * The plugins a CNI "type" names, for the types hnsight knows only: the type is the file's word, and a
 * plain lookup would also find what every object has ("constructor" is a function, not a list).
 */
const knownType = (type: string): PluginId[] | undefined => (Object.hasOwn(KNOWN_TYPES, type) ? KNOWN_TYPES[type] : undefined);

/**
 * The Azure CNI mode an ipam section names, as the conflists of Azure/azure-container-networking show
 * them: cni/azure-windows.conflist (ipam azure-vnet-ipam: IPs of the node's own VNet subnet, set on its
 * NIC), cni/azure-windows-swift.conflist (ipam azure-cns, no mode, executionMode v4swift: dynamic IPs
 * of a pod subnet), cni/azure-windows-swift-overlay.conflist (ipam azure-cns, mode overlay).
 */
function azureModeOf(ipamType: string | undefined, ipamMode: string | undefined, swift: boolean): { plugins: PluginId[]; weight: number; why: string } {
  const t = (ipamType ?? '').toLowerCase();
  if (isOverlayIpamMode(ipamMode)) return { plugins: ['azure-cni-overlay'], weight: 3, why: '(Azure CNI Overlay: pod IPs from the node\'s pod CIDR)' };
  if (t === 'azure-vnet-ipam') return { plugins: ['azure-cni'], weight: 3, why: '(pod IPs from the VNet)' };
  if (t === 'azure-cns') return { plugins: ['azure-cni-pod-subnet'], weight: swift ? 3 : 2, why: `(no overlay mode${swift ? ', executionMode v4swift' : ''}: dynamic pod IPs from a pod subnet)` };
  return { plugins: AZURE, weight: 2, why: '(an ipam hnsight does not know: mode not known)' };
}

function cniTextSignals(m: NodeModel, c: CniConfigFile, out: PlatformEvidence[]): void {
  const t = m.text;
  if (!t?.has(c.file)) return;
  const found: { type: string; line: number; text: string }[] = [];
  let overlay: { line: number; text: string; mode: string } | undefined;
  let ipam: string | undefined;
  let swift = false;
  for (let i = 1; i <= 2000; i++) {
    const l = t.lineText(c.file, i);
    if (l === undefined) break;
    const ty = /"type"\s*:\s*"([\w.-]+)"/i.exec(l)?.[1]?.toLowerCase();
    if (ty && knownType(ty)) found.push({ type: ty, line: i, text: l.trim() });
    // The ipam section's type (azure-vnet-ipam, azure-cns) is the only "type" of those names in an Azure config.
    if (ty === 'azure-vnet-ipam' || ty === 'azure-cns') ipam ??= ty;
    const mode = /"mode"\s*:\s*"([\w.-]+)"/i.exec(l)?.[1];
    if (isOverlayIpamMode(mode)) overlay = { line: i, text: l.trim(), mode: mode! };
    if (/"executionMode"\s*:\s*"v4swift"/i.test(l)) swift = true;
  }
  const first = found.find((f) => knownType(f.type)?.length);
  if (!first) return;
  // Azure: the ipam section tells the mode (azureModeOf). A cut config may end before its ipam: then
  // only the family is known.
  const azure = first.type === 'azure-vnet';
  const am = azure && (ipam || overlay) ? azureModeOf(ipam, overlay?.mode, swift) : undefined;
  const plugins: PluginId[] = am ? am.plugins : (knownType(first.type) ?? []);
  const mode = !azure ? '' : overlay && !ipam ? ` with ipam mode "${overlay.mode}" (Azure CNI Overlay)` : am ? ` with ipam "${ipam}"${overlay ? ` mode "${overlay.mode}"` : ''} ${am.why}` : '';
  const why = c.invalid ? 'is not valid JSON (cut?), but' : `is not a file containerd loads (${c.file.slice(c.file.lastIndexOf('.'))}), but`;
  out.push({ file: c.file, line: first.line, text: first.text, kind: 'cni-config', weight: 2, plugins, says: `${c.file} ${why} names plugin "${first.type}"${mode}` });
}

function cniSignals(m: NodeModel, out: PlatformEvidence[]): void {
  const configs = m.cni?.configs ?? [];
  const usable = loaded(configs);
  if (!usable.length) for (const c of configs) cniTextSignals(m, c, out);
  for (const c of usable) {
    if (!c.plugins.some((p) => p.type)) cniTextSignals(m, c, out);
    for (const p of c.plugins) {
      const t = (p.type ?? '').toLowerCase();
      const ev = (plugins: PluginId[], says: string, weight = 3) => out.push({ ...line(m, p.src), kind: 'cni-config', weight, plugins, says: `${c.file}: ${says}` });
      if (t === 'flannel') {
        const d = (p.delegateType ?? 'win-bridge').toLowerCase();
        if (/bridge/.test(d)) ev(['flannel-host-gw'], `plugin "flannel" delegating to ${d} (host-gw)`);
        else if (/overlay/.test(d)) ev(['flannel-vxlan'], `plugin "flannel" delegating to ${d} (VXLAN)`);
        else ev(FLANNEL, `plugin "flannel" delegating to ${d}`, 2);
      } else if (t === 'azure-vnet') {
        const swift = !!m.text?.find(c.file, 1, (l) => /"executionMode"\s*:\s*"v4swift"/i.test(l), 400);
        const am = p.ipamType || p.ipamMode ? azureModeOf(p.ipamType, p.ipamMode, swift) : undefined;
        if (am) ev(am.plugins, `plugin "azure-vnet" with ipam ${p.ipamType ?? '(no type)'}${p.ipamMode ? ` mode "${p.ipamMode}"` : ''} ${am.why}`, am.weight);
        else ev(AZURE, 'plugin "azure-vnet"', 2);
      } else if (t === 'vpc-bridge' || t === 'vpc-shared-eni') {
        ev(['eks-vpc-bridge'], `plugin "${p.type}" (Amazon EKS)`);
      } else if (t === 'calico') {
        const mode = (p.mode ?? '').toLowerCase();
        if (mode === 'vxlan') ev(['calico-vxlan'], 'plugin "calico" with mode "vxlan"');
        else if (p.mode !== undefined) ev(['calico-bgp'], `plugin "calico" with mode "${p.mode}" (windows-bgp: l2bridge)`);
        else ev(CALICO, 'plugin "calico"', 2);
      } else if (t === 'antrea') {
        ev(['antrea'], 'plugin "antrea"');
      } else if (t === 'win-overlay' || t === 'sdnoverlay') {
        if (/OVNKubernetes/i.test(c.name ?? p.name ?? '')) ev(['ovn-kubernetes'], `plugin "${p.type}" on network "${c.name ?? p.name}" (OpenShift WMCO)`);
        else if (/^(flannel\.\d+|vxlan0)$/i.test(c.name ?? p.name ?? '')) ev(['flannel-vxlan'], `plugin "${p.type}" on network "${c.name ?? p.name}"`, 2);
      } else if (t === 'win-bridge' || t === 'sdnbridge') {
        if (/^cbr0$/i.test(c.name ?? p.name ?? '')) ev(['flannel-host-gw'], `plugin "${p.type}" on network "cbr0"`, 2);
      } else if (t === 'nat') {
        ev(['nat'], 'plugin "nat" (WinNAT, windows-container-networking)');
      }
    }
  }
}

/**
 * Logs by the component the log parser recognised in their lines (parsers/logs/components.ts), so a
 * plugin log counts whatever the file is called. The weights are those of the same log found by its
 * usual name (fileSignals); a log named like one and read as another counts once, by its content.
 */
const LOG_COMPONENTS: Partial<Record<LogComponent, { plugins: PluginId[]; weight: number; says: string }>> = {
  'azure-cni': { plugins: AZURE, weight: 2, says: 'the Azure CNI plugin (azure-vnet) log' },
  // azure-cns hands out the pod IPs in Overlay and pod subnet mode, but AKS may run it beside azure-vnet-ipam
  // too: its log names the family, not the mode.
  'azure-cns': { plugins: AZURE, weight: 1, says: 'the azure-cns log (Azure CNI; it does not tell the mode)' },
  antrea: { plugins: ['antrea'], weight: 2, says: 'the Antrea agent log' },
  calico: { plugins: CALICO, weight: 1, says: 'the Calico CNI plugin / calico-node log' },
  felix: { plugins: CALICO, weight: 1, says: "the log of Calico's Felix agent" },
  flannel: { plugins: FLANNEL, weight: 1, says: 'the flanneld log' },
};

/**
 * Logs a plugin wrote, by their lines, unless the file's name says another component wrote them:
 * windows-container-networking's wincni.log shares azure-vnet's `[cni-net]` tag (parsers/logs/components.ts),
 * and a kubelet or containerd log quotes the plugin's messages.
 */
function pluginLogs(m: NodeModel): LogFile[] {
  return (m.logs ?? []).filter((l) => {
    if (!LOG_COMPONENTS[l.component]) return false;
    const byName = componentFromName(l.file);
    return !byName || byName === l.component || !!LOG_COMPONENTS[byName];
  });
}

/** The log files logSignals counted, so fileSignals does not count the same log again by its name. */
function logSignals(m: NodeModel, out: PlatformEvidence[]): Set<string> {
  const counted = new Set<string>();
  const byComponent = new Map<LogComponent, LogFile>();
  for (const l of pluginLogs(m)) if (!byComponent.has(l.component)) byComponent.set(l.component, l);
  for (const [c, l] of byComponent) {
    const k = LOG_COMPONENTS[c]!;
    const ev = l.events[0];
    const what = ev ? { file: l.file, line: ev.line, text: firstLine(ev.text).trim().slice(0, 300) } : { file: l.file, line: 0, text: l.file };
    out.push({ ...what, kind: 'log', weight: k.weight, plugins: k.plugins, says: `${l.file} is ${k.says} (by its lines)` });
  }
  for (const l of pluginLogs(m)) counted.add(l.file);
  const at = (l: LogFile, e: LogFile['events'][number]) => ({ file: l.file, line: e.line, text: firstLine(e.text).trim().slice(0, 300) });
  for (const l of m.logs ?? []) {
    for (const e of l.events) {
      // flanneld prints its backend at start (flannel-io/flannel main.go: "Found network config - Backend type: %s").
      const backend = l.component === 'flannel' ? /Backend type:\s*(vxlan|host-gw)\b/i.exec(e.text)?.[1]?.toLowerCase() : undefined;
      if (backend) {
        out.push({ ...at(l, e), kind: 'log', weight: 2, plugins: [backend === 'vxlan' ? 'flannel-vxlan' : 'flannel-host-gw'], says: `flanneld says its backend is ${backend}` });
        break;
      }
      // azure-vnet prints the config it read ("Read network configuration &{… Ipam:{Type:azure-vnet-ipam …}"):
      // azure-vnet-ipam hands out the VNet IPs of the node's NIC (Azure CNI with VNet pod IPs).
      const read = l.component === 'azure-cni' && /Read network configuration/i.test(e.text) ? /Ipam:\{Type:([\w-]+)(?:[^}]*?\bMode:([\w-]*))?/.exec(e.text) : null;
      if (read) {
        const am = azureModeOf(read[1], read[2], /ExecutionMode:v4swift\b/i.test(e.text));
        out.push({ ...at(l, e), kind: 'log', weight: 2, plugins: am.plugins, says: `the azure-vnet log shows the plugin read a config with ipam ${read[1]}${read[2] ? ` mode "${read[2]}"` : ''} ${am.why}` });
        break;
      }
    }
  }
  // Pod endpoint names inside log lines (a failed ADD names the endpoint it tried): the plugins' naming
  // as endpointSignals reads it from HNS.
  const names: [RegExp, PluginId[], string][] = [
    [/\b[0-9a-f]{64}_calico\b/i, CALICO, 'Calico names pod endpoints "<sandbox id>_Calico"'],
    [/\b[0-9a-f]{64}_(cbr0|flannel\.\d+|vxlan0)\b/i, FLANNEL, 'pod endpoints named "<sandbox id>_<flannel network>" (win-bridge/win-overlay naming)'],
  ];
  for (const [re, plugins, why] of names) {
    let hit: PlatformEvidence | undefined;
    for (const l of m.logs ?? []) {
      const e = l.events.find((x) => re.test(x.text));
      if (e) {
        const name = re.exec(e.text)![0];
        hit = { ...at(l, e), kind: 'log', weight: 1, plugins, says: `a log line names endpoint "${name.slice(0, 12)}…${name.slice(64)}": ${why}` };
        break;
      }
    }
    if (hit) out.push(hit);
  }
  return counted;
}

/**
 * kube-proxy (winkernel) lines and settings. The proxier creates a source-VIP endpoint only when the
 * HNS network is of type Overlay (kubernetes/kubernetes pkg/proxy/winkernel/proxier.go syncProxyRules:
 * `if strings.EqualFold(proxier.network.networkType, NETWORK_TYPE_OVERLAY) { … newSourceVIP(…) …
 * klog.ErrorS(err, "Source Vip endpoint creation failed") }`), and it attaches to the HNS network named by
 * --network-name / KUBE_NETWORK (winkernel.networkName in its config); its spew dumps print each HNS
 * endpoint's VirtualNetworkName.
 */
function kubeProxySignals(m: NodeModel, out: PlatformEvidence[]): void {
  const kp = (m.logs ?? []).filter((l) => l.component === 'kube-proxy');
  const at = (l: LogFile, e: LogFile['events'][number]) => ({ file: l.file, line: e.line, text: firstLine(e.text).trim().slice(0, 300) });
  for (const l of kp) {
    // Only the failure is logged at the default level; "sourceVip" as a key appears on other networks too.
    const e = l.events.find((x) => /Source Vip endpoint creation failed/i.test(x.text));
    if (e) {
      out.push({ ...at(l, e), kind: 'kube-proxy', weight: 1, plugins: ['flannel-vxlan', 'calico-vxlan', 'ovn-kubernetes'], says: 'kube-proxy tries to create a source-VIP endpoint, which it does only on an HNS network of type Overlay (winkernel proxier.go syncProxyRules)' });
      break;
    }
  }
  const seen = new Set<string>();
  const named = (file: string, line: number, text: string, name: string, how: string) => {
    const plugins = networkNamePlugins(name);
    if (!plugins.length || seen.has(name.toLowerCase())) return;
    seen.add(name.toLowerCase());
    out.push({ file, line, text: text.trim().slice(0, 300), kind: 'kube-proxy', weight: 2, plugins, says: `kube-proxy ${how} "${name}", the pod network name ${labelOf(plugins)} uses` });
  };
  for (const l of kp) {
    for (const e of l.events) {
      const arg = /--network-name[= ]"?([\w.-]+)/i.exec(e.text)?.[1];
      if (arg) named(l.file, e.line, firstLine(e.text), arg, 'runs with --network-name');
      const vn = /VirtualNetworkName"?\s*:\s*(?:\(string\)\s*\(len=\d+\)\s*)?"([^"]+)"/.exec(e.text)?.[1];
      if (vn) named(l.file, e.line, firstLine(e.text), vn, 'works on HNS network');
    }
  }
  // kube-proxy's own config or start script in the bundle.
  const t = m.text;
  for (const f of m.files) {
    if (!/kube-?proxy/i.test(f.name) || !t?.has(f.name) || (m.logs ?? []).some((l) => l.file === f.name)) continue;
    const hit = t.find(f.name, 1, (x) => /--network-name[= ]|networkName\s*:|KUBE_NETWORK\s*=/i.test(x), 2000);
    const v = hit && /(?:--network-name[= ]|networkName\s*:\s*|KUBE_NETWORK\s*=\s*)["']?([\w.-]+)/i.exec(hit.text)?.[1];
    if (hit && v) named(f.name, hit.line, hit.text, v, 'is configured for HNS network');
  }
}

function fileSignals(m: NodeModel, out: PlatformEvidence[], counted: Set<string>): void {
  const names = m.files.map((f) => f.name);
  const seen = new Set<string>();
  const once = (re: RegExp, kind: PlatformEvidence['kind'], weight: number, plugins: PluginId[], says: (f: string) => string) => {
    const f = names.find((n) => re.test(n));
    if (!f || seen.has(says(''))) return;
    // The log was counted by its lines already.
    if (plugins.length && counted.has(f)) return;
    seen.add(says(''));
    out.push({ file: f, line: 0, text: f, kind, weight, plugins, says: says(f) });
  };
  once(/(^|\/)azure-vnet(-ipam)?\.log(\.\d+)?$/i, 'log', 2, AZURE, () => 'azure-vnet.log is the Azure CNI plugin log');
  once(/(^|\/)azure-vnet(-ipam)?\.json$/i, 'side-file', 2, AZURE, () => 'azure-vnet.json is the Azure CNI state file');
  once(/(^|\/)azure-cns\.log(\.\d+)?$/i, 'side-file', 1, AZURE, () => 'azure-cns.log: the azure-cns log (Azure CNI; it does not tell the mode)');
  once(/(^|\/)(vpc-bridge|vpc-shared-eni)[^/]*\.(log|conf)$|(^|\/)Amazon\/EKS\//i, 'side-file', 2, ['eks-vpc-bridge'], () => 'files of the EKS vpc-bridge plugin (C:\\ProgramData\\Amazon\\EKS)');
  once(/(^|\/)(calico-felix|calico-node|calico-confd|felix)[^/]*\.log$|(^|\/)calico\/cni\/cni\.log$|(^|\/)CalicoWindows\//i, 'log', 1, CALICO, () => 'Calico for Windows logs (calico-node / Felix / Calico CNI)');
  once(/(^|\/)antrea-agent[^/]*\.log(\.\d+)?$|(^|\/)antrea\//i, 'log', 2, ['antrea'], () => 'the Antrea agent log');
  once(/(^|\/)flanneld?[^/]*\.log$|(^|\/)subnet\.env$|(^|\/)net-conf\.json$/i, 'log', 1, FLANNEL, () => 'flanneld files (log, subnet.env or net-conf.json)');
  once(/(^|\/)hybrid-overlay[^/]*\.log$/i, 'log', 2, ['ovn-kubernetes'], () => 'hybrid-overlay.log is the OVN-Kubernetes hybrid overlay node log');
  once(/(^|\/)wincni\.log$/i, 'log', 1, [], () => 'wincni.log is written by sdnbridge / sdnoverlay / nat (windows-container-networking)');
}

/**
 * kubeclusterconfig.json (AKS / aks-engine) names the CNI: `"Cni": { "Name": "azure" }` (AgentBaker
 * staging/cse/windows/kubernetesfunc.ps1 Write-KubeClusterConfig; it names no ipam or mode). Its
 * Kubernetes.Network.ClusterCidr against the node IP hints at the mode: Overlay's pod CIDR must not
 * overlap the VNet ("Pods are assigned IP addresses from a private CIDR logically different from the
 * VNet hosting the nodes", learn.microsoft.com azure-cni-overlay), so a node IP inside it is no Overlay.
 */
function clusterConfigSignals(m: NodeModel, out: PlatformEvidence[], nodeIp: string | undefined): void {
  const f = m.files.find((x) => /(^|\/)kubeclusterconfig\.json$/i.test(x.name));
  if (!f) return;
  const t = m.text;
  const cni = t?.find(f.name, 1, (l) => /"Cni"\s*:/i.test(l), 400);
  const name = cni && t?.find(f.name, cni.line, (l) => /"Name"\s*:\s*"/i.test(l), 6);
  const value = name ? /"Name"\s*:\s*"([^"]*)"/i.exec(name.text)?.[1] : undefined;
  if (value && /^azure$/i.test(value)) out.push({ file: f.name, line: name!.line, text: name!.text.trim(), kind: 'side-file', weight: 2, plugins: AZURE, says: 'kubeclusterconfig.json (written by the AKS node setup) says Cni.Name "azure"' });
  else if (value) out.push({ file: f.name, line: name!.line, text: name!.text.trim(), kind: 'side-file', weight: 1, plugins: [], says: `kubeclusterconfig.json says Cni.Name "${value}"` });
  if (!value || !/^azure$/i.test(value) || !nodeIp) return;
  const cc = t?.find(f.name, 1, (l) => /"ClusterCidr"\s*:\s*"/i.test(l), 400);
  const cidrs = (cc ? /"ClusterCidr"\s*:\s*"([^"]*)"/i.exec(cc.text)?.[1] ?? '' : '').split(',').map((x) => x.trim()).filter((x) => parseCidr(x)?.family === 'ipv4');
  if (!cc || !cidrs.length) return;
  const inside = cidrs.some((x) => inCidr(nodeIp, x));
  out.push({
    file: f.name,
    line: cc.line,
    text: cc.text.trim(),
    kind: 'addressing',
    weight: 1,
    plugins: inside ? ['azure-cni', 'azure-cni-pod-subnet'] : AZURE_CNS,
    says: inside
      ? `the node IP ${nodeIp} lies in the cluster CIDR ${cidrs.join(', ')} (kubeclusterconfig.json): pods share the VNet's addresses, which Overlay's pod CIDR may not`
      : `the node IP ${nodeIp} lies outside the cluster CIDR ${cidrs.join(', ')} (kubeclusterconfig.json): pods take addresses apart from the node's subnet (Overlay or a pod subnet; inferred)`,
  });
}

function inCidr(ip: string, cidr: string): boolean {
  const c = parseCidr(cidr);
  const a = parseCidr(`${ip}/32`);
  if (!c || !a || c.family !== 'ipv4' || a.family !== 'ipv4' || c.network === undefined || a.network === undefined) return false;
  return c.prefixLength === 0 || a.network >>> (32 - c.prefixLength) === c.network >>> (32 - c.prefixLength);
}

/** Pods inside the node's own subnet take VNet/VPC IPs (Azure CNI, EKS); elsewhere a pod CIDR. */
function addressingSignals(m: NodeModel, out: PlatformEvidence[], nodeIp: string | undefined): void {
  const n = podNetworkOf(m);
  if (!n || !nodeIp || n.type !== 'l2bridge') return;
  const ip = parseCidr(`${nodeIp}/32`);
  const inside = n.subnets.some((s) => {
    const c = parseCidr(s.prefix);
    return c && ip && c.family === 'ipv4' && c.network !== undefined && ip.network !== undefined && c.prefixLength > 0 && (ip.network >>> (32 - c.prefixLength)) === (c.network >>> (32 - c.prefixLength));
  });
  const at = line(m, n.src, n.subnets[0]?.prefix);
  if (!n.subnets.length) return;
  if (inside) out.push({ ...at, kind: 'addressing', weight: 1, plugins: ['azure-cni', 'eks-vpc-bridge'], says: `the node IP ${nodeIp} lies in the pod subnet ${n.subnets.map((s) => s.prefix).join(', ')}: pods take addresses from the node's VNet/VPC subnet` });
  else out.push({ ...at, kind: 'addressing', weight: 1, plugins: ['azure-cni-overlay', 'azure-cni-pod-subnet', 'flannel-host-gw', 'calico-bgp'], says: `the pod subnet ${n.subnets.map((s) => s.prefix).join(', ')} is separate from the node IP ${nodeIp}: a pod CIDR of its own` });
}

/** The cloud or distribution, when the bundle says. */
function cloudSignals(m: NodeModel, out: PlatformEvidence[]): void {
  const names = m.files.map((f) => f.name);
  const has = (re: RegExp) => names.find((n) => re.test(n));
  const aks = has(/(^|\/)collect-windows-logs-output\.log$/i) ?? has(/(^|\/)kubeclusterconfig\.json$/i);
  if (aks) out.push({ file: aks, line: 0, text: aks, kind: 'cloud', weight: 0, plugins: [], says: /collect-windows-logs/i.test(aks) ? 'AKS: written by collect-windows-logs.ps1' : 'AKS or aks-engine: kubeclusterconfig.json is written by their node setup' });
  const eks = has(/(^|\/)Amazon\/EKS\//i) ?? has(/(^|\/)eks-log-collector/i);
  if (eks) out.push({ file: eks, line: 0, text: eks, kind: 'cloud', weight: 0, plugins: [], says: 'EKS: files from C:\\ProgramData\\Amazon\\EKS' });
  const host = m.meta.hostName ?? '';
  if (!eks && /\.(ec2|compute)\.internal$|^EC2AMAZ-/i.test(host)) out.push({ file: m.meta.sources.ip?.[0] ?? '', line: 0, text: host, kind: 'cloud', weight: 0, plugins: [], says: `EKS / EC2: host name ${host}` });
  if (!aks && /^aks[a-z0-9-]*$/i.test(host) && /win|vmss/i.test(host)) out.push({ file: m.meta.sources.ip?.[0] ?? '', line: 0, text: host, kind: 'cloud', weight: 0, plugins: [], says: `AKS: host name ${host}` });
  const rke = has(/(^|\/)rke2[^/]*\.log$|(^|\/)rancher\//i);
  if (rke) out.push({ file: rke, line: 0, text: rke, kind: 'cloud', weight: 0, plugins: [], says: 'RKE2 (Rancher) files' });
}

export function collectSignals(m: NodeModel, nodeIp: string | undefined): PlatformEvidence[] {
  const out: PlatformEvidence[] = [];
  networkSignals(m, out);
  endpointSignals(m, out);
  cniSignals(m, out);
  fileSignals(m, out, logSignals(m, out));
  kubeProxySignals(m, out);
  clusterConfigSignals(m, out, nodeIp);
  addressingSignals(m, out, nodeIp);
  cloudSignals(m, out);
  return out.filter((e) => e.file !== '' || e.kind === 'cloud');
}

function labelOf(ps: PluginId[]): string {
  const fam = new Set(ps.map((p) => p.split('-')[0]));
  if (fam.size === 1) {
    const f = [...fam][0];
    if (ps.length > 1) return ({ azure: 'Azure CNI', calico: 'Calico', flannel: 'Flannel' } as Record<string, string>)[f ?? ''] ?? ps.join(' / ');
  }
  return ps.map((p) => ({ 'flannel-host-gw': 'Flannel host-gw', 'flannel-vxlan': 'Flannel VXLAN', 'azure-cni': 'Azure CNI', 'azure-cni-overlay': 'Azure CNI Overlay', 'azure-cni-pod-subnet': 'Azure CNI (pod subnet)', 'eks-vpc-bridge': 'EKS vpc-bridge', 'calico-vxlan': 'Calico VXLAN', 'calico-bgp': 'Calico BGP', antrea: 'Antrea', 'ovn-kubernetes': 'OVN-Kubernetes', nat: 'nat', unknown: '?' })[p]).join(' / ');
}
