// Small files real bundles carry that hnsight does not need to interpret (a reader must list them):
// mtu.txt, arp.txt, winver.txt, hcsdiag.txt, containers.txt, reservedports.txt, excludedportrange.txt,
// dynamicportrange.txt, windowsServices.txt, netadapter.txt, adapters\<ifName>_int.txt,
// vswitchForwarding.txt; plus the AKS collect-windows-logs extras for the flat zip.

import { fixedTable, psTable } from '../psformat.ts';
import type { Adapter, GeneratedNode } from '../types.ts';
import { ifMetricOf } from './ip.ts';

const hostAdapters = (node: GeneratedNode) => node.compartments[0].adapters;
/** The physical adapter behind the host vNIC: HNS names the vNIC `vEthernet (<adapter>)`. */
export const uplinkName = (node: GeneratedNode) => /^vEthernet \((.+)\)$/.exec(hostAdapters(node)[0]?.name ?? '')?.[1] ?? 'Ethernet';

export function mtuTxt(node: GeneratedNode): string {
  let s = '\nIdx     Met         MTU          State                Name\n---  ----------  ----------  ------------  ---------------------------\n';
  const row = (idx: number, met: number, mtu: number, name: string) => `${String(idx).padStart(3)}  ${String(met).padStart(10)}  ${String(mtu).padStart(10)}  ${'connected'.padEnd(12)}  ${name}\n`;
  s += row(1, 75, 4294967295, 'Loopback Pseudo-Interface 1');
  for (const a of hostAdapters(node)) s += row(a.ifIndex, ifMetricOf(a), a.mtu, a.name);
  return s + '\n';
}

export function arpTxt(node: GeneratedNode): string {
  let s = '';
  const neigh: string[][] = [];
  for (const a of hostAdapters(node)) {
    if (!a.ipv4) continue;
    s += `\nInterface: ${a.ipv4} --- 0x${a.ifIndex.toString(16)}\n  Internet Address      Physical Address      Type\n`;
    const rows: [string, string, string][] = [];
    if (a === hostAdapters(node)[0]) {
      rows.push([node.nodeGateway, '12-34-56-78-9a-bc', 'dynamic']);
      for (const r of node.remoteNodes) rows.push([r.ip, '12-34-56-78-9a-bc', 'dynamic']);
    }
    rows.push(['224.0.0.22', '01-00-5e-00-00-16', 'static'], ['224.0.0.251', '01-00-5e-00-00-fb', 'static'], ['255.255.255.255', 'ff-ff-ff-ff-ff-ff', 'static']);
    for (const [ip, mac, type] of rows) {
      s += `  ${ip.padEnd(22)}${mac.padEnd(22)}${type}\n`;
      neigh.push([String(a.ifIndex), ip, mac.toUpperCase(), type === 'dynamic' ? 'Reachable' : 'Permanent', 'ActiveStore']);
    }
  }
  return s + '\n' + fixedTable(['ifIndex', 'IPAddress', 'LinkLayerAddress', 'State', 'PolicyStore'], neigh, [7, 50, 21, 11, 11], [true]);
}

export function winverTxt(node: GeneratedNode): string {
  const [maj, min, build, rev] = node.spec.windowsBuild.split('.');
  const kbs = build === '17763' ? ['KB5039217', 'KB5037763', 'KB5034439'] : ['KB5039227', 'KB5037930', 'KB5034439'];
  const d = node.collectedAt;
  const date = `${d.getUTCMonth() + 1}/${Math.max(1, d.getUTCDate() - 3)}/${d.getUTCFullYear()} 12:00:00 AM`;
  const table = psTable(
    ['Source', 'Description', 'HotFixID', 'InstalledBy', 'InstalledOn'],
    kbs.map((kb, i) => [node.hostName.toUpperCase(), i === 0 ? 'Update' : 'Security Update', kb, 'NT AUTHORITY\\SYSTEM', date]),
  );
  return `Microsoft Windows NT ${maj}.${min}.${build}.0\n\n\nBuild revision ${rev}\n` + table;
}

function podContainers(node: GeneratedNode): string[] {
  return node.endpoints.filter((e) => e.containerId).map((e) => e.containerId!);
}

export function hcsdiagTxt(node: GeneratedNode): string {
  return podContainers(node)
    .map((id) => `${id}\n    Windows Server Container,   Running, ${id}, containerd-shim-runhcs-v1.exe\n`)
    .join('\n');
}

export function containersTxt(node: GeneratedNode): string {
  let s = 'CONTAINER                                                           IMAGE                                                      RUNTIME                  \n';
  for (const id of podContainers(node)) s += `${id}    mcr.microsoft.com/oss/kubernetes/pause:3.9                 io.containerd.runhcs.v1    \n`;
  return s;
}

export function reservedPortsTxt(): string {
  return 'Rough estimation of the ephemeral port availability: up to 247 allocations of 64 contiguous TCP ports may be possible\nSuccessfully reserved 10 ranges of 64 ports\n';
}

export function excludedPortRangeTxt(): string {
  const block = (proto: string, ranges: [number, number, boolean][]) =>
    `\nProtocol ${proto} Port Exclusion Ranges\n\nStart Port    End Port\n----------    --------\n` +
    ranges.map(([a, b, adm]) => `${String(a).padStart(10)}  ${String(b).padStart(10)}${adm ? '     *' : ''}\n`).join('') +
    '\n* - Administered port exclusions.\n\n';
  return block('tcp', [[5985, 5985, false], [10250, 10250, true], [47001, 47001, false], [50000, 50059, true]]) + block('udp', [[50000, 50059, true]]);
}

export function dynamicPortRangeTxt(): string {
  const block = (proto: string) => `\nProtocol ${proto} Dynamic Port Range\n---------------------------------\nStart Port      : 49152\nNumber of Ports : 16384\n\n`;
  return block('tcp') + block('udp');
}

export function windowsServicesTxt(): string {
  return fixedTable(
    ['Status', 'Name', 'DisplayName'],
    [
      ['Running', 'containerd', 'containerd container runtime'],
      ['Running', 'hns', 'Host Network Service'],
      ['Running', 'kubelet', 'kubelet'],
      ['Running', 'kubeproxy', 'kubeproxy'],
      ['Running', 'tcpip', 'TCP/IP Protocol Driver'],
      ['Running', 'vfpext', 'Virtual Filtering Platform VMSwitch Extension'],
    ],
    [7, 18, 50],
  );
}

export function netAdapterTxt(node: GeneratedNode): string {
  const rows: string[][] = [[uplinkName(node), 'Microsoft Hyper-V Network Adapter', '6', 'Up', node.hostMac, '100 Gbps']];
  for (const a of hostAdapters(node)) rows.push([a.name, a.description, String(a.ifIndex), 'Up', a.mac, '10 Gbps']);
  return fixedTable(['Name', 'InterfaceDescription', 'ifIndex', 'Status', 'MacAddress', 'LinkSpeed'], rows, [25, 39, 7, 12, 21, 12], [false, false, true]);
}

/** adapters\<ifName>_int.txt (ASCII): netsh per-interface parameters, then `Format-List *`. */
export function adapterIntFiles(node: GeneratedNode): { name: string; text: string }[] {
  const all: Adapter[] = [
    { ...hostAdapters(node)[0], name: uplinkName(node), description: 'Microsoft Hyper-V Network Adapter', ifIndex: 6, ipv4: undefined },
    ...hostAdapters(node),
  ];
  return all.map((a) => {
    const kv = (k: string, v: string | number) => `${k.padEnd(35)}: ${v}\n`;
    let t = `\nInterface ${a.name} Parameters\n----------------------------------------------\n`;
    t += kv('IfLuid', `ethernet_${32768 + a.ifIndex}`) + kv('IfIndex', a.ifIndex) + kv('State', 'connected') + kv('Metric', ifMetricOf(a));
    t += kv('Link MTU', `${a.mtu} bytes`) + kv('Reachable Time', '44000 ms') + kv('Base Reachable Time', '30000 ms') + kv('Retransmission Interval', '1000 ms');
    t += kv('DAD Transmits', 3) + kv('Site Prefix Length', 64) + kv('Site Id', 1) + kv('Forwarding', a.name.includes('(') ? 'enabled' : 'disabled') + kv('Advertising', 'disabled');
    t += kv('Neighbor Discovery', 'enabled') + kv('Neighbor Unreachability Detection', 'enabled') + kv('Router Discovery', 'dhcp') + kv('Managed Address Configuration', 'enabled');
    t += kv('Other Stateful Configuration', 'enabled') + kv('Weak Host Sends', 'disabled') + kv('Weak Host Receives', 'disabled') + kv('Use Automatic Metric', 'enabled');
    t += kv('Ignore Default Routes', 'disabled') + kv('Advertised Router Lifetime', '1800 seconds') + kv('Advertise Default Route', 'disabled') + kv('Current Hop Limit', 0);
    t += kv('Force ARPND Wake up patterns', 'disabled') + kv('Directed MAC Wake up patterns', 'disabled') + kv('ECN capability', 'application');
    t += kv('RA Based DNS Config (RFC 6106)', 'disabled') + kv('DHCP/Static IP coexistence', 'disabled') + '\n\n';
    const fl = (k: string, v: string | number) => `${k.padEnd(51)} : ${v}\n`;
    t += '\n\n' + fl('ifAlias', a.name) + fl('InterfaceAlias', a.name) + fl('ifIndex', a.ifIndex) + fl('ifDesc', a.description) + fl('ifName', `ethernet_${32768 + a.ifIndex}`);
    t += fl('DriverVersion', '10.0.20348.1') + fl('LinkLayerAddress', a.mac) + fl('MacAddress', a.mac) + fl('LinkSpeed', a.name === uplinkName(node) ? '100 Gbps' : '10 Gbps');
    t += fl('MediaType', '802.3') + fl('PhysicalMediaType', 'Unspecified') + fl('AdminStatus', 'Up') + fl('MediaConnectionState', 'Connected') + fl('Status', 'Up');
    t += fl('MtuSize', a.mtu) + fl('Hidden', 'False') + fl('Virtual', a.name === uplinkName(node) ? 'False' : 'True') + fl('Name', a.name) + fl('InterfaceDescription', a.description) + '\n\n\n';
    return { name: `${a.name.replace(/[\\/:*?"<>|]/g, ' ')}_int.txt`, text: t };
  });
}

export function vswitchForwardingTxt(node: GeneratedNode): string {
  const sw = node.vfpPorts[0];
  return `\n ITEM LIST\n ===========\n\nSwitch forwarding settings for ${sw.switchName}\n    Allow IP forwarding : FALSE\n    Allow packet direct : FALSE\n\nCommand get-switch-forwarding-settings succeeded!\n`;
}

// ---------------------------------------------------------------- AKS collect-windows-logs extras
const klogTime = (d: Date, addMs: number) => {
  const t = new Date(d.getTime() - 600_000 + addMs);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(t.getUTCMonth() + 1)}${p(t.getUTCDate())} ${p(t.getUTCHours())}:${p(t.getUTCMinutes())}:${p(t.getUTCSeconds())}.${p(t.getUTCMilliseconds(), 3)}000`;
};

export function kubeletLog(node: GeneratedNode): string {
  const lines = [`I${klogTime(node.collectedAt, 0)}    4312 server.go:487] "Kubelet version" kubeletVersion="v1.29.4"`];
  node.endpoints
    .filter((e) => e.kind === 'pod')
    .forEach((e, i) => lines.push(`I${klogTime(node.collectedAt, 1000 + i * 250)}    4312 kubelet.go:2447] "SyncLoop (PLEG): event for pod" pod="default/web-${i}" event={"ID":"${e.containerId!.slice(0, 8)}","Type":"ContainerStarted","Data":"${e.containerId}"}`));
  return lines.join('\n') + '\n';
}

export function kubeproxyLog(node: GeneratedNode): string {
  const net = node.networks.find((n) => n.type !== 'nat' && !n.infra) ?? node.networks[0];
  const lines = [`I${klogTime(node.collectedAt, 0)}    2208 server_windows.go:87] "Using Kernel mode proxy"`, `I${klogTime(node.collectedAt, 5)}    2208 proxier.go:743] "Hns Network loaded" hnsNetworkInfo={"id":"${net.id}","name":"${net.name}","networkType":"${net.type === 'l2bridge' ? 'L2Bridge' : 'Overlay'}"}`];
  node.loadBalancers.slice(0, 50).forEach((lb, i) => lines.push(`I${klogTime(node.collectedAt, 100 + i)}    2208 hns.go:432] "Hns loadbalancer policy resource" lbID="${lb.id.toLowerCase()}" vip="${lb.vip}" internalPort=${lb.internalPort} externalPort=${lb.externalPort}`));
  return lines.join('\n') + '\n';
}

export function kubeClusterConfigJson(node: GeneratedNode): string {
  return JSON.stringify(
    { Cri: { Name: 'containerd' }, Kubernetes: { Network: { ClusterCidr: node.clusterCidr, ServiceCidr: node.serviceCidr, DnsIp: node.dnsVip } }, Cni: { Name: node.platform ? (node.platform.startsWith('azure') ? 'azure' : node.platform.split('-')[0]) : node.spec.network === 'l2bridge' ? 'azure' : 'flannel' } },
    null,
    2,
  );
}

export function servicesCsv(): string {
  return '#TYPE System.ServiceProcess.ServiceController\n"Name","DisplayName","Status"\n"hns","Host Network Service","Running"\n"kubelet","kubelet","Running"\n"kubeproxy","kubeproxy","Running"\n"containerd","containerd container runtime","Running"\n';
}

export function transcriptLog(node: GeneratedNode): string {
  return `**********************\nWindows PowerShell transcript start\nStart time: ${node.collectedAt.toISOString().replace(/[-:T]/g, '').slice(0, 14)}\nMachine: ${node.hostName.toUpperCase()} (Microsoft Windows NT ${node.spec.windowsBuild})\n**********************\nCollecting logs for ${node.hostName}\nRunning collectlogs.ps1\nCompressing all files\n`;
}
