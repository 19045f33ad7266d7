// What a bundle file is: first by the names the known collectors give it (SDN collectlogs.ps1,
// AKS collect-windows-logs, Get-NetView, rancher's collector, AKSTestScripts), then by content, so a
// file someone saved by hand under any name is still read.

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

/** Kinds whose parsers feed the node model. */
export const MODEL_KINDS: ReadonlySet<FileKind> = new Set<FileKind>([
  'network', 'endpoint', 'namespaces', 'policy', 'hns-json', 'hnsdiag', 'ip', 'routes', 'ports', 'vfp',
  'kubectl', 'cni-config', 'cni-bin', 'log',
]);

interface NameRule {
  test: RegExp;
  kind: FileKind;
}

// Matched against the lower-cased base name.
const NAME_RULES: NameRule[] = [
  { test: /^network\.txt$/, kind: 'network' },
  { test: /^(get-hnsnetwork(-[12])?|hnsnetwork)\.(txt|json)$/, kind: 'network' },
  { test: /^networkdetailed\.txt$|^hnsnetworkdetailed\.json$/, kind: 'networkdetailed' },
  { test: /^endpoint\.txt$/, kind: 'endpoint' },
  { test: /^(get-hnsendpoint(-[12])?|hnsendpoint)\.(txt|json)$/, kind: 'endpoint' },
  { test: /^namespaces?\.txt$|^hnsnamespaces?\.(txt|json)$/, kind: 'namespaces' },
  { test: /^policy\.txt$|^hnspolicy\.(txt|json)$|^policylists?\.(txt|json)$|^loadbalancers?\.(txt|json)$/, kind: 'policy' },
  { test: /^hnsportpoolallocs\.txt$/, kind: 'hnsportpoolallocs' },
  { test: /^hnsdiag(\.txt|\.json|listall)?$|hnsdiag-list\.txt$|^hnsdiag_all(_d|_df|_dfl)?\.txt$/, kind: 'hnsdiag' },
  { test: /^ip\.txt$|^ipconfig(all)?\.txt$/, kind: 'ip' },
  { test: /^routes\.txt$|^ipv4routes\.txt$|^route(print)?\.txt$/, kind: 'routes' },
  { test: /^ports\.txt$|^vfpports\.txt$|^vmsports\.txt$|^vfpctrl\.vmswitchport\.txt$/, kind: 'ports' },
  { test: /^vfpoutput(_.*)?\.txt$|^vfprules\.txt$|^vfpctrl\.portguid\..*\.txt$/, kind: 'vfp' },
  {
    test: /^(mtu|arp|winver|hcsdiag|nvspinfo|nmscrub|nmbind|reservedports|excludedportrange|dynamicportrange|tcpconnections|windowsservices|scqueryex|netadapter|firewall|containers|docker|vswitchforwarding|hnsdiag\.adapters)\.txt$/,
    kind: 'known',
  },
  // Side inputs (DESIGN.md §4): CNI configs as libcni names them, a bin-dir listing, component logs.
  { test: /\.(conflist|conf)$/, kind: 'cni-config' },
  { test: /^cni-?bin.*\.txt$|^cni-?plugins?\.txt$/, kind: 'cni-bin' },
  { test: /^collect-windows-logs-output\.log$/, kind: 'known' },
  { test: /\.log$/, kind: 'log' },
  { test: /\.(evtx|etl|xml|zip|csv|log|err)$|_int\.txt$/, kind: 'known' },
];

export function kindFromName(path: string): FileKind | undefined {
  const base = path.split(/[\\/]/).pop()!.toLowerCase();
  for (const r of NAME_RULES) if (r.test.test(base)) return r.kind;
  return undefined;
}

/** Recognises a file by what it says. `head` is the decoded start of the file (a few KiB). */
export function kindFromContent(head: string): FileKind {
  // Side inputs that are JSON too: kubectl output and CNI configs name themselves.
  if (/^\uFEFF?\s*[[{]/.test(head) && /"apiVersion"\s*:/.test(head) && /"kind"\s*:\s*"(List|Pod|Service|EndpointSlice|Node)"/.test(head)) return 'kubectl';
  if (/^\uFEFF?\s*\{/.test(head) && /"cniVersion"\s*:/.test(head)) return 'cni-config';
  // A file that is JSON from its first character is HNS JSON (or nothing we know), whatever words its
  // strings contain.
  if (/^\uFEFF?\s*[[{]/.test(head) && !/^\s*\{\s*[^"\s}]/.test(head)) return 'hns-json';
  if (/^Policy for port\s*:/m.test(head) || /^\s*(LAYER|GROUP|RULE)\s*:/m.test(head)) return 'vfp';
  if (/^\s*Port name\s*:/m.test(head) && /^\s*(Switch name|Port Friendly name|PortId)\s*:/m.test(head)) return 'ports';
  if (/Network Information for Compartment|Windows IP Configuration/.test(head) || /^\S.* adapter .*:\s*$/m.test(head)) return 'ip';
  if (/IPv4 Route Table|Network Destination\s+Netmask/.test(head) || /^\s*ifIndex\s+DestinationPrefix\s+NextHop/m.test(head)) return 'routes';
  if (/^(Networks|Endpoints|LoadBalancers|Namespaces)\s*:\s*$/m.test(head) || /^(Network|Endpoint|LoadBalancer|Namespace)\s+:\s+[0-9a-fA-F]{8}-/m.test(head)) return 'hnsdiag';
  if (/^[[{]\s*$/m.test(head) || /^\s*[[{]/.test(head)) return 'hns-json';
  return 'unknown';
}

export function classifyFile(path: string, head: string): FileKind {
  const byName = kindFromName(path);
  // A `.conf` is a CNI config only when it is JSON; other tools write `.conf` files too.
  if (byName === 'cni-config' && !/^\uFEFF?\s*\{/.test(head)) return 'known';
  // A bundle output saved as .log (a pasted vfpctrl dump) is still that output.
  if (byName === 'log') {
    const c = kindFromContent(head);
    return c === 'vfp' || c === 'ip' || c === 'routes' || c === 'ports' || c === 'hnsdiag' ? c : 'log';
  }
  if (byName && byName !== 'known') return byName;
  const byContent = kindFromContent(head);
  if (byContent !== 'unknown') return byContent;
  return byName ?? 'unknown';
}
