// A big VFP dump read from a source (a file on disk), indexed in windows without being held: the part of
// reading a bundle file the parse worker runs for a big dump. Kept apart from parse-file.ts so the
// worker loads only the VFP scanner and the recognisers, not every parser (issue 27: the worker's
// start-up is on the critical path of a load, beside the dump's scan). Pure, like parse-file.ts.
import { kindFromName } from './classify.ts';
import { recognise } from './recognise.ts';
import { expectationIssues } from './expectations.ts';
import type { ParsedFile } from './parsed-file.ts';
import { decodeText, detectEncoding } from '../text/decode.ts';
import { scanVfpOutput } from '../vfp/scan.ts';
import { OffsetBytes, type ByteSource } from '../vfp/byte-source.ts';

/** Pasted text and small files get ticket formatting undone before reading (parsers/text/paste.ts). */
export const CLEAN_MAX_CHARS = 16 << 20;
export const BINARY = /\.(evtx|etl|zip|gz|tgz|cab|dmp|pcap|pcapng|exe|dll)$/i;
export const HEAD_BYTES = 64 * 1024;

/**
 * The file as parseBundleSource reads it when it is a VFP dump in one encoding the scanner reads as it is
 * (ASCII, UTF-8, Windows-1252) and too big to be a paste: indexed in windows, its bytes read again on
 * demand. undefined for anything else (the caller reads it whole: parseBundleFile).
 */
export function parseVfpSource(name: string, src: ByteSource, opts: { countLines?: boolean } = {}): ParsedFile | undefined {
  if (BINARY.test(name)) return undefined;
  const head = src.read(0, HEAD_BYTES);
  const encoding = detectEncoding(head);
  const byName = kindFromName(name);
  const direct = encoding === 'ascii' || encoding === 'utf-8' || encoding === 'windows-1252' || encoding === 'utf-8-bom';
  if (!direct || src.size <= CLEAN_MAX_CHARS || (byName && byName !== 'vfp' && byName !== 'known')) return undefined;
  const headText = decodeText(head.subarray(0, byName && byName !== 'known' ? Math.min(head.length, 4096) : HEAD_BYTES), name);
  const rec = recognise(name, headText.text);
  if (rec.kind !== 'vfp') return undefined;
  const out: ParsedFile = { name, size: src.size, kind: 'vfp', recognition: rec, encoding, lineEnding: headText.lineEnding, issues: [], content: { type: 'none' } };
  try {
    // toSingleByte leaves a UTF-8 BOM out: so does this, so offsets are those of the bytes read whole.
    const single = encoding === 'utf-8-bom' ? new OffsetBytes(src, 3) : src;
    const r = scanVfpOutput(single, name, { ...vfpScanOptions(name, headText.text), countLines: opts.countLines });
    out.issues.push(...r.issues);
    if (single.size > 0 && !r.value.ports.length && !r.value.portTable.length && !r.issues.some((i) => i.severity !== 'info')) {
      out.issues.push({ file: name, line: 1, severity: 'warning', message: 'no VFP port, layer, group or rule was found in this file: it does not look like vfpctrl output' });
    }
    out.content = { type: 'vfp', bytes: single, index: r.value };
    out.issues.push(...expectationIssues(out));
  } catch (e) {
    out.issues.push({ file: name, line: 0, severity: 'error', message: `internal error while reading this file: ${e instanceof Error ? e.message : String(e)}` });
  }
  return out;
}

/**
 * A rule dump of one port without a `Policy for port` line: the port is the GUID in the file name
 * (Get-NetView's VfpCtrl.PortGuid.<guid>.txt) or in the echoed command (`vfpctrl /port <guid> …`),
 * and the groups listed are those of the layer it names (`/layer ACL_ENDPOINT_LAYER`).
 */
export function vfpScanOptions(name: string, headText: string): { defaultPortName?: string; defaultLayerName?: string } {
  const GUID_RE = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;
  const guid = GUID_RE.exec(name.split('/').pop() ?? '') ?? /vfpctrl(?:\.exe)?\s+\/port\s+\{?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i.exec(headText.slice(0, 4096));
  const layer = /vfpctrl(?:\.exe)?[^\r\n]{0,200}?\s\/layer\s+"?([\w.-]{1,128})/i.exec(headText.slice(0, 4096));
  return { defaultPortName: guid?.[1], defaultLayerName: layer?.[1] };
}

