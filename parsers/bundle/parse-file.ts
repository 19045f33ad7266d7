// Turns one bundle file's bytes into what its parser reads from it. Pure: the Node loader hands in
// bytes, so the same code runs in a worker, a test, or a browser.
import type { ParseIssue } from '../types.ts';
import { classifyFile, kindFromName, type FileKind } from './classify.ts';
import { decodeText, detectEncoding, toSingleByte, type LineEnding, type TextEncodingName } from '../text/decode.ts';
import { parseHnsFile, type HnsFile, type HnsKind } from '../hns/index.ts';
import { parseHnsdiag, type Hnsdiag } from '../hnsdiag/index.ts';
import { parseIpTxt, type IpTxtResult } from '../ipconfig/index.ts';
import { parseRoutesTxt } from '../routes/index.ts';
import type { RoutesResult } from '../routes/types.ts';
import { parseVmSwitchPorts, scanVfpOutput, type VfpIndex, type VfpSwitchPort } from '../vfp/index.ts';
import { parseKubectlJson, type K8sSnapshot } from '../k8s/index.ts';
import { parseCniBinListing, parseCniConfig, type CniBinListing, type CniConfigFile } from '../cni/index.ts';
import { parseLogFile, type LogFile } from '../logs/index.ts';

export type ParsedContent =
  | { type: 'hns'; value: HnsFile }
  | { type: 'hnsdiag'; value: Hnsdiag }
  | { type: 'ip'; value: IpTxtResult }
  | { type: 'routes'; value: RoutesResult }
  | { type: 'ports'; value: VfpSwitchPort[] }
  | { type: 'vfp'; bytes: Uint8Array; index: VfpIndex }
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
  encoding: TextEncodingName | 'not-read';
  lineEnding?: LineEnding;
  issues: ParseIssue[];
  content: ParsedContent;
  /** The decoded text of a small text file, kept so findings can quote their evidence lines. */
  text?: string;
}

const HNS_EXPECT: Partial<Record<FileKind, HnsKind>> = {
  network: 'network',
  networkdetailed: 'network',
  endpoint: 'endpoint',
  namespaces: 'namespace',
  policy: 'loadbalancer',
};

/** Files kept as text for the few facts hnsight takes from them (e.g. the Windows build). */
const KEEP_TEXT = /(^|\/)(winver|reservedports|excludedportrange|dynamicportrange)\.txt$/i;
/** Larger texts are not kept for evidence (they are big logs or huge policy dumps). */
const KEEP_EVIDENCE_CHARS = 16 << 20;
const BINARY = /\.(evtx|etl|zip|gz|tgz|cab|dmp|pcap|pcapng|exe|dll)$/i;
const HEAD_BYTES = 64 * 1024;

export function parseBundleFile(name: string, bytes: Uint8Array): ParsedFile {
  const out: ParsedFile = { name, size: bytes.length, kind: 'unknown', encoding: 'not-read', issues: [], content: { type: 'none' } };
  try {
    if (BINARY.test(name)) {
      out.kind = 'known';
      return out;
    }
    const encoding = detectEncoding(bytes);
    out.encoding = encoding;
    const byName = kindFromName(name);
    // vfp dumps can be hundreds of MB: classify from the head only, then scan bytes, never a whole string.
    const head = decodeText(bytes.subarray(0, byName && byName !== 'known' ? Math.min(bytes.length, 4096) : HEAD_BYTES), name);
    out.lineEnding = head.lineEnding;
    const kind = classifyFile(name, head.text);
    out.kind = kind;
    if (kind === 'vfp') {
      const single = toSingleByte(bytes, encoding);
      const guid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i.exec(name.split('/').pop() ?? '');
      const r = scanVfpOutput(single, name, { defaultPortName: guid?.[1] });
      out.issues.push(...r.issues);
      // A file named like a VFP dump that holds none (binary junk, another command's output) says so.
      if (single.length > 0 && !r.value.ports.length && !r.value.portTable.length && !r.issues.some((i) => i.severity !== 'info')) {
        out.issues.push({ file: name, line: 1, severity: 'warning', message: 'no VFP port, layer, group or rule was found in this file: it does not look like vfpctrl output' });
      }
      out.content = { type: 'vfp', bytes: single, index: r.value };
      return out;
    }
    if (kind === 'unknown' || (kind === 'known' && !KEEP_TEXT.test(name))) return out;
    const decoded = decodeText(bytes, name);
    out.issues.push(...decoded.issues);
    out.lineEnding = decoded.lineEnding;
    const text = decoded.text;
    if (kind !== 'log' && text.length <= KEEP_EVIDENCE_CHARS) out.text = text;
    switch (kind) {
      case 'network':
      case 'networkdetailed':
      case 'endpoint':
      case 'namespaces':
      case 'policy':
      case 'hns-json': {
        const r = parseHnsFile(text, name, { expect: HNS_EXPECT[kind] });
        out.issues.push(...r.issues);
        out.content = { type: 'hns', value: r.value };
        break;
      }
      case 'hnsdiag': {
        const r = parseHnsdiag(text, name);
        out.issues.push(...r.issues);
        out.content = { type: 'hnsdiag', value: r.value };
        break;
      }
      case 'ip': {
        const r = parseIpTxt(text, name);
        out.issues.push(...r.issues);
        out.content = { type: 'ip', value: r.value };
        break;
      }
      case 'routes': {
        const r = parseRoutesTxt(text, name);
        out.issues.push(...r.issues);
        out.content = { type: 'routes', value: r.value };
        break;
      }
      case 'ports': {
        const r = parseVmSwitchPorts(text, name);
        out.issues.push(...r.issues);
        out.content = { type: 'ports', value: r.value };
        break;
      }
      case 'kubectl': {
        const r = parseKubectlJson(text, name);
        out.issues.push(...r.issues);
        out.content = { type: 'k8s', value: r.value };
        break;
      }
      case 'cni-config': {
        const r = parseCniConfig(text, name);
        out.issues.push(...r.issues);
        out.content = { type: 'cni-config', value: r.value };
        break;
      }
      case 'cni-bin': {
        const r = parseCniBinListing(text, name);
        out.issues.push(...r.issues);
        out.content = { type: 'cni-bin', value: r.value };
        break;
      }
      case 'log': {
        const r = parseLogFile(text, name);
        out.issues.push(...r.issues);
        out.content = { type: 'log', value: r.value };
        break;
      }
      default:
        out.content = { type: 'text', text };
    }
  } catch (e) {
    // Parsers promise not to throw; this is the last line of defence so one file never sinks a load.
    out.issues.push({ file: name, line: 0, severity: 'error', message: `internal error while reading this file: ${e instanceof Error ? e.message : String(e)}` });
  }
  return out;
}
