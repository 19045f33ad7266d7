// The kinds of bundle file and the names the known collectors give them (SDN collectlogs.ps1, AKS
// collect-windows-logs, Get-NetView, rancher's collector, AKSTestScripts). Which kind a file is gets
// decided in parsers/bundle/recognise.ts, by content first, so a file saved by hand under any name
// (or text pasted from a ticket) is still read.
import { recognise } from './recognise.ts';

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
  { test: /^hnsdiag(\.txt|\.json|listall)?$|hnsdiag-list\.txt$|^hnsdiag_all(_d|_df|_dfl)?\.txt$|^hnsdiag\.adapters\.txt$/, kind: 'hnsdiag' },
  { test: /^ip\.txt$|^ipconfig(all)?\.txt$/, kind: 'ip' },
  { test: /^routes\.txt$|^ipv4routes\.txt$|^route(print)?\.txt$/, kind: 'routes' },
  { test: /^ports\.txt$|^vfpports\.txt$|^vmsports\.txt$|^vfpctrl\.vmswitchport\.txt$/, kind: 'ports' },
  { test: /^vfpoutput(_.*)?\.txt$|^vfprules\.txt$|^vfpctrl\.portguid\..*\.txt$/, kind: 'vfp' },
  {
    test: /^(mtu|arp|winver|hcsdiag|nvspinfo|nmscrub|nmbind|reservedports|excludedportrange|dynamicportrange|tcpconnections|windowsservices|scqueryex|netadapter|firewall|containers|docker|vswitchforwarding)\.txt$/,
    kind: 'known',
  },
  // Side inputs (DESIGN.md §4): CNI configs as libcni names them, a bin-dir listing, component logs.
  { test: /\.(conflist|conf)$/, kind: 'cni-config' },
  { test: /^cni-?bin.*\.txt$|^cni-?plugins?\.txt$/, kind: 'cni-bin' },
  { test: /^collect-windows-logs-output\.log$/, kind: 'known' },
  { test: /\.log$/, kind: 'log' },
  { test: /\.(evtx|etl|xml|zip|csv|log|err)$|_int\.txt$/, kind: 'known' },
  // Scripts a collector copies along (collectlogs.ps1, helpers): source code mentions HNS members
  // without being their output.
  { test: /\.(ps1|psm1|psd1|py|sh|cmd|bat|js|mjs|ts|go)$/, kind: 'known' },
  // AKS's collector keeps the node's kubelet/kube-proxy settings beside the outputs.
  { test: /^kubeclusterconfig\.json$/, kind: 'known' },
  // hnsight's own record of a collection (services/live/collector.ts, node-script.ts): what each command gave.
  { test: /^hnsight-collect\.json$/, kind: 'known' },
];

export function kindFromName(path: string): FileKind | undefined {
  const base = path.split(/[\\/]/).pop()!.toLowerCase();
  for (const r of NAME_RULES) if (r.test.test(base)) return r.kind;
  return undefined;
}

/** Recognises a text by what it says (parsers/bundle/recognise.ts); 'unknown' when nothing claims it. */
export function kindFromContent(head: string): FileKind {
  return recognise('', head).kind;
}

/** The kind of a file from its name and the start of its content. */
export function classifyFile(path: string, head: string): FileKind {
  return recognise(path, head).kind;
}
