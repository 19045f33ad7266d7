// What the CNI plugin set at a pod's creation and its policy agent should have replaced, and pods the
// snapshot says share an address.
//
// Calico's CNI plugin gives every new pod endpoint one ACL: block all inbound (Protocols 256 = any,
// Direction In, RuleType Switch, Priority 65500), unless `windows_disable_default_deny_all_policy` is
// set (projectcalico/calico cni-plugin/pkg/dataplane/windows/dataplane_windows.go DoNetworking:
// "The Priority has to be set to a large enough value for the default policy so that if other
// policies exist then they take precedence"). Felix then programs the pod's policy as ACLs on the
// endpoint (projectcalico/calico felix/dataplane/windows/policysets). An endpoint that still holds
// that one ACL and no other has never been seen by Felix: nothing reaches the pod from outside
// (the Felix-stopped case of issue #26).
import type { Finding } from '../findings/types.ts';
import type { HnsEndpoint, HnsPolicy } from '../../parsers/hns/index.ts';
import type { Check } from './types.ts';
import { k8sNames } from '../k8s/index.ts';
import { plural } from '../../parsers/text/quantities.ts';

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : undefined);
const get = (s: Record<string, unknown>, k: string) => Object.entries(s).find(([x]) => x.toLowerCase() === k.toLowerCase())?.[1];

/** The Calico CNI's creation-time default deny (v1 `Protocol: 256`, v2 `Protocols: "256"`). */
export function isCalicoCniDefaultDeny(p: HnsPolicy): boolean {
  if (p.type.toLowerCase() !== 'acl') return false;
  const s = p.settings;
  const action = String(get(s, 'Action') ?? '').toLowerCase();
  const dir = String(get(s, 'Direction') ?? '').toLowerCase();
  const proto = num(get(s, 'Protocols')) ?? num(get(s, 'Protocol'));
  return action === 'block' && dir === 'in' && proto === 256 && num(get(s, 'Priority')) === 65500 && !get(s, 'RemoteAddresses') && !get(s, 'LocalAddresses');
}

const acls = (e: HnsEndpoint) => e.policies.filter((p) => p.type.toLowerCase() === 'acl');

export const calicoDefaultDenyCheck: Check = {
  id: 'calico-default-deny',
  ids: ['calico-cni-default-deny-only'],
  title: "Calico pods still holding only the CNI's default deny",
  platforms: ['calico-vxlan', 'calico-bgp'],
  assumes: "Calico's CNI plugin blocks all inbound traffic to a new pod until Felix programs the pod's policy as HNS ACLs",
  run(ctx) {
    const bare = ctx.localPods.filter((e) => {
      const a = acls(e);
      const only = a.length === 1 ? a[0] : undefined;
      return !!only && isCalicoCniDefaultDeny(only);
    });
    if (!bare.length) return [];
    const names = k8sNames(ctx.m);
    const label = (e: HnsEndpoint) => `${e.ip}${names.podLabel(e.ip) ? ` (${names.podLabel(e.ip)})` : ''}`;
    const all = bare.length === ctx.localPods.length;
    const f: Finding = {
      id: 'calico-cni-default-deny-only', severity: 'error', area: 'cni',
      title: `${plural(bare.length, 'pod endpoint')} ${bare.length === 1 ? 'holds' : 'hold'} only the Calico CNI's default deny: ${bare.slice(0, 3).map(label).join(', ')}${bare.length > 3 ? ', …' : ''}`,
      explanation: `Their only ACL is the one Calico's CNI plugin sets when it creates the endpoint (block all inbound, priority 65500), which Felix replaces with the pod's policy: Felix never programmed ${bare.length > 1 ? 'these endpoints' : 'this endpoint'}, so nothing reaches ${bare.length > 1 ? 'these pods' : 'this pod'} from outside, whatever the NetworkPolicies allow. ${all ? 'Every pod endpoint of the node is in this state: Felix is not running or not connected to the datastore.' : `Other pod endpoints have Felix's ACLs: ${bare.length > 1 ? 'these pods were' : 'this pod was'} created after Felix stopped working, or Felix failed on ${bare.length > 1 ? 'them' : 'it'}.`}`,
      fix: 'Check the calico-node / Felix service on this node (`Get-Service CalicoFelix`, its log under C:\\CalicoWindows\\logs) and restart it; Felix then programs the pods\' policies.',
      objects: bare.slice(0, 20).map((e) => e.ip ?? e.id),
      evidence: bare.slice(0, 3).map((e) => ctx.ev(e.src, /65500/)),
    };
    return [ctx.hedge(f, 'endpoints')];
  },
};

export const duplicatePodIpCheck: Check = {
  id: 'k8s-pod-ips',
  ids: ['k8s-duplicate-pod-ip'],
  title: 'Pods sharing an address in the snapshot',
  platforms: 'any',
  assumes: 'two Running pods (not host-network) never hold the same IP',
  run(ctx) {
    const snap = ctx.m.k8s;
    if (!snap) return [];
    const by = new Map<string, typeof snap.pods>();
    for (const p of snap.pods) if (p.phase === 'Running' && !p.hostNetwork) for (const ip of p.ips) by.set(ip, [...(by.get(ip) ?? []), p]);
    const local = new Set(ctx.localPods.map((e) => e.ip));
    const out: Finding[] = [];
    for (const [ip, pods] of by) {
      if (pods.length < 2) continue;
      out.push({
        id: 'k8s-duplicate-pod-ip', severity: local.has(ip) ? 'error' : 'warning', area: 'k8s',
        title: `${pods.length} Running pods hold ${ip}: ${pods.slice(0, 3).map((p) => `${p.namespace}/${p.name} on ${p.nodeName ?? '?'}`).join(', ')}`,
        explanation: `Per the snapshot, ${pods.map((p) => `${p.namespace}/${p.name} (node ${p.nodeName ?? 'unknown'})`).join(' and ')} both hold ${ip}: an address handed out twice (IPAM state lost or a stale allocation). Traffic to ${ip} reaches only one of them${local.has(ip) ? '; this node holds an endpoint with it' : ''}.`,
        fix: 'Delete the newer pod so it gets a fresh address, and check the IPAM plugin (host-local files, Calico IPAM blocks, azure-cns) for the double allocation.',
        objects: [ip, ...pods.map((p) => `${p.namespace}/${p.name}`)],
        evidence: pods.slice(0, 3).map((p) => ({ file: p.src.file, line: p.src.line, text: `Pod ${p.namespace}/${p.name} ${ip} on ${p.nodeName ?? '?'}` })),
      });
      if (out.length >= 20) break;
    }
    return out;
  },
};
