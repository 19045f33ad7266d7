// A CNI network configuration file as containerd's CRI plugin (libcni) reads it, plus the Windows
// plugin settings hnsight compares with what HNS programmed (OutBoundNAT ExceptionList, DNS).
import type { SourceRef } from '../types.ts';

export interface CniPluginConf {
  type?: string;
  /** Line of the plugin's `"type"` key (or of the config when there is none). */
  src: SourceRef;
  /** OutBoundNAT ExceptionList entries of the plugin's EndpointPolicy / AdditionalArgs / policies. */
  exceptionList: { value: string; src: SourceRef }[];
  /** `dns.Nameservers` (win-bridge/win-overlay/azure spell it with a capital N). */
  dnsServers: string[];
  dnsSearch: string[];
  dnsSrc?: SourceRef;
  /** `capabilities.dns`: the runtime (kubelet) passes the pod's DNS instead of the static value. */
  dnsCapability: boolean;
  ipamType?: string;
  ipamSubnet?: string;
  /** `ipam.mode` (azure-cns: `overlay` for Azure CNI Overlay, absent for dynamic VNet IPs). */
  ipamMode?: string;
  /** The plugin's own `mode` (Calico: `vxlan`, or empty for BGP/l2bridge; old azure-vnet: `bridge`). */
  mode?: string;
  /** flannel's `delegate.type` (win-bridge, win-overlay, sdnbridge, sdnoverlay). */
  delegateType?: string;
  /** The plugin's `name` (a .conf's own name; flannel and Calico name the HNS network with it). */
  name?: string;
  /** ROUTE policies (DestinationPrefix, NeedEncap). */
  routes: { destinationPrefix: string; needEncap?: boolean }[];
}

export interface CniConfigFile {
  file: string;
  /** Extension as libcni sees it. */
  ext: 'conf' | 'conflist' | 'json' | 'other';
  name?: string;
  cniVersion?: string;
  /** The file has a `plugins` key (a list); `plugins` below is filled either way. */
  hasPluginsKey: boolean;
  /** For a plain .conf, its own `type`; for a list, each element. */
  plugins: CniPluginConf[];
  /** The JSON did not parse (or is not an object). */
  invalid?: string;
  /** The text ends before the JSON closes (a cut file or an excerpt): what came before the cut was read. */
  cut?: boolean;
  /** `crictl info`: the configuration containerd loaded, as its CRI plugin reports it. */
  origin?: 'file' | 'crictl-info';
  /** `crictl info` cniconfig.PluginConfDir / PluginDirs. */
  confDir?: string;
  binDirs?: string[];
  src: SourceRef;
}

/** Names of the plugin executables found in the CNI bin directory (from a listing or from bundle file names). */
export interface CniBinListing {
  dir?: string;
  files: string[];
  src: SourceRef;
}
