// What a file or a pasted text is, by its content first: every detector (parsers/bundle/detect/)
// looks at the start of the text and says what it would be, how sure it is and why; the surest
// wins. The file name decides only where content is silent or agrees (an empty `endpoint.txt` is
// still the endpoint file; `network.txt` holding JSON is the network file), or for names collectors
// give files hnsight lists without reading. Nothing is unknown without saying what it came closest to.
import { factFile } from './fact-files.ts';
import { KIND_NAMES, kindWithArticle, type FileKind } from './file-kind.ts';
import { kindFromName } from './file-names.ts';
import { cleanPaste } from '../text/paste.ts';
import type { Detection, Detector, Sample } from './detect/types.ts';
import { detectHns } from './detect/hns.ts';
import { detectHnsdiag } from './detect/hnsdiag.ts';
import { detectVfp } from './detect/vfp.ts';
import { detectIp } from './detect/ip.ts';
import { detectRoutes } from './detect/routes.ts';
import { detectCni, detectCniBin, detectKubectl } from './detect/side.ts';
import { detectLog } from './detect/logs.ts';

export interface Recognition {
  kind: FileKind;
  /** The output as a person would name it ("Get-HnsNetwork list view", "route print", "klog (kube-proxy)"). */
  format: string;
  /** 0..1. */
  confidence: number;
  /** Why, in words (the evidence and where it starts). */
  reason: string;
  /** What decided: the content, the file name, or both agreeing. */
  by: 'content' | 'name' | 'name+content';
  /** For a text nothing claimed: the kinds it came closest to, best first. */
  near?: { kind: FileKind; format: string; confidence: number }[];
  /** The output was found inside a string: every quote backslash-escaped (JSON logged by a program). */
  escaped?: boolean;
}

const ESCAPED_MEMBER = /\\"[A-Za-z][\w]{1,40}\\"\s*:/g;

/** JSON whose quotes are all escaped (`\"ID\":\"…\"`), as hcsshim/docker debug logs print HNS answers. */
export function unescapeQuotes(text: string): string {
  return text.replace(/\\\\/g, '\\').replace(/\\"/g, '"');
}

const DETECTORS: Detector[] = [detectKubectl, detectCni, detectHns, detectHnsdiag, detectVfp, detectIp, detectRoutes, detectLog, detectCniBin];
/** Below this nothing is claimed from content. */
export const MIN_CONFIDENCE = 0.35;
const MAX_SAMPLE_LINES = 600;

const HNS_KINDS = new Set<FileKind>(['network', 'endpoint', 'namespaces', 'policy', 'hns-json', 'networkdetailed']);

function sampleOf(head: string): Sample {
  const text = cleanPaste(head).text.replace(/^\uFEFF/, '');
  const lines = text.split(/\r\n|\n|\r/, MAX_SAMPLE_LINES);
  const nonBlank: number[] = [];
  for (const [i, l] of lines.entries()) if (l.trim() !== '') nonBlank.push(i);
  return { text: lines.join('\n'), lines, nonBlank };
}

/** Every detector's opinion of `head`, surest first. */
export function detectAll(head: string): Detection[] {
  const s = sampleOf(head);
  if (s.nonBlank.length === 0) return [];
  const out: Detection[] = [];
  for (const d of DETECTORS) {
    try {
      const r = d(s);
      if (r && r.score > 0) out.push(r);
    } catch {
      // A detector is a heuristic: one that fails on odd input just has no opinion.
    }
  }
  return out.sort((a, b) => b.score - a.score);
}

/** The name says one role and the content agrees on the family: the name's role is the more precise. */
function compatible(byName: FileKind, byContent: FileKind): boolean {
  if (byName === byContent) return true;
  if (HNS_KINDS.has(byName) && HNS_KINDS.has(byContent)) return true;
  if (byName === 'hnsdiag' && HNS_KINDS.has(byContent)) return true; // hnsdiag -d is HNS JSON
  return false;
}

export function recognise(name: string, head: string): Recognition {
  const byName = name ? kindFromName(name) : undefined;
  const found = detectAll(head);
  // hnsdiag's `-d` output holds HNS JSON between its listings: when hnsdiag's own layout is clear,
  // it is hnsdiag (its reader takes the JSON too).
  const diag = found.find((d) => d.kind === 'hnsdiag' && d.score >= 0.6);
  const [top] = found;
  if (diag && top && top !== diag && HNS_KINDS.has(top.kind)) {
    found.splice(found.indexOf(diag), 1);
    found.unshift(diag);
  }
  const best = found[0];
  const empty = head.trim() === '';
  const near = (): Recognition['near'] => found.slice(0, 3).map((d) => ({ kind: d.kind, format: d.format, confidence: round(d.score) }));

  // Collectors' files hnsight only lists, and binary-ish names: the name decides unless the content is unmistakable.
  if (byName === 'known') {
    if (best && best.score >= 0.85) return fromContent(best, `named like a file hnsight only lists, but ${best.reason}`);
    const fact = factFile(name);
    if (fact) return { kind: 'known', format: fact.format, confidence: 0.9, reason: fact.reason, by: 'name' };
    return { kind: 'known', format: 'listed, not read', confidence: 0.9, reason: 'a file collectors write that hnsight lists without reading', by: 'name' };
  }
  if (byName === 'cni-config') {
    // A `.conf` that is not JSON belongs to another program; a `.conflist` is CNI's own extension, so
    // one that is not JSON is a broken CNI config (containerd tries to load it).
    if (!/^\uFEFF?\s*\{/.test(head) && !/\.conflist$/i.test(name)) return { kind: 'known', format: 'a .conf file that is not JSON', confidence: 0.8, reason: 'named .conf but not JSON: another program\'s configuration', by: 'name' };
    if (best?.kind === 'cni-config') return { ...fromContent(best, best.reason), by: 'name+content' };
    if (best && best.score >= 0.6) return fromContent(best, best.reason);
    return { kind: 'cni-config', format: 'CNI config', confidence: 0.6, reason: 'named .conf/.conflist', by: 'name' };
  }
  if (byName === 'log') {
    if (best && best.kind !== 'log' && best.score >= 0.6) return fromContent(best, `saved as a .log, but ${best.reason}`);
    if (best?.kind === 'log') return { ...fromContent(best, best.reason), by: 'name+content' };
    return { kind: 'log', format: 'log', confidence: 0.6, reason: 'named .log', by: 'name' };
  }
  if (byName) {
    if (best && compatible(byName, best.kind)) {
      return { kind: byName, format: best.format, confidence: round(Math.max(best.score, 0.9)), reason: `named like ${kindWithArticle(byName)} file and ${best.reason}`, by: 'name+content' };
    }
    if (best && best.score >= 0.75) return fromContent(best, `named like ${kindWithArticle(byName)} file, but ${best.reason}`);
    return { kind: byName, format: `${KIND_NAMES[byName]} file`, confidence: empty ? 0.9 : 0.6, reason: empty ? `named like ${kindWithArticle(byName)} file; it is empty` : `named like ${kindWithArticle(byName)} file${best ? ` (its content looked most like ${best.format}, ${round(best.score)})` : ''}`, by: 'name' };
  }
  if (best && best.score >= MIN_CONFIDENCE) return fromContent(best, best.reason);
  // Research sample hns-v1-json-escaped-in-log-wrapped (ovn-kubernetes#580): an HNS answer logged
  // as an escaped string, cut out of the log line.
  if ((head.slice(0, 65536).match(ESCAPED_MEMBER) ?? []).length >= 3) {
    const inner = detectAll(unescapeQuotes(head))[0];
    if (inner && inner.score >= MIN_CONFIDENCE) return { ...fromContent(inner, `${inner.reason}, with every quote backslash-escaped (JSON logged inside a string)`), escaped: true };
  }
  return {
    kind: 'unknown',
    format: empty ? 'empty' : 'not recognised',
    confidence: 0,
    reason: empty ? 'the text is empty' : best ? `nothing hnsight reads: closest ${found.slice(0, 3).map((d) => `${d.format} (${round(d.score)})`).join(', ')}` : 'nothing in it looks like an output hnsight reads',
    by: 'content',
    near: near(),
  };
}

function fromContent(d: Detection, reason: string): Recognition {
  return { kind: d.kind, format: d.format, confidence: round(d.score), reason, by: 'content' };
}

const round = (x: number): number => Math.round(x * 100) / 100;
