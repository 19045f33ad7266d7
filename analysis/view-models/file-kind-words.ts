// A file kind as a customer names it ("HNS endpoints", "VFP rules"), for the paste preview and the
// summary's list of what was read. The kinds themselves are parsers/bundle/classify.ts's.
import type { FileKind } from '../../parsers/bundle/classify.ts';

const WORDS: Record<FileKind, string> = {
  network: 'HNS networks',
  networkdetailed: 'HNS networks (detailed)',
  endpoint: 'HNS endpoints',
  namespaces: 'HNS namespaces',
  policy: 'HNS load balancers',
  'hns-json': 'HNS objects',
  hnsportpoolallocs: 'HNS port pool allocations',
  hnsdiag: 'hnsdiag listing',
  ip: 'IP configuration',
  routes: 'routing table',
  ports: 'vSwitch ports',
  vfp: 'VFP rules',
  kubectl: 'Kubernetes objects (kubectl)',
  'cni-config': 'CNI configuration',
  'cni-bin': 'CNI plugin listing',
  log: 'log',
  known: 'listed, not read',
  unknown: 'not recognised',
};

/** `used`: a file of a kind hnsight only lists that it still took facts from (winver.txt, kubeclusterconfig.json). */
export function fileKindWords(kind: string, used = false): string {
  if (kind === 'known' && used) return 'node facts';
  return (WORDS as Record<string, string>)[kind] ?? kind;
}
