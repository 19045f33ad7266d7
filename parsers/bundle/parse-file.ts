// Turns one bundle file's bytes into what its parser reads from it. Pure: the Node loader hands in
// bytes, so the same code runs in a worker, a test, or a browser.
import { keepsText } from './fact-files.ts';
import type { ParseIssue } from '../types.ts';
import { kindFromName, type FileKind } from './classify.ts';
import { recognise, unescapeQuotes, type Recognition } from './recognise.ts';
import { cleanPaste } from '../text/paste.ts';
import { expectationIssues } from './expectations.ts';
import type { ParsedFile } from './parsed-file.ts';
import { decodeText, detectEncoding, toSingleByte } from '../text/decode.ts';
import { parseHnsFile, type HnsKind } from '../hns/index.ts';
import { parseHnsdiag } from '../hnsdiag/index.ts';
import { parseIpTxt } from '../ipconfig/index.ts';
import { parseRoutesTxt } from '../routes/index.ts';
import { MemoryBytes, parseVmSwitchPorts, scanVfpOutput, type ByteSource } from '../vfp/index.ts';
import { parseVfpSource, vfpScanOptions, CLEAN_MAX_CHARS, BINARY, HEAD_BYTES } from './parse-source.ts';
import { parseKubectlJson } from '../k8s/index.ts';
import { parseCniBinListing, parseCniConfig } from '../cni/index.ts';
import { parseLogFile } from '../logs/index.ts';

const HNS_EXPECT: Partial<Record<FileKind, HnsKind>> = {
  network: 'network',
  networkdetailed: 'network',
  endpoint: 'endpoint',
  namespaces: 'namespace',
  policy: 'loadbalancer',
};

/** Larger texts are not kept for evidence (they are big logs or huge policy dumps). */
const KEEP_EVIDENCE_CHARS = 16 << 20;


export function parseBundleFile(name: string, bytes: Uint8Array): ParsedFile {
  const out: ParsedFile = { name, size: bytes.length, kind: 'unknown', encoding: 'not-read', issues: [], content: { type: 'none' } };
  try {
    if (BINARY.test(name)) {
      out.kind = 'known';
      out.recognition = { kind: 'known', format: 'binary', confidence: 1, reason: 'a binary file (by its extension)', by: 'name' };
      return out;
    }
    const encoding = detectEncoding(bytes);
    out.encoding = encoding;
    const byName = kindFromName(name);
    // vfp dumps can be hundreds of MB: classify from the head only, then scan bytes, never a whole string.
    const head = decodeText(bytes.subarray(0, byName && byName !== 'known' ? Math.min(bytes.length, 4096) : HEAD_BYTES), name);
    out.lineEnding = head.lineEnding;
    const rec = recognise(name, head.text);
    out.recognition = rec;
    const kind = rec.kind;
    out.kind = kind;
    if (kind === 'unknown') {
      const none = printedNothing(head.text);
      if (none) {
        out.recognition = { ...rec, format: 'the command printed nothing', reason: none.reason };
        out.issues.push({ file: name, line: none.line, severity: 'warning', message: none.message });
      } else out.issues.push(unrecognised(name, head.text, rec));
      return out;
    }
    if (kind === 'vfp') {
      let single = toSingleByte(bytes, encoding);
      // A pasted rule listing (quoted, indented): clean the text and scan that instead. Big dumps
      // are never pasted and are scanned as they are.
      if (bytes.length <= CLEAN_MAX_CHARS) {
        const c = cleanPaste(decodeText(bytes, name).text);
        if (c.changes.length) {
          single = new TextEncoder().encode(c.text);
          out.issues.push({ file: name, line: 0, severity: 'info', message: `read as pasted text: ${c.changes.join('; ')}` });
        }
      }
      const r = scanVfpOutput(single, name, vfpScanOptions(name, head.text));
      out.issues.push(...r.issues);
      // A file named like a VFP dump that holds none (binary junk, another command's output) says so.
      if (single.length > 0 && !r.value.ports.length && !r.value.portTable.length && !r.issues.some((i) => i.severity !== 'info')) {
        out.issues.push({ file: name, line: 1, severity: 'warning', message: 'no VFP port, layer, group or rule was found in this file: it does not look like vfpctrl output' });
      }
      out.content = { type: 'vfp', bytes: new MemoryBytes(single), index: r.value };
      out.issues.push(...expectationIssues(out));
      return out;
    }
    if (kind === 'known' && !keepsText(name)) return out;
    const decoded = decodeText(bytes, name);
    out.issues.push(...decoded.issues);
    out.lineEnding = decoded.lineEnding;
    let text = decoded.text;
    if (kind !== 'known' && text.length <= CLEAN_MAX_CHARS) {
      const c = cleanPaste(text);
      const changes = [...c.changes];
      text = c.text;
      if (rec.escaped) {
        text = unescapeQuotes(text);
        changes.push('backslash-escaped quotes read as quotes');
      }
      if (changes.length) out.issues.push({ file: name, line: 0, severity: 'info', message: `read as pasted text: ${changes.join('; ')}` });
    }
    if (kind !== 'log' && decoded.text.length <= KEEP_EVIDENCE_CHARS) out.text = decoded.text;
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
    out.issues.push(...expectationIssues(out));
  } catch (e) {
    // Parsers promise not to throw; this is the last line of defence so one file never sinks a load.
    out.issues.push({ file: name, line: 0, severity: 'error', message: `internal error while reading this file: ${e instanceof Error ? e.message : String(e)}` });
  }
  return out;
}

/**
 * One bundle file read from a source (a file on disk): a big VFP dump is indexed in windows and its
 * bytes read again on demand (parse-source.ts); anything else is read whole and parsed as parseBundleFile
 * does. `countLines: false` leaves the dump's line table to the caller (VfpIndex.adoptLines).
 */
export function parseBundleSource(name: string, src: ByteSource, opts: { countLines?: boolean } = {}): ParsedFile {
  // A binary file is known by its name and read no further than its head.
  if (BINARY.test(name)) return { ...parseBundleFile(name, src.read(0, HEAD_BYTES)), size: src.size };
  return parseVfpSource(name, src, opts) ?? parseBundleFile(name, src.read(0, src.size));
}

const PROMPT_LINE = /^(?:PS [^>\r\n]{0,260}>|[A-Za-z]:\\[^>\r\n]{0,260}>)[ \t]*(.*)$/;
const EMPTY_VALUE = /^(?:\[\s*\]|\{\s*\}|null|"")$/;

/**
 * A paste of prompts and commands with no output between them, or an empty JSON value (`[]`, what
 * `Get-HnsPolicyList | ConvertTo-Json` prints when HNS has no policy lists): the command printed
 * nothing. Said so, with the command, rather than "not recognised".
 */
function printedNothing(head: string): { line: number; message: string; reason: string } | null {
  const lines = head.split(/\r\n|\n|\r/, 200);
  let command = '';
  let commandLine = 0;
  let empty = 0;
  let emptyValue = '';
  let first = 0;
  for (const [i, line] of lines.entries()) {
    const t = line.trim().replace(/^\uFEFF/, '');
    if (t === '') continue;
    if (!first) first = i + 1;
    const m = PROMPT_LINE.exec(t);
    if (m) {
      const [, rest = ''] = m;
      const said = rest.trim();
      if (said !== '' && !command) {
        command = said;
        commandLine = i + 1;
      }
      continue;
    }
    if (EMPTY_VALUE.test(t)) {
      if (!empty) {
        empty = i + 1;
        // trim() already drops a leading U+FEFF, so t is the line as trimmed.
        emptyValue = t;
      }
      continue;
    }
    return null;
  }
  if (!command && !empty) return null;
  const cmd = command ? ` ${JSON.stringify(command.length > 100 ? command.slice(0, 100) + '…' : command)}` : '';
  const what = empty ? `only an empty value (${emptyValue}) follows` : 'no output follows it';
  return {
    line: commandLine || empty || first,
    message: `the command${cmd} printed nothing: ${what} (there were no such objects where it ran, or the output was not copied)`,
    reason: `${command ? 'a prompt and command' : 'an empty JSON value'} without output`,
  };
}

/** The issue for a text nothing recognised: its name, its first line, what it came closest to. */
function unrecognised(name: string, head: string, rec: Recognition): ParseIssue {
  const lines = head.split(/\r\n|\n|\r/, 200);
  const firstIdx = lines.findIndex((l) => l.trim() !== '');
  const firstLine = lines[firstIdx];
  if (firstLine === undefined) return { file: name, line: 0, severity: 'warning', message: `${name} is empty: nothing to read` };
  const first = firstLine.trim().replace(/^\uFEFF/, '');
  const shown = JSON.stringify(first.length > 100 ? first.slice(0, 100) + '…' : first);
  const near = rec.near?.length ? `; closest: ${rec.near.map((n) => `${n.format} (${n.confidence})`).join(', ')}` : '; it looks like none of them';
  return { file: name, line: firstIdx + 1, severity: 'warning', message: `not recognised as any output hnsight reads (HNS objects, hnsdiag, vfpctrl, ipconfig, route print, Get-Net*, CNI config, kubectl JSON, logs); first line ${shown}${near}` };
}
