// The host's own packet to a pod subnet of another node on an overlay (VXLAN) network, when the port it
// left by (the host vNIC) has no encap rule for it. What the sources say (analysis/walk/README.md,
// "The host's own traffic on an overlay network"):
// - projectcalico/calico#8569 (Windows Server 2022, 2024): the node itself reaches a pod on another node
//   and Service VIPs through the REMOTESUBNETROUTE rule VFP holds; with no such rule in VFP (no container
//   on the node) its packets are lost although HNS has the RemoteSubnetRoute policy.
// - flannel-io/flannel#1096 (2019): "Windows hosts still do not have connectivity with pods running on
//   remote hosts when running VXLAN" (only host → local pod was added then).
// - None of them, nor any dump read (no public vfpctrl output of an overlay host vNIC port), says which
//   VFP port encapsulates the host's own packet. So: no encap rule anywhere in VFP for that subnet is
//   calico#8569's failure (dropped, a documented fault); encap rules on other ports only is a path the
//   bundle does not show (unknown: insufficient information), never a plain "dropped".
import type { VfpPortRef } from '../../../parsers/model/types.ts';
import type { VfpRule } from '../../../parsers/vfp/index.ts';
import type { WalkContext } from '../context.ts';
import type { Packet } from '../types.ts';
import { checkConditions } from '../match.ts';
import { typeInfo } from '../semantics.ts';
import { short, Walk } from './state.ts';

export const CAL8569 = 'https://github.com/projectcalico/calico/issues/8569';
export const FLANNEL1096 = 'https://github.com/flannel-io/flannel/pull/1096';

interface EncapRule {
  port: VfpPortRef;
  rule: VfpRule;
}

/** Each port's encap rules (outgoing groups), read once per node: one entry per rule name (pods share them). */
const encapRulesOf = new WeakMap<WalkContext, EncapRule[]>();

function encapRules(ctx: WalkContext): EncapRule[] {
  const have = encapRulesOf.get(ctx);
  if (have) return have;
  const out: EncapRule[] = [];
  const seen = new Set<string>();
  const vfp = ctx.model.vfp;
  for (const port of ctx.model.ports ?? []) {
    if (!vfp || !port.policy || port === ctx.hostPort || port.role === 'external') continue;
    for (const layer of vfp.getPolicy(port.key)?.layers ?? [])
      for (const g of layer.groups) {
        if (!/^out/i.test(g.direction ?? '')) continue;
        for (const rule of g.rules) {
          if (typeInfo(rule.type)?.action !== 'encap' && !rule.encapDestinations.length) continue;
          if (seen.has(rule.name)) continue;
          seen.add(rule.name);
          out.push({ port, rule });
        }
      }
  }
  encapRulesOf.set(ctx, out);
  return out;
}

/** An encap rule of another port (a pod's) whose conditions the packet meets. */
export function encapOnOtherPort(ctx: WalkContext, p: Packet): EncapRule | undefined {
  return encapRules(ctx).find((e) => checkConditions(e.rule.conditions, p).result === 'match');
}

/**
 * The host's packet to a remote pod subnet that no rule of its port encapsulated. Returns true when it
 * decided the walk (an encap rule elsewhere: unknown); false leaves the drop to the caller, whose text
 * `dropNote` adds calico#8569 to.
 */
export function hostToRemoteSubnet(w: Walk, rsr: { prefix: string; pa: string }): boolean {
  const p = w.packet;
  const elsewhere = encapOnOtherPort(w.ctx, p);
  if (!elsewhere) return false;
  const port = w.ctx.hostPort ? `The host vNIC's port ${short(w.ctx.hostPort.name)}` : 'The host vNIC\'s port';
  const i = w.add({
    at: 'vSwitch',
    kind: 'note',
    action: 'encap not shown',
    inferred: true,
    evidence: elsewhere.rule.src,
    note: `${p.dstIp} is in pod subnet ${rsr.prefix} on ${rsr.pa} (HNS RemoteSubnetRoute). ${port} has no encap rule for it; the encap rule ${elsewhere.rule.name} is on pod port ${short(elsewhere.port.name)}. Which port encapsulates the host's own packets is not in the bundle, and no public documentation says; reports differ: on Windows Server 2022 the node reaches remote pods and Services through the REMOTESUBNETROUTE rule (calico#8569), in 2019 it could not (flannel#1096)`,
    nodes: [`next-hop:${rsr.pa}`],
  });
  w.caveat({
    kind: 'limitation',
    hop: i,
    text: `the host's own packet to a pod on another node: the bundle shows the VXLAN encap rule for ${rsr.prefix} only on pod ports, not on the host vNIC's port, and no public source says which port encapsulates the host's traffic (it did not work in 2019: flannel#1096; it does on Windows Server 2022 when VFP holds the REMOTESUBNETROUTE rule: calico#8569). To confirm, capture on the node (pktmon) or test the connection from the node.`,
    source: CAL8569,
  });
  w.end('unknown', `insufficient information: the host's packet to ${p.dstIp} (pod subnet ${rsr.prefix} on ${rsr.pa}) is encapsulated by no rule of the host vNIC's port, while ${elsewhere.rule.name} on a pod port would; whether VFP tunnels the host's own traffic through it is not in the bundle`, i);
  return true;
}

/** What the host's dropped packet adds to the "no encap" hop: the documented failure it matches. */
export function hostDropNote(): string {
  return `; no port of this node has a VFP encap rule for it either: the node's own traffic to remote pods and Services needs the REMOTESUBNETROUTE rule in VFP, HNS's policy alone is not enough (calico#8569)`;
}
