// The kinds of bundle file: its own module, imported as a type by classify.ts (names), recognise.ts
// (content) and the detectors under detect/ alike, so none of them imports another to learn the names
// (that made a circle of ten files: classify → recognise → detect/* → classify).
export type FileKind =
  | 'network' // Get-HnsNetwork table + JSON
  | 'endpoint' // Get-HnsEndpoint table + JSON
  | 'namespaces' // Get-HnsNamespace table + JSON
  | 'policy' // Get-HnsLoadBalancer / Get-HnsPolicyList JSON
  | 'hns-json' // HNS JSON of unknown role: classified object by object
  | 'networkdetailed'
  | 'hnsportpoolallocs'
  | 'hnsdiag'
  | 'ip' // ipconfig /allcompartments /all (+ Get-NetIPAddress, Get-NetIPInterface)
  | 'routes' // route print (+ Get-NetRoute)
  | 'ports' // vfpctrl /list-vmswitch-port (+ get-port-counter)
  | 'vfp' // vfpOutput.txt or any vfpctrl rule dump
  | 'kubectl' // side input: kubectl get pods,svc,endpointslices -A -o json
  | 'cni-config' // side input: a CNI .conf / .conflist
  | 'cni-bin' // side input: a listing of the CNI bin directory
  | 'log' // side input: kubelet, kube-proxy, containerd, CNI agent logs
  | 'known' // a file collectors write that hnsight lists but does not interpret (yet)
  | 'unknown';

/** A kind in the words a user knows it by (the command or file that writes it). */
export const KIND_NAMES: Record<FileKind, string> = {
  network: 'Get-HnsNetwork',
  endpoint: 'Get-HnsEndpoint',
  namespaces: 'Get-HnsNamespace',
  policy: 'HNS load balancer (Get-HnsPolicyList)',
  'hns-json': 'HNS JSON',
  networkdetailed: 'detailed HNS network',
  hnsportpoolallocs: 'HNS port pool allocation',
  hnsdiag: 'hnsdiag',
  ip: 'ipconfig',
  routes: 'route print',
  ports: 'vfpctrl port list',
  vfp: 'vfpctrl rule dump',
  kubectl: 'kubectl snapshot',
  'cni-config': 'CNI config',
  'cni-bin': 'CNI bin listing',
  log: 'log',
  known: 'collector output',
  unknown: 'unrecognised',
};

/** "a" or "an" before a kind's words ("an ipconfig file", "an HNS JSON file", "a route print file"). */
export function kindWithArticle(k: FileKind): string {
  const w = KIND_NAMES[k];
  return `${/^([aeiou]|HNS\b)/i.test(w) ? 'an' : 'a'} ${w}`;
}

/** The words of a kind as a string (a view model carries it as one); an unknown string as it is. */
export function kindWords(kind: string, used?: boolean): string {
  if (kind === 'known' && used) return 'facts read';
  return kind in KIND_NAMES ? KIND_NAMES[kind as FileKind] : kind;
}
