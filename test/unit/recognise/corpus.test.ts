// Every real output in ../shared/corpus (posted in public GitHub issues; each has a .src naming where
// it came from), read as a person pasting it would hand it over: under a neutral name, so only its
// content can tell what it is. The expectations below were written by reading each sample: its
// kind, and the counts and fields a person sees in it (cut excerpts included: what is cut is not
// expected).
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { corpusDir, readOne, type Read } from './read-sample.ts';
import type { ParsedFile } from '../../../parsers/bundle/parsed-file.ts';
import { runChecks } from '../../../analysis/checks/index.ts';

const dir = corpusDir();
type R = Read & { p: ParsedFile };
const NAME = 'pasted.txt';

function content<T extends ParsedFile['content']['type']>(p: ParsedFile, type: T): Extract<ParsedFile['content'], { type: T }> {
  expect(p.content.type).toBe(type);
  return p.content as Extract<ParsedFile['content'], { type: T }>;
}
const logOf = (r: R) => content(r.p, 'log').value;
const hnsOf = (r: R) => content(r.p, 'hns').value;
const issuesAt = (r: R, sev: string) => r.p.issues.filter((i) => i.severity === sev).map((i) => i.line);

const EXPECT: Record<string, { kind: string; format: RegExp; check: (r: R) => void }> = {
  'antrea-agent-log-cmdadd__antrea-io-antrea-pr-2406.txt': {
    kind: 'log', format: /klog \(antrea\)/,
    check: (r) => {
      const l = logOf(r);
      expect(l.component).toBe('antrea');
      expect(l.events.map((e) => [e.line, e.level, e.message.slice(0, 23)])).toEqual([[1, 'info', 'Received CmdAdd request'], [2, 'info', 'Received CmdAdd request']]);
      expect(l.events[0].pod).toEqual({ namespace: 'network-policy-1573', name: 'server-g4kvm' });
      expect(l.events[0].ids).toEqual(['d636c4374967a6f90d9b802d9bf24cb4f060e716b0ec8165fcc59be2a59daf28']);
      expect(l.events[0]).toMatchObject({ pid: 508, caller: 'server.go:375', time: { precision: 'monthday' } });
    },
  },
  'azure-cni-log-add__Azure-azure-container-networking-issue-335.txt': {
    kind: 'log', format: /Azure CNI \(azure-cni\)/,
    check: (r) => {
      const l = logOf(r);
      expect(l.events).toHaveLength(2);
      expect(l.events[0].time).toMatchObject({ precision: 'full', ms: Date.UTC(2019, 3, 15, 17, 25, 13) });
      expect(l.events[0].pod).toEqual({ namespace: 'default', name: 'iis-site-74545b4d66-xsphc' });
      expect(l.events[0].message).toMatch(/^\[cni-net\] Processing ADD command/);
      expect(l.events[1].message).toMatch(/^\[cni-net\] Read network configuration/);
    },
  },
  'azure-cni-log-zap-json__Azure-azure-container-networking-pr-2143.txt': {
    kind: 'log', format: /zap JSON \(azure-cni\)/,
    check: (r) => {
      const l = logOf(r);
      // Four records: three zap lines and one legacy line; the fifth line continues the cut fourth.
      expect(l.events.map((e) => [e.line, e.format, e.level ?? null])).toEqual([[1, 'zap', 'info'], [2, 'azure', null], [3, 'zap', 'info'], [4, 'zap', 'info']]);
      expect(l.events[1]).toMatchObject({ pid: 11200, message: '[net] Restored state' });
      expect(l.events[3]).toMatchObject({ message: '[cni-net] Processing ADD command', endLine: 5, pod: { namespace: 'default', name: 'windows-pod23' } });
      expect(l.events[3].fields).toMatchObject({ containerId: '45dce45f6be6bbcbdbf95275743763425abe026a690153b287365f5d4aaa9e61', netNS: '31b673d2-2b52-480a-8ca2-ffd04ffb4a68', cut: 'true' });
      expect(l.formats).toEqual(['zap', 'azure']);
    },
  },
  'calico-cni-log-windows-dataplane__projectcalico-calico-issue-9120.txt': {
    kind: 'log', format: /Calico \(calico\)/,
    check: (r) => {
      const l = logOf(r);
      expect(l.events.every((e) => e.level === 'info' && e.pid === 14032)).toBe(true);
      expect(l.events[2].fields).toEqual({ ContainerID: '974c206ec138497e2d4e1e188c1d6a70cdc238d4c0279c6f923209d8bf971c8e', Namespace: 'default', Pod: 'win-webserver-6678868fb5-ktg29', WorkloadEndpoint: 'qdcpwinsd01-k8s-win--webserver--6678868fb5--ktg29-eth0', name: 'Calico' });
      expect(l.events[3].message).toMatch(/^Found existing HNS network/);
    },
  },
  'cni-config-azure-vnet-overlay__Azure-azure-container-networking-pr-2281.txt': {
    kind: 'cni-config', format: /CNI \.conflist/,
    check: (r) => {
      const c = content(r.p, 'cni-config').value;
      expect(c).toMatchObject({ name: 'azure', cniVersion: '0.3.0', hasPluginsKey: true, cut: true });
      expect(c.plugins.map((p) => [p.type, p.ipamType, p.dnsServers, p.dnsCapability])).toEqual([['azure-vnet', 'azure-cns', ['10.0.0.10', '168.63.129.16'], true]]);
      expect(issuesAt(r, 'warning')).toEqual([24]);
    },
  },
  'cni-config-azure-vnet__Azure-aks-engine-issue-1235.txt': {
    kind: 'cni-config', format: /CNI \.conflist/,
    check: (r) => {
      const c = content(r.p, 'cni-config').value;
      expect(c).toMatchObject({ name: 'azure', cniVersion: '0.3.0', cut: true });
      expect(c.plugins.map((p) => [p.type, p.ipamType, p.dnsServers])).toEqual([['azure-vnet', 'azure-vnet-ipam', ['10.0.0.10', '168.63.129.16']]]);
    },
  },
  'cni-config-crictl-info-nat__containerd-containerd-issue-6300.txt': {
    kind: 'cni-config', format: /crictl info/,
    check: (r) => {
      const c = content(r.p, 'cni-config').value;
      expect(c).toMatchObject({ origin: 'crictl-info', name: 'nat', cniVersion: '0.2.0', confDir: 'C:\\Program Files\\containerd\\cni\\conf', binDirs: ['C:\\Program Files\\containerd\\cni\\bin'] });
      // The plugin's own JSON (Source) says more than libcni's parsed copy: the IPAM subnet.
      expect(c.plugins.map((p) => [p.type, p.ipamSubnet, p.dnsCapability])).toEqual([['nat', '10.1.0.0/16', true]]);
    },
  },
  'containerd-log-flannel__kubernetes-sigs-sig-windows-tools-issue-102.txt': {
    kind: 'log', format: /logrus \(containerd\)/,
    check: (r) => {
      const l = logOf(r);
      expect(l.events).toHaveLength(12);
      expect(l.events.every((e) => e.level === 'info' && e.time?.precision === 'full')).toBe(true);
      expect(l.events[0].time!.ms).toBe(Date.UTC(2020, 8, 20, 18, 47, 55) + 660.9902);
      expect(l.events[3].fields).toEqual({ address: '\\\\.\\pipe\\containerd-containerd.ttrpc' });
      expect(l.events[11]).toMatchObject({ line: 12, pod: { namespace: 'default', name: 'win-webserver-8fd4cbb56-q9sqc' } });
      // The paste ends with "ti", the first letters of the next line: said, and not taken into the record before it.
      expect(l.events[11].endLine).toBeUndefined();
      expect(r.p.issues).toContainEqual(expect.objectContaining({ line: 13, severity: 'info', message: expect.stringMatching(/^the text ends inside this line: "ti"/) }));
    },
  },
  'containerd-log-sandbox__containernetworking-cni-issue-881.txt': {
    kind: 'log', format: /logrus \(containerd\)/,
    check: (r) => {
      const l = logOf(r);
      expect(l.events.map((e) => e.level)).toEqual(['trace', 'trace', 'info', 'debug']);
      expect(l.events.every((e) => e.fields?.host === 'ip-10-0-131-233.ec2.internal')).toBe(true);
      expect(l.events[2].pod).toEqual({ namespace: 'default', name: 'win-webserver-5db7f85d96-bsss7' });
    },
  },
  'e2e-events-sandbox-azure-cni__Azure-azure-container-networking-issue-774.txt': {
    kind: 'log', format: /e2e event dump/,
    check: (r) => {
      const l = logOf(r);
      expect(l.component).toBe('events');
      expect(l.events.map((e) => [e.level, e.fields?.reason, e.fields?.node])).toEqual([
        ['info', 'Started', '2884k8s001'], ['warning', 'FailedCreatePodSandBox', '2884k8s000'], ['warning', 'FailedCreatePodSandBox', '2884k8s000'], ['warning', 'FailedCreatePodSandBox', '2884k8s000'],
      ]);
      expect(l.events[1].time!.ms).toBe(Date.UTC(2021, 0, 29, 6, 37, 8));
      expect(l.events[1].ids).toEqual(['678fa65619f0dd4c0434d2b4e510bd99930bc62e8ea4b64ea8a5f79a73b20f6a']);
    },
  },
  'felix-log-windows-service__projectcalico-calico-issue-7305.txt': {
    kind: 'log', format: /Calico \(felix\)/,
    check: (r) => {
      const l = logOf(r);
      expect(l.component).toBe('felix');
      expect(l.events.map((e) => [e.level, e.caller])).toEqual([['info', 'felix/win_dataplane.go:256'], ['info', 'felix/win_dataplane.go:307'], ['info', 'felix/win_dataplane.go:314']]);
      expect(l.events[2]).toMatchObject({ message: 'Finished applying updates to dataplane.', fields: { msecToApply: '0' } });
    },
  },
  'flanneld-log-hostgw-existing-network__flannel-io-flannel-issue-833.txt': {
    kind: 'log', format: /klog \(flannel\)/,
    check: (r) => {
      const l = logOf(r);
      // Three lines of prompt and command, eleven klog lines, one error line cut after its pid.
      expect(l.preamble).toBe(3);
      expect(l.events.map((e) => e.line)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
      expect(l.events[11]).toMatchObject({ level: 'error', message: '', fields: { cut: 'true' } });
      expect(l.events[10].message).toMatch(/^Attempting to create HNS network, request: \{"Name":"vxlan0"/);
    },
  },
  'get-netipinterface__docker-for-win-issue-7179.txt': {
    kind: 'ip', format: /Get-NetIPInterface/,
    check: (r) => {
      const v = content(r.p, 'ip').value;
      // Eight whole rows and one cut after its alias.
      expect(v.netIpInterfaces.map((x) => x.ifIndex)).toEqual([24, 31, 1, 13, 6, 2, 22, 15, 20]);
      expect(v.netIpInterfaces[1]).toMatchObject({ interfaceAlias: 'vEthernet (nat)', interfaceMetric: 5000, nlMtu: 1500 });
      expect(v.netIpInterfaces[8]).toMatchObject({ ifIndex: 20, interfaceAlias: 'Ethernet' });
      expect(v.netIpInterfaces[8].interfaceMetric).toBeUndefined();
      expect(r.counts).toMatchObject({ compartments: null, adapters: null });
    },
  },
  'get-netroute__kubernetes-sigs-sig-windows-tools-issue-215.txt': {
    kind: 'routes', format: /Get-NetRoute/,
    check: (r) => {
      const v = content(r.p, 'routes').value;
      expect(v.netRoutes.map((x) => [x.ifIndex, x.destinationPrefix])).toEqual([
        [23, '255.255.255.255/32'], [21, '255.255.255.255/32'], [23, '224.0.0.0/4'], [21, '224.0.0.0/4'], [23, '172.28.63.255/32'], [23, '172.28.49.61/32'], [23, '172.28.48.0/20'], [21, '127.255.255.255/32'],
      ]);
      expect(r.counts.ipv4Routes).toBe(8);
    },
  },
  'hns-endpoint-json__Azure-AKS-issue-1367.txt': {
    kind: 'endpoint', format: /HNS endpoints \(ConvertTo-Json, Windows PowerShell 5\.1 layout\)/,
    check: (r) => {
      const [e] = hnsOf(r).endpoints;
      expect(e).toMatchObject({ id: '2462b2d1-c402-4024-9c86-5a6903af7759', name: 'Ethernet', ip: '10.240.0.11', mac: '02-11-0A-F0-00-0B', isRemote: true, prefixLength: 16, partial: true });
      expect(r.counts).toMatchObject({ endpoints: 1, remoteEndpoints: 1, localEndpoints: 0 });
      expect(issuesAt(r, 'error')).toEqual([34]);
    },
  },
  'hns-endpoint-json__projectcalico-calico-issue-4682.txt': {
    kind: 'endpoint', format: /HNS endpoints \(ConvertTo-Json/,
    check: (r) => {
      const [e] = hnsOf(r).endpoints;
      expect(e).toMatchObject({ id: '89958f54-aee8-4050-b1e1-cb12a86ce8bc', ip: '10.1.18.67', gateway: '10.1.18.65', mac: '0E-2A-0A-01-12-43', isRemote: false, partial: true });
      expect(e.outboundNat.map((o) => o.exceptions)).toEqual([['10.152.183.0/24', '10.1.0.0/16']]);
      expect(r.counts).toMatchObject({ endpoints: 1, localEndpoints: 1 });
    },
  },
  'hns-endpoint-list-wrapped__microsoft-Windows-Containers-issue-59.txt': {
    kind: 'endpoint', format: /Get-HnsEndpoint list view/,
    check: (r) => {
      const [e] = hnsOf(r).endpoints;
      expect(e).toMatchObject({ id: '72a0776a-bb47-4f98-8953-2a738f4baf4d', name: 'agent0', ip: '169.254.1.0', gateway: '169.254.1.1', prefixLength: 30, mac: '00-50-56-96-00-0E', isRemote: false, fromTable: true });
      // The wrapped Resources value is one value, and what the list view did not print is said.
      expect(r.p.issues.find((i) => i.severity === 'warning')!.message).toMatch(/list view.*Resources\.Allocators/);
    },
  },
  'hns-loadbalancer-json-and-vfp-rule-fragment__kubernetes-kubernetes-pr-115344.txt': {
    kind: 'policy', format: /HNS load balancers .*\(a piece of JSON, ConvertTo-Json, Windows PowerShell 5\.1 layout\)/,
    check: (r) => {
      const [lb] = hnsOf(r).loadBalancers;
      expect(lb).toMatchObject({ id: '', vips: ['20.22.71.151'], endpointIds: ['0b15edac-6933-4779-a6fe-605e54b8a360', '6f7a122b-591d-4c81-92f1-acca611bcad3', 'c37c380b-b1bb-43c3-a101-cc7d81a606fa'], partial: true });
      expect(r.counts.loadBalancers).toBe(1);
      // The VFP rule start after it is not read, and that is said.
      expect(r.p.issues.some((i) => i.line === 10 && /other text follows/.test(i.message))).toBe(true);
    },
  },
  'hns-network-list-calico-external-narrow__kubernetes-sigs-sig-windows-tools-issue-378.txt': {
    kind: 'network', format: /Get-HnsNetwork list view/,
    check: (r) => {
      const [n] = hnsOf(r).networks;
      expect(n).toMatchObject({ id: '7da4bc16-24a3-4a60-92fb-eaf3196e1fa0', name: 'External', managementIp: '10.12.12.157', drMac: '00-15-5D-6C-B8-EF', partial: true });
      expect(n.subnets).toEqual([{ prefix: '192.168.255.0/30' }]);
    },
  },
  'hns-network-list-flannel-overlay__kubernetes-kubernetes-issue-94924.txt': {
    kind: 'network', format: /Get-HnsNetwork list view/,
    check: (r) => {
      const [n] = hnsOf(r).networks;
      expect(n).toMatchObject({ id: 'f8bb52ca-0c53-4aac-b148-be41411a3227', name: 'flannel.4096', managementIp: '172.16.1.5', partial: true });
      expect(n.policies.map((p) => p.type)).toEqual(['HostRoute', '']);
      expect(n.policies[1].settings).toMatchObject({ DestinationPrefix: '10.244.0.0/24', DistributedRouterMacAddress: '46:dd:f1:0f:f2:d5', IsolationId: '4096' });
      // Subnets come after Policies in the list, beyond the cut: said, with the line.
      expect(r.p.issues.some((i) => i.severity === 'warning' && i.line === 3 && /no subnets.*text ends before them/.test(i.message))).toBe(true);
    },
  },
  'hns-network-list-health-counters__kubernetes-sigs-sig-windows-tools-issue-103.txt': {
    kind: 'network', format: /Get-HnsNetwork list view/,
    check: (r) => {
      const [n] = hnsOf(r).networks;
      expect(n).toMatchObject({ id: '777f0851-ef37-4d73-bae3-8f3464294ccb', name: 'nat', partial: true });
      expect(r.counts.networks).toBe(1);
    },
  },
  'hns-network-list-overlay__microsoft-SDN-Kubecluster-md.txt': {
    kind: 'network', format: /Get-HnsNetwork list view/,
    check: (r) => {
      const [n] = hnsOf(r).networks;
      expect(n).toMatchObject({ id: '6f7e13a2-8ade-48ee-844e-ac0b0aff235d', name: 'External', type: 'overlay', managementIp: '10.0.0.6', networkAdapterName: 'Ethernet 2' });
      expect(n.partial).toBeUndefined();
      expect(n.subnets).toEqual([{ prefix: '192.168.255.0/30', gateway: '192.168.255.1' }]);
    },
  },
  'hns-network-list-vxlan0-indented-de__flannel-io-flannel-pr-1238.txt': {
    kind: 'network', format: /Get-HnsNetwork list view/,
    check: (r) => {
      const [n] = hnsOf(r).networks;
      expect(n).toMatchObject({ id: '5e2837e0-1e0d-461e-833b-afbd2afb4583', name: 'vxlan0', managementIp: '172.27.1.88', partial: true });
      expect(n.remoteSubnetRoutes).toEqual([{ destinationPrefix: '10.244.0.0/24', providerAddress: '172.27.10.47', isolationId: 4096, drMac: 'C6-71-81-86-B2-77' }]);
      expect(r.p.issues.some((i) => /common indentation of 4 spaces/.test(i.message))).toBe(true);
    },
  },
  'hns-v1-rest-json-nat-network__Masterwow3-docker-netrestore-README.txt': {
    kind: 'network', format: /HNS REST answer/,
    check: (r) => {
      const v = hnsOf(r).networks;
      expect(v.map((n) => [n.id, n.type, n.subnets[0]])).toEqual([
        ['404947ac-fc8f-4229-a4b5-595b9161f3a8', 'nat', { prefix: '172.21.16.0/20', gateway: '172.21.16.1' }],
        ['c8026314-fc13-42cc-b41b-4df9873b1d11', 'nat', { prefix: '192.168.0.0/22', gateway: '192.168.0.1' }],
      ]);
      expect(v[0].hostVnicPortGuid).toBe('ace214fd-4a7c-462a-af6b-6119010c5bd2');
    },
  },
  'hns-v1-rest-json-wrapped__microsoft-SDN-issue-269.txt': {
    kind: 'hns-json', format: /a piece of an HNS REST answer/,
    check: (r) => {
      const [n] = hnsOf(r).networks;
      // The piece starts inside the network's allocators: its ID and name are before the cut.
      expect(n).toMatchObject({ id: '', type: 'nat', partial: true, subnets: [{ prefix: '172.20.144.0/20', gateway: '172.20.144.1' }] });
      expect(r.p.issues.some((i) => /hard-wrapped at 119 columns/.test(i.message))).toBe(true);
    },
  },
  'hnsdiag-list-all__kubernetes-sigs-sig-windows-tools-issue-168.txt': {
    kind: 'hnsdiag', format: /hnsdiag list all/,
    check: (r) => {
      const d = content(r.p, 'hnsdiag').value;
      expect(d.networks.map((n) => [n.name, n.id])).toEqual([['vpcbr06684cbed472', 'b5a22566-bebc-400c-abef-b6717de7af59'], ['nat', 'f413e630-cc75-4b89-9ed4-fcd57324153b']]);
      expect(r.counts).toMatchObject({ networks: 2, endpoints: 11, remoteEndpoints: 10, localEndpoints: 1, loadBalancers: null });
      expect(r.model.endpoints!.filter((e) => !e.isRemote).map((e) => e.name)).toEqual(['cid-69c0f0e20c3fa8664ea297a06f7c73b205ac053f0928219c333731aa9f7ecd81']);
      expect(r.model.endpoints!.every((e) => e.networkName === 'vpcbr06684cbed472')).toBe(true);
    },
  },
  'hnsdiag-list-endpoints-selectstring__mrolmedo-rke2windows-README.txt': {
    kind: 'hnsdiag', format: /hnsdiag list endpoints/,
    check: (r) => {
      const d = content(r.p, 'hnsdiag').value;
      expect(d.endpoints).toEqual([expect.objectContaining({ id: 'c9385412-bdef-49f5-88b0-c9d484ef6716', name: '4a625a2b10a33b0dea96fe8743fb8e13504481ee9f481d179f8e75b8c98611d2_Calico', ip: '10.42.213.221' })]);
    },
  },
  'hnsdiag-usage__microsoft-SDN-issue-520.txt': {
    kind: 'hnsdiag', format: /hnsdiag usage text/,
    check: (r) => {
      expect(r.p.issues.filter((i) => i.severity === 'warning').map((i) => [i.line, /does not know "hnsdiag list adapters"/.test(i.message)])).toEqual([[4, true]]);
      expect(r.counts).toMatchObject({ networks: null, endpoints: null, loadBalancers: null });
    },
  },
  'ipconfig-all-in-pod-dual-nic__Azure-acs-engine-issue-418.txt': {
    kind: 'ip', format: /^ipconfig \/all$/,
    check: (r) => {
      const v = content(r.p, 'ip').value;
      expect(v.compartments.map((c) => c.hostName)).toEqual(['d9c1f17fd931']);
      expect(v.compartments[0].adapters.map((a) => [a.name, a.mac])).toEqual([['vEthernet (Container NIC dff8d241)', '00-15-5D-93-85-B1']]);
    },
  },
  'ipconfig-all-node__Azure-aks-engine-issue-2281.txt': {
    kind: 'ip', format: /ipconfig \/all/,
    check: (r) => {
      const [c] = content(r.p, 'ip').value.compartments;
      expect(c.hostName).toBe('2005k8s00000001');
      expect(c.adapters.map((a) => [a.name, a.ipv4.map((x) => `${x.address}/${x.prefixLength}`)])).toEqual([['Ethernet 2', ['10.240.0.218/12']]]);
    },
  },
  'ipconfig-all-node__Azure-aks-engine-issue-853.txt': {
    kind: 'ip', format: /ipconfig \/all/,
    check: (r) => {
      const [c] = content(r.p, 'ip').value.compartments;
      expect(c.hostName).toBe('13832k8s9001');
      expect(c.adapters.map((a) => [a.name, a.ipv4[0]?.address, a.gateways])).toEqual([['vEthernet (Ethernet 2)', '10.240.0.65', ['10.240.0.1']]]);
    },
  },
  'ipconfig-plain-node__microsoft-SDN-Kubecluster-md.txt': {
    // Ten dotted lines over two adapters, but none of the labels only /all prints (Host Name, Physical Address, DHCP Enabled…).
    kind: 'ip', format: /^ipconfig$/,
    check: (r) => {
      const [c] = content(r.p, 'ip').value.compartments;
      expect(c.adapters.map((a) => [a.name, a.ipv4.map((x) => `${x.address}/${x.prefixLength}`), a.gateways])).toEqual([
        ['Ethernet 2', ['10.0.0.6/24'], ['10.0.0.1']],
        ['vEthernet (nat)', ['172.28.96.1/20'], []],
      ]);
      expect(r.counts).toMatchObject({ compartments: 1, adapters: 2 });
    },
  },
  'kube-proxy-log-winkernel-sourcevip__kubernetes-kubernetes-issue-100962.txt': {
    kind: 'log', format: /klog \(kube-proxy\)/,
    check: (r) => {
      const l = logOf(r);
      expect(l.events.map((e) => e.level)).toEqual(['info', 'info', 'info', 'error', 'info', 'info', 'error']);
      expect(l.events[3]).toMatchObject({ message: 'Source Vip endpoint creation failed', caller: 'proxier.go:998' });
      expect(l.events[3].fields!.err).toMatch(/^hcnCreateEndpoint failed in Win32: An address provided is invalid or reserved\. \(0x803b002f\)/);
      expect(l.events[3].hnsErrors!.map((h) => [h.code, h.name])).toEqual([['0x803b002f', 'HCN_E_ADDR_INVALID_OR_RESERVED']]);
      // The finding explains the code with the same explainer.
      const f = runChecks(r.model).find((x) => x.id === 'log-hns-addr-invalid-or-reserved')!;
      // The same error on line 7, cut before its code, is the same finding (not a second, vaguer one).
      expect(f).toMatchObject({ severity: 'error', evidence: [{ line: 4 }, { line: 7 }] });
      expect(runChecks(r.model).filter((x) => x.id.startsWith('log-hns'))).toHaveLength(1);
      expect(f.explanation).toMatch(/An address provided is invalid or reserved.*2151350319/);
    },
  },
  'kube-proxy-log-winkernel-spew-lb-exists__projectcalico-calico-issue-5762.txt': {
    kind: 'log', format: /klog \(kube-proxy\)/,
    check: (r) => {
      const l = logOf(r);
      expect(l.preamble).toBe(4);
      expect(l.events.map((e) => [e.line, e.endLine ?? e.line, e.level])).toEqual([[5, 5, 'info'], [6, 6, 'info'], [7, 17, 'info'], [18, 31, 'info'], [32, 32, 'warning'], [33, 33, 'info']]);
      expect(l.events[4].message).toMatch(/^Load Balancer already exists d19141e7-4ce8-46fe-96d8-0f4862f9fe2e/);
    },
  },
  'kube-proxy-log-winkernel-spew__kubernetes-kubernetes-issue-67827.txt': {
    kind: 'log', format: /klog \(kube-proxy\)/,
    check: (r) => {
      const l = logOf(r);
      expect(l.events.map((e) => [e.line, e.endLine])).toEqual([[1, 8], [9, 18]]);
      expect(l.events[0].text).toMatch(/isLocal: \(bool\) false/);
    },
  },
  'kube-proxy-log-winkernel-v1-l2bridge__microsoft-SDN-issue-227.txt': {
    kind: 'log', format: /klog \(kube-proxy\)/,
    check: (r) => {
      const l = logOf(r);
      expect(l.events.map((e) => [e.line, e.endLine ?? e.line])).toEqual([[1, 1], [2, 9], [10, 22]]);
      expect(l.events[0].message).toMatch(/^Hns Endpoint resource, \{"ID":"b799ce1e/);
    },
  },
  'kubelet-events-sandbox-dockershim__kubernetes-kubernetes-issue-69165.txt': {
    kind: 'log', format: /kubectl describe events/,
    check: (r) => {
      const l = logOf(r);
      expect(l.component).toBe('events');
      expect(l.events.map((e) => [e.line, e.level, e.fields?.reason, e.fields?.from ?? null])).toEqual([
        [4, 'info', 'Scheduled', 'default-scheduler'], [5, 'warning', 'FailedCreatePodSandBox', 'kubelet, 26207k8s9000'], [6, 'info', 'SandboxChanged', null],
      ]);
      expect(l.events[1].ids).toEqual(['5cc13c9870216921b5060acf6d37283ee2dd411d44fe3e618c5bbee27c7b5c50']);
    },
  },
  'kubelet-log-wrapped-sandbox-calico__projectcalico-calico-issue-4334.txt': {
    kind: 'log', format: /logrus \(kubelet\)/,
    check: (r) => {
      const [e] = logOf(r).events;
      // The k0s wrapper says info; the kubelet line inside says E.
      expect(e).toMatchObject({ level: 'error', component: 'kubelet', caller: 'remote_runtime.go:116', time: { precision: 'full', ms: Date.UTC(2021, 0, 22, 13, 38, 26) }, fields: { component: 'kubelet.exe' } });
      expect(e.message).toMatch(/^RunPodSandbox from runtime service failed/);
    },
  },
  'route-print-hyperv-host__microsoft-WSL-issue-5068.txt': {
    kind: 'routes', format: /route print/,
    check: (r) => {
      const v = content(r.p, 'routes').value;
      expect(v.interfaces.map((i) => i.index)).toEqual([7, 67, 9, 20, 13, 17, 1]);
      expect(v.ipv4Active.map((x) => `${x.destination}/${x.prefixLength} ${x.gateway}`)).toEqual([
        '0.0.0.0/0 192.168.0.1', '127.0.0.0/8 On-link', '127.0.0.1/32 On-link', '127.255.255.255/32 On-link', '172.22.32.0/20 On-link', '172.22.32.1/32 On-link',
      ]);
      expect(r.counts.ipv4Routes).toBe(6);
    },
  },
  'route-print-ipv4-in-container__soccerGB-MSIExperiment-TestRun-md.txt': {
    kind: 'routes', format: /route print/,
    check: (r) => {
      const v = content(r.p, 'routes').value;
      expect([v.interfaces.length, v.ipv4Active.length, v.ipv4Persistent.length]).toEqual([2, 12, 4]);
      expect(v.ipv4Persistent.map((x) => x.metricText)).toEqual(['Default', 'Default', 'Default', 'Default']);
    },
  },
  'route-print-persistent__ovn-kubernetes-ovn-kubernetes-issue-360.txt': {
    kind: 'routes', format: /route print \(Persistent Routes only\)/,
    check: (r) => {
      const v = content(r.p, 'routes').value;
      expect(v.ipv4Persistent.map((x) => `${x.destination} ${x.gateway} ${x.metricText}`)).toEqual([
        '0.0.0.0 10.31.0.254 1', '10.32.0.0 10.32.2.1 2', '10.32.200.0 10.32.2.1 2', '0.0.0.0 10.31.0.254 Default',
        '0.0.0.0 10.32.2.1 Default', '0.0.0.0 10.32.2.1 Default', '0.0.0.0 10.32.2.1 Default', '0.0.0.0 10.32.2.1 Default', '0.0.0.0 10.32.2.1 Default',
      ]);
      // No active routes in the paste: the count is unknown, not zero.
      expect(r.counts.ipv4Routes).toBeNull();
    },
  },
  'route-print__Azure-acs-engine-issue-1713.txt': {
    kind: 'routes', format: /route print/,
    check: (r) => {
      const v = content(r.p, 'routes').value;
      expect(v.interfaces.map((i) => i.index)).toEqual([12, 6, 4, 1, 3, 2, 10]);
      expect(v.ipv4Active.map((x) => `${x.destination}/${x.prefixLength} ${x.interface}`)).toEqual(['0.0.0.0/0 10.59.236.5', '10.59.236.0/23 10.59.236.5']);
    },
  },
  'vfp-list-rule-acl-layer__mrolmedo-rke2windows-README.txt': {
    kind: 'vfp', format: /vfpctrl rule listing/,
    check: (r) => {
      // The port and the layer are the ones the echoed command names (`/port c9385412-… /layer ACL_ENDPOINT_LAYER`).
      expect(r.model.ports!.map((p) => p.name)).toEqual(['c9385412-bdef-49f5-88b0-c9d484ef6716']);
      expect(r.counts).toMatchObject({ vfpPorts: 1, vfpLayers: 1, vfpRules: 2 });
      const pol = r.model.vfp!.getPolicy('c9385412-bdef-49f5-88b0-c9d484ef6716')!;
      expect(pol.layers.map((l) => l.id)).toEqual(['ACL_ENDPOINT_LAYER']);
      const rules = pol.layers.flatMap((l) => l.groups.flatMap((g) => g.rules));
      expect(rules.map((x) => [x.id, x.friendlyName, x.priority, x.type, x.stateful])).toEqual([
        ['A2CFF68C-B5F4-4988-841F-0F6F77AF3D09', 'allow-host-to-endpoint', 900, 'allow', true],
        ['0EE8DCA1-9AA8-417C-88E0-422CE9E52CBF', 'profile-kns.rke2-tcp-reset-test--atbkwj8tPVFG3P1-0', 1000, 'allow', true],
      ]);
    },
  },
  'vfp-list-rule__microsoft-SdnDiagnostics-pr-629.txt': {
    kind: 'vfp', format: /vfpctrl rule listing/,
    check: (r) => {
      expect(r.counts).toMatchObject({ vfpPorts: 1, vfpLayers: 1, vfpRules: 2 });
    },
  },
};

describe('the corpus of real outputs', () => {
  // CI always has ../shared beside the clone: there a missing corpus is a broken set-up, not a skip.
  it.skipIf(!dir && !process.env.CI)('is there (../shared/corpus beside the repository, or HNSIGHT_CORPUS)', () => {
    expect(dir, 'the shared corpus was not found beside the repository').toBeDefined();
  });
  const files = dir ? readdirSync(dir).filter((f) => f.endsWith('.txt')).sort() : [];
  it('every sample has an expectation here, and every expectation a sample', () => {
    expect(files).toEqual(Object.keys(EXPECT).sort());
  });
  for (const f of files) {
    const e = EXPECT[f];
    if (!e) continue;
    it(`${f}: recognised as ${e.kind} by its content, and read`, () => {
      const r = readOne(path.join(dir!, f), NAME);
      expect(r.p.kind).toBe(e.kind);
      expect(r.p.recognition).toMatchObject({ by: 'content' });
      expect(r.p.recognition!.confidence).toBeGreaterThanOrEqual(0.35);
      expect(r.p.recognition!.format).toMatch(e.format);
      // Nothing is ignored without a word: every issue names this file and a line.
      expect(r.p.issues.every((i) => i.file === NAME && i.line >= 0)).toBe(true);
      e.check(r);
    });
  }
});
