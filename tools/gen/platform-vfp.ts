// What a platform changes in the VFP ports vfpmodel.ts builds for the generic node, kept here so the
// platform knowledge stays out of the VFP rule model: kube-proxy's source-VIP endpoint has no port,
// Antrea's pods are forwarded by OVS (VFP carries no rules), OVN-Kubernetes encapsulates with VNI 4097,
// and a nat-only node has bare ports on its internal switch.
import type { Rng } from './prng.ts';
import type { PlatformProfile } from './platforms.ts';
import type { GeneratedNode, VfpPort } from './types.ts';

export function adjustPlatformVfp(node: GeneratedNode, prof: PlatformProfile, r: Rng): void {
  const noPort = new Set(node.endpoints.filter((e) => e.kind === 'sourcevip').map((e) => e.id));
  node.vfpPorts = node.vfpPorts.filter((p) => !p.endpointId || !noPort.has(p.endpointId));
  if (prof.noVfpRules) for (const p of node.vfpPorts) p.layers = [];
  if (prof.vni && prof.vni !== 4096) {
    // vfpmodel writes VXLAN's default VNI; ovn-kubernetes' hybrid overlay uses 4097 (types.go:26).
    const done = new Set<object>();
    for (const p of node.vfpPorts)
      for (const l of p.layers)
        for (const g of l.groups)
          for (const rule of g.rules) {
            if (done.has(rule) || !/REMOTESUBNETROUTE/.test(rule.id + (rule.friendlyName ?? ''))) continue;
            done.add(rule);
            rule.id = rule.id.replace(/_4096_/, `_${prof.vni}_`);
            if (rule.friendlyName) rule.friendlyName = rule.friendlyName.replace(/_4096_/, `_${prof.vni}_`);
            rule.body = rule.body.map((b) => ({ ...b, text: b.text.replace('GRE key=4096', `GRE key=${prof.vni}`) }));
          }
  }
  if (prof.name === 'nat') node.vfpPorts = natPorts(node, r);
}

function natPorts(node: GeneratedNode, r: Rng): VfpPort[] {
  const net = node.networks[0];
  const base = { switchName: net.switchId, switchFriendlyName: net.name, mtu: 1500, blocked: false, layers: [] };
  const ports: VfpPort[] = [];
  let portId = 1;
  const host = node.compartments[0].adapters.find((a) => a.name === 'vEthernet (nat)') ?? node.compartments[0].adapters[0];
  ports.push({ ...base, name: r.guid(), friendlyName: `Container NIC ${r.hex(8, false)}`, kind: 'host', mac: host.mac, portId: portId++, nicName: r.guid(), nicFriendlyName: host.name, vmName: node.hostName, vmId: r.guid() });
  for (const e of node.endpoints) {
    if (e.kind === 'remote' || !e.portGuid) continue;
    ports.push({ ...base, name: e.portGuid, friendlyName: e.id, kind: 'endpoint', mac: e.mac, portId: portId++, nicName: `${e.id}--${r.guid()}`, nicFriendlyName: e.name, vmName: e.containerId ?? node.hostName, vmId: r.guid(), endpointId: e.id, layers: [] });
  }
  return ports;
}
