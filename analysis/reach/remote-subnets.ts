// One address per remote pod subnet of IPv4, for the matrix's default destinations (sources.ts through
// the IPv4 family, family-v4.ts): what a pod on another node stands for.
import type { NodeModel } from '../../parsers/model/types.ts';
import { k8sNames } from '../k8s/index.ts';
import { cidrRange, familyOf, intToIp, ipToInt } from '../walk/ip.ts';
import { walkContext } from '../walk/context.ts';
import { remoteIsPod } from '../walk/remote-pod.ts';

/**
 * One address per remote pod subnet: a remote endpoint inside it when the bundle has one, else the
 * subnet's second address (inferred). Subnets: HNS remote subnet routes (overlay), else /24s of remote
 * pod endpoints (l2bridge shows no subnet object; the /24 is an assumption, said as such).
 */
export function remotePodSubnets(m: NodeModel): { prefix: string; example: string; inferred?: string }[] {
  const out: { prefix: string; example: string; inferred?: string }[] = [];
  const names = k8sNames(m);
  // Remote endpoints that are pods: with a kubectl snapshot, those it names as pods (not the API
  // server behind default/kubernetes, not a node); without one, every remote endpoint.
  // Without one, every remote endpoint inside the pod network the bundle shows (walk/remote-pod.ts):
  // kube-proxy makes a remote endpoint for every Service backend off the node, the API server's too.
  const ctx = walkContext(m);
  const remotes = (m.endpoints ?? []).filter((e) => e.isRemote && familyOf(e.ip) === 4 && !names.apiServerLabel(e.ip) && (!names.present || !!names.podByIp(e.ip)) && remoteIsPod(ctx, e) !== false);
  const covered = (ip: string) => out.some((s) => {
    const r = cidrRange(s.prefix);
    const n = ipToInt(ip)!;
    return r && n >= r.lo && n <= r.hi;
  });
  for (const n of m.networks ?? [])
    for (const r of n.remoteSubnetRoutes) {
      const c = cidrRange(r.destinationPrefix);
      if (!c || out.some((s) => s.prefix === r.destinationPrefix)) continue;
      const inside = remotes.find((e) => ipToInt(e.ip)! >= c.lo && ipToInt(e.ip)! <= c.hi);
      out.push({ prefix: r.destinationPrefix, example: inside?.ip ?? intToIp(c.lo + 2), ...(inside ? {} : { inferred: `no remote endpoint in ${r.destinationPrefix}: its second address stands for a pod` }) });
    }
  const podNets = new Set((m.networks ?? []).flatMap((n) => n.subnets.map((s) => s.prefix)));
  for (const e of remotes) {
    if (covered(e.ip!)) continue;
    const n = ipToInt(e.ip)!;
    const prefix = `${intToIp((n & 0xffffff00) >>> 0)}/24`;
    if (podNets.has(prefix)) continue;
    out.push({ prefix, example: e.ip!, inferred: `the bundle names no subnet for remote endpoint ${e.ip}: its /24 is assumed` });
  }
  return out;
}
