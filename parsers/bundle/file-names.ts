// The names the known collectors give bundle files (SDN collectlogs.ps1, AKS collect-windows-logs,
// Get-NetView, rancher's collector, AKSTestScripts). A name is a hint recognise.ts weighs against the
// content; classify.ts re-exports kindFromName for the loaders.
import type { FileKind } from './file-kind.ts';

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
