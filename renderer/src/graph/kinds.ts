// How each kind of topology node is named and drawn: the words a Windows engineer uses and an icon.
import { Box, Container, EthernetPort, Globe, Layers, MonitorCog, Network, Plug, Route, Router, Scale, Waypoints, type LucideIcon } from 'lucide-react';
import type { TopoNodeKind } from '../../../analysis/view-models/types.ts';

export const KIND_INFO: Record<TopoNodeKind, { label: string; icon: LucideIcon; color: string }> = {
  uplink: { label: 'Uplink NIC', icon: EthernetPort, color: 'var(--k-uplink)' },
  vswitch: { label: 'vSwitch', icon: Waypoints, color: 'var(--k-vswitch)' },
  network: { label: 'HNS network', icon: Network, color: 'var(--k-network)' },
  'host-vnic': { label: 'Host vNIC', icon: MonitorCog, color: 'var(--k-host)' },
  compartment: { label: 'Compartment', icon: Box, color: 'var(--k-host)' },
  endpoint: { label: 'Endpoint', icon: Container, color: 'var(--k-endpoint)' },
  loadbalancer: { label: 'Load balancer', icon: Scale, color: 'var(--k-lb)' },
  'lb-group': { label: 'Load balancers', icon: Layers, color: 'var(--k-lb)' },
  'remote-endpoint': { label: 'Remote endpoint', icon: Globe, color: 'var(--k-remote)' },
  'remote-subnet': { label: 'Remote subnet', icon: Route, color: 'var(--k-subnet)' },
  'next-hop': { label: 'Next hop', icon: Router, color: 'var(--k-subnet)' },
  'vfp-port': { label: 'VFP port', icon: Plug, color: 'var(--k-vswitch)' },
};

export function kindInfo(kind: string) {
  return KIND_INFO[kind as TopoNodeKind] ?? { label: kind, icon: Box, color: 'var(--muted)' };
}
