// What parse-file.ts makes of one bundle file. A leaf module of types, so the checks on a parsed file
// (expectations.ts) read it without importing the parser that produces it.
import type { ParseIssue } from '../types.ts';
import type { FileKind } from './classify.ts';
import type { Recognition } from './recognise.ts';
import type { LineEnding, TextEncodingName } from '../text/decode.ts';
import type { HnsFile } from '../hns/index.ts';
import type { Hnsdiag } from '../hnsdiag/index.ts';
import type { IpTxtResult } from '../ipconfig/index.ts';
import type { RoutesResult } from '../routes/types.ts';
import type { ByteSource, VfpIndex, VfpSwitchPort } from '../vfp/index.ts';
import type { K8sSnapshot } from '../k8s/index.ts';
import type { CniBinListing, CniConfigFile } from '../cni/index.ts';
import type { LogFile } from '../logs/index.ts';

export type ParsedContent =
  | { type: 'hns'; value: HnsFile }
  | { type: 'hnsdiag'; value: Hnsdiag }
  | { type: 'ip'; value: IpTxtResult }
  | { type: 'routes'; value: RoutesResult }
  | { type: 'ports'; value: VfpSwitchPort[] }
  /** A VFP dump: its index, and where its bytes are read from on demand (memory, or the file on disk). */
  | { type: 'vfp'; bytes: ByteSource; index: VfpIndex }
  | { type: 'k8s'; value: K8sSnapshot }
  | { type: 'cni-config'; value: CniConfigFile }
  | { type: 'cni-bin'; value: CniBinListing }
  | { type: 'log'; value: LogFile }
  | { type: 'text'; text: string }
  | { type: 'none' };

export interface ParsedFile {
  name: string;
  size: number;
  kind: FileKind;
  /** How the file was recognised: the output it is, how sure, why (parsers/bundle/recognise.ts). */
  recognition?: Recognition;
  encoding: TextEncodingName | 'not-read';
  lineEnding?: LineEnding;
  issues: ParseIssue[];
  content: ParsedContent;
  /** The decoded text of a small text file, kept so findings can quote their evidence lines. */
  text?: string;
}
