// The kinds of bundle file and the names the known collectors give them (SDN collectlogs.ps1, AKS
// collect-windows-logs, Get-NetView, rancher's collector, AKSTestScripts). Which kind a file is gets
// decided in parsers/bundle/recognise.ts, by content first, so a file saved by hand under any name
// (or text pasted from a ticket) is still read.
import { recognise } from './recognise.ts';
import type { FileKind } from './file-kind.ts';

export type { FileKind };
export { kindFromName } from './file-names.ts';

/** Kinds whose parsers feed the node model. */
export const MODEL_KINDS: ReadonlySet<FileKind> = new Set<FileKind>([
  'network', 'endpoint', 'namespaces', 'policy', 'hns-json', 'hnsdiag', 'ip', 'routes', 'ports', 'vfp',
  'kubectl', 'cni-config', 'cni-bin', 'log',
]);

/** Recognises a text by what it says (parsers/bundle/recognise.ts); 'unknown' when nothing claims it. */
export function kindFromContent(head: string): FileKind {
  return recognise('', head).kind;
}

/** The kind of a file from its name and the start of its content. */
export function classifyFile(path: string, head: string): FileKind {
  return recognise(path, head).kind;
}
