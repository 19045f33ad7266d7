import type { SourceRef } from '../types.ts';

export type IpconfigLanguage = 'en' | 'de' | 'fr' | 'es' | 'zh' | 'ja' | 'unknown';

export interface Ipv4Entry {
  address: string;
  mask?: string;
  prefixLength?: number;
  /** Status suffix said Preferred (in any known language). */
  preferred?: boolean;
  /** The raw status suffix, e.g. `Preferred`, `Duplicate`, `Tentative`, `Bevorzugt`. */
  status?: string;
  /** Came from `Autoconfiguration IPv4 Address` (Windows gave itself an address). */
  autoconfigured: boolean;
  /** 169.254.0.0/16: no DHCP answer or address not yet assigned. */
  apipa: boolean;
  src: SourceRef;
}

export interface Ipv6Entry {
  /** Without the `%zone` suffix. */
  address: string;
  zone?: string;
  preferred?: boolean;
  status?: string;
  linkLocal: boolean;
  temporary: boolean;
  src: SourceRef;
}

export interface Adapter {
  /** Word(s) before `adapter`, normalised to English when known: Ethernet, Tunnel, Unknown, Wireless LAN, PPP. */
  kind: string;
  /** e.g. `vEthernet (nat)`, `vEthernet (586d…_cbr0)`. */
  name: string;
  /** The header line as printed, without the trailing colon. */
  header: string;
  mediaState?: string;
  mediaDisconnected?: boolean;
  description?: string;
  /** Physical Address, upper-case with dashes (6 bytes, or 8 for tunnel pseudo-interfaces). */
  mac?: string;
  dhcpEnabled?: boolean;
  autoconfig?: boolean;
  ipv4: Ipv4Entry[];
  ipv6: Ipv6Entry[];
  gateways: string[];
  dnsServers: string[];
  dnsSuffix?: string;
  dnsSuffixSearchList: string[];
  netbios?: string;
  /** Every other label (and unknown ones), keyed by the label as printed. */
  extra: Record<string, string>;
  src: SourceRef;
}

export interface Compartment {
  /** N of `Network Information for Compartment N`; 1 when the output had no compartment banners. */
  id: number;
  /** The banner carried a marker such as `(ACTIVE)`. */
  active?: boolean;
  /** No compartment banner in the text (plain `ipconfig /all`): the compartment is assumed to be 1. */
  implicit?: boolean;
  title?: string;
  hostName?: string;
  primaryDnsSuffix?: string;
  nodeType?: string;
  ipRoutingEnabled?: boolean;
  winsProxyEnabled?: boolean;
  dnsSuffixSearchList: string[];
  adapters: Adapter[];
  extra: Record<string, string>;
  src: SourceRef;
}

export interface IpconfigResult {
  compartments: Compartment[];
  language: IpconfigLanguage;
  /** 0-based index of the first line after the ipconfig text (set by parseIpTxt's split). */
  endIndex: number;
}
