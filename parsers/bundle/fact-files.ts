// Files of a kind hnsight only lists (classify.ts 'known') that it still reads for a fact or two: their
// text is kept (parse-file.ts), and recognition names what they are instead of "listed, not read".
export interface FactFile {
  test: RegExp;
  format: string;
  reason: string;
}

export const FACT_FILES: readonly FactFile[] = [
  { test: /(^|\/)winver\.txt$/i, format: 'Windows version', reason: 'the Windows version CollectLogs writes: hnsight reads the build from it' },
  {
    test: /(^|\/)kubeclusterconfig\.json$/i,
    format: 'node setup cluster configuration',
    reason: 'the cluster configuration the node setup writes (AKS, aks-engine): hnsight reads the CNI name and the Service range from it',
  },
];

/** Listed files whose text is kept all the same: the fact files, and the port ranges the checks read. */
const KEEP_TEXT = /(^|\/)(reservedports|excludedportrange|dynamicportrange)\.txt$/i;

export function factFile(name: string): FactFile | undefined {
  return FACT_FILES.find((f) => f.test.test(name));
}

export function keepsText(name: string): boolean {
  return KEEP_TEXT.test(name) || factFile(name) !== undefined;
}
