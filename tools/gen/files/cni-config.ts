// The CNI config a platform's installer writes on a Windows node, one writer per platform (each cites the
// file it follows). Values are this node's; the keys and nesting are the plugin's own.
import type { GeneratedNode, HnsEndpoint, PlatformName } from '../types.ts';
import { uplinkName } from './extras.ts';
import { j4, type SideFile } from './side-file.ts';

/** What the writers read: the node, its first pod's endpoint and that pod's OutBoundNAT exceptions. */
interface CniInputs {
  node: GeneratedNode;
  pod: HnsEndpoint | undefined;
  exc: string[];
}

// sig-windows-tools kubeadm/flannel/flannel-host-gw.yml, cni-conf-containerd.json.
const flannelHostGw = ({ node, exc }: CniInputs): SideFile => ({
  path: 'net.d/10-flannel.conf',
  text: j4({ name: 'cbr0', cniVersion: '0.3.0', type: 'flannel', capabilities: { portMappings: true, dns: true }, delegate: { type: 'sdnbridge', optionalFlags: { forceBridgeGateway: true }, AdditionalArgs: [{ Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', Settings: { Exceptions: exc } } }, { Name: 'EndpointPolicy', Value: { Type: 'SDNROUTE', Settings: { DestinationPrefix: node.serviceCidr, NeedEncap: true } } }, { Name: 'EndpointPolicy', Value: { Type: 'SDNROUTE', Settings: { DestinationPrefix: `${node.nodeIp}/32`, NeedEncap: true } } }] } }),
});

// sig-windows-tools hostprocess/flannel/flanneld/flannel-overlay.yml.
const flannelVxlan = ({ node, exc }: CniInputs): SideFile => ({
  path: 'net.d/10-flannel.conf',
  text: j4({ name: 'flannel.4096', cniVersion: '0.3.0', type: 'flannel', capabilities: { portMappings: true, dns: true }, delegate: { type: 'sdnoverlay', AdditionalArgs: [{ Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', Settings: { Exceptions: exc } } }, { Name: 'EndpointPolicy', Value: { Type: 'SDNROUTE', Settings: { DestinationPrefix: node.serviceCidr, NeedEncap: true } } }, { Name: 'EndpointPolicy', Value: { Type: 'ProviderAddress', Settings: { ProviderAddress: node.nodeIp } } }] } }),
});

// Azure/azure-container-networking cni/azure-windows.conflist / azure-windows-swift-overlay.conflist, as AKS writes it.
function azure({ node, pod, exc }: CniInputs): SideFile {
  const overlay = node.platform === 'azure-cni-overlay';
  const acls = (pod?.policies ?? []).flatMap((p) => (p.type === 'ACL' ? [{ Name: 'EndpointPolicy', Value: { Type: 'ACL', Protocols: p.protocols, Action: p.action, Direction: p.direction, RemoteAddresses: p.remoteAddresses, RemotePorts: p.remotePorts, Priority: p.priority, RuleType: p.ruleType } }] : []));
  return {
    path: '10-azure.conflist',
    text: j4({
      cniVersion: '0.3.0',
      name: 'azure',
      adapterName: '',
      plugins: [
        {
          type: 'azure-vnet',
          mode: 'bridge',
          bridge: 'azure0',
          capabilities: { portMappings: true, dns: true },
          ipam: overlay ? { type: 'azure-cns', mode: 'overlay' } : { type: 'azure-vnet-ipam' },
          dns: { Nameservers: [node.dnsVip, '168.63.129.16'], Search: ['svc.cluster.local'] },
          AdditionalArgs: [{ Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', ExceptionList: exc } }, { Name: 'EndpointPolicy', Value: { Type: 'ROUTE', DestinationPrefix: node.serviceCidr, NeedEncap: true } }, ...acls],
          windowsSettings: { enableLoopbackDSR: true },
        },
      ],
    }),
  };
}

// aws/amazon-vpc-cni-plugins plugins/vpc-bridge/vpc-bridge.conf keys (values for this node; unverified file layout).
const eksVpcBridge = ({ node }: CniInputs): SideFile => ({
  path: 'Amazon/EKS/cni/config/vpc-bridge.conf',
  text: j4({ cniVersion: '0.4.0', name: 'vpc', type: 'vpc-bridge', eniName: uplinkName(node), eniMACAddress: node.hostMac.toLowerCase().replace(/-/g, ':'), eniIPAddresses: [`${node.nodeIp}/24`], gatewayIPAddress: node.nodeGateway, vpcCIDRs: ['10.0.0.0/16'], serviceCIDR: node.serviceCidr, dns: { nameservers: [node.dnsVip], search: ['{%namespace%}.svc.cluster.local', 'svc.cluster.local', 'cluster.local'] } }),
});

// projectcalico/calico cni-plugin/pkg/install/install_windows.go (operator install) + cni.conf.template.
const calico = ({ node }: CniInputs): SideFile => ({
  path: 'net.d/10-calico.conflist',
  text: j4({
    name: 'Calico',
    cniVersion: '0.3.1',
    plugins: [
      {
        type: 'calico',
        mode: node.platform === 'calico-vxlan' ? 'vxlan' : '',
        vxlan_mac_prefix: '0E-2A',
        vxlan_vni: 4096,
        policy: { type: 'k8s' },
        log_level: 'info',
        log_file_path: 'c:/var/log/calico/cni/cni.log',
        windows_use_single_network: true,
        capabilities: { dns: true },
        DNS: { Nameservers: [node.dnsVip], Search: ['svc.cluster.local'] },
        datastore_type: 'kubernetes',
        ipam: { type: 'calico-ipam', subnet: 'usePodCidr' },
        policies: [{ Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', ExceptionList: [node.serviceCidr] } }, { Name: 'EndpointPolicy', Value: { Type: node.platform === 'calico-vxlan' ? 'SDNROUTE' : 'ROUTE', DestinationPrefix: node.serviceCidr, NeedEncap: true } }],
      },
    ],
  }),
});

// antrea-io/antrea build/charts/antrea-windows/conf/antrea-cni.conflist.
const antrea = (): SideFile => ({ path: 'net.d/10-antrea.conflist', text: j4({ cniVersion: '0.3.0', name: 'antrea', plugins: [{ type: 'antrea', ipam: { type: 'host-local' }, capabilities: { dns: true } }] }) });

// openshift/windows-machine-config-operator pkg/internal/cni-conf-template.json (C:\k\cni.conf).
function ovnKubernetes({ node, exc }: CniInputs): SideFile {
  const net = node.networks.find((n) => n.type !== 'nat' && !n.infra);
  return {
    path: 'k/cni.conf',
    text: j4({ cniVersion: '0.2.0', name: net?.name, type: 'win-overlay', apiVersion: 2, capabilities: { portMappings: true, dns: true }, ipam: { type: 'host-local', subnet: net?.subnet }, policies: [{ name: 'EndpointPolicy', value: { type: 'OutBoundNAT', settings: { exceptionList: exc } } }, { name: 'EndpointPolicy', value: { type: 'SDNRoute', settings: { destinationPrefix: node.serviceCidr, needEncap: true } } }, { name: 'EndpointPolicy', value: { type: 'ProviderAddress', settings: { providerAddress: node.nodeIp } } }] }),
  };
}

// microsoft/windows-container-networking example/nat.conf, as containerd installers write it.
function nat({ node }: CniInputs): SideFile {
  const n = node.networks[0];
  return { path: 'net.d/0-containerd-nat.json', text: j4({ cniVersion: '0.2.0', name: 'nat', type: 'nat', master: 'Ethernet', ipam: { subnet: n.subnet, routes: [{ GW: n.gateway }] }, capabilities: { portMappings: true, dns: true } }) };
}

const WRITERS: Partial<Record<PlatformName, (i: CniInputs) => SideFile>> = {
  'flannel-host-gw': flannelHostGw,
  'flannel-vxlan': flannelVxlan,
  'azure-cni': azure,
  'azure-cni-overlay': azure,
  'eks-vpc-bridge': eksVpcBridge,
  'calico-vxlan': calico,
  'calico-bgp': calico,
  antrea,
  'ovn-kubernetes': ovnKubernetes,
  nat,
};

/** The node's CNI config file, or undefined for a platform without one. */
export function cniConfig(node: GeneratedNode): SideFile | undefined {
  const writer = node.platform ? WRITERS[node.platform] : undefined;
  if (!writer) return undefined;
  const pod = node.endpoints.find((e) => e.kind === 'pod');
  const exc = pod?.policies?.flatMap((p) => (p.type === 'OutBoundNAT' ? p.exceptions : [])) ?? [];
  return writer({ node, pod, exc });
}
