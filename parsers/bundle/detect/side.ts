// Side inputs that are JSON or listings: CNI configs (.conf/.conflist, crictl info's cniconfig),
// kubectl -o json output, a listing of the CNI bin directory.
import { at, nonBlankLines, type Detection, type Sample } from './types.ts';

export function detectCni(s: Sample): Detection | null {
  const t = s.text;
  if (/"cniconfig"\s*:/.test(t)) {
    const i = s.lines.findIndex((l) => /"cniconfig"\s*:/.test(l));
    return { kind: 'cni-config', format: "crictl info (containerd's loaded CNI configuration)", score: 0.95, reason: `crictl info's "cniconfig" at ${at(i)}` };
  }
  if (!/"cniVersion"\s*:/.test(t) || !/^\s*\{/m.test(t)) return null;
  const i = s.lines.findIndex((l) => /"cniVersion"\s*:/.test(l));
  const list = /"plugins"\s*:/.test(t);
  const type = /"type"\s*:\s*"([\w.-]+)"/.exec(t)?.[1];
  return {
    kind: 'cni-config',
    format: list ? 'CNI .conflist' : 'CNI .conf',
    score: /^\s*\{/.test(t.trimStart()) ? 0.92 : 0.7,
    reason: `"cniVersion" at ${at(i)}${type ? `, plugin type "${type}"` : ''}${list ? ', a "plugins" list' : ''}`,
  };
}

export function detectKubectl(s: Sample): Detection | null {
  const t = s.text;
  if (!/"apiVersion"\s*:/.test(t)) return null;
  const kind = /"kind"\s*:\s*"(List|Pod|PodList|Service|ServiceList|EndpointSlice|EndpointSliceList|Node|NodeList|NetworkPolicy|NetworkPolicyList|GlobalNetworkPolicy|GlobalNetworkPolicyList)"/.exec(t);
  if (!kind) return null;
  return { kind: 'kubectl', format: `kubectl get -o json (${kind[1]})`, score: 0.95, reason: `Kubernetes objects ("apiVersion", "kind": "${kind[1]}")` };
}

export function detectCniBin(s: Sample): Detection | null {
  const exes = nonBlankLines(s).filter(([, l]) => /(^|\s)[\w.+-]+\.exe\s*$/i.test(l));
  const [first] = exes;
  if (!first || exes.length < 2) return null;
  const known = exes.filter(([, l]) => /(win-bridge|win-overlay|host-local|flannel|nat|sdnbridge|sdnoverlay|azure-vnet|calico|antrea)(-ipam)?\.exe/i.test(l)).length;
  if (known === 0) return null;
  return { kind: 'cni-bin', format: 'CNI bin directory listing', score: Math.min(0.9, 0.45 + known * 0.15), reason: `${exes.length} executables listed, ${known} of them CNI plugins (from ${at(first[0])})` };
}
