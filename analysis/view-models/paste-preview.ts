// What a pasted text would be read as, before it is added: the kind and output recognised (how sure,
// why), what it yields counted, and the issues reading it raised — the same reading a file gets
// (parsers/bundle/parse-file.ts), so the preview and the node built from the paste never disagree.
import type { ParsedFile } from '../../parsers/bundle/parsed-file.ts';
import { MODEL_KINDS } from '../../parsers/bundle/classify.ts';
import { fileYield } from '../../parsers/bundle/expectations.ts';
import type { Severity } from '../../parsers/types.ts';
import { fileKindWords } from './file-kind-words.ts';
import type { OtherNode } from './paste-origin.ts';

/** Issues shown in the preview; the count of all of them is given beside. */
const PREVIEW_ISSUES = 20;

export interface PastePreview {
  /** The name the paste is read under. */
  name: string;
  /** UTF-8 bytes of the text. */
  bytes: number;
  kind: string;
  /** The kind in words ("HNS endpoints", "VFP rules"). */
  kindWords: string;
  /** The output as a person names it ("Get-HnsEndpoint | ConvertTo-Json"). */
  format: string;
  /** 0..1. */
  confidence: number;
  /** The evidence, with its line. */
  reason: string;
  /** For a text nothing recognised: the kinds it came closest to, best first. */
  near: { kindWords: string; format: string; confidence: number }[];
  /** What it yields, counted ("endpoints": 2, "rules": 57). */
  yields: Record<string, number>;
  /** It adds something to a node: a kind the model reads. */
  usable: boolean;
  errors: number;
  warnings: number;
  /** The first issues, errors first. */
  issues: { line: number; severity: Severity; message: string }[];
  /** How many issues there are in all. */
  issueCount: number;
  /** Asked about an open node: the paste looks like another node's, and why (paste-origin.ts). */
  otherNode?: OtherNode;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function buildPastePreview(p: ParsedFile): PastePreview {
  const rec = p.recognition;
  const issues = [...p.issues].sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.line - b.line);
  return {
    name: p.name,
    bytes: p.size,
    kind: p.kind,
    kindWords: fileKindWords(p.kind),
    format: rec?.format ?? '',
    confidence: rec?.confidence ?? 0,
    reason: rec?.reason ?? '',
    near: (rec?.near ?? []).map((n) => ({ kindWords: fileKindWords(n.kind), format: n.format, confidence: n.confidence })),
    yields: fileYield(p),
    usable: MODEL_KINDS.has(p.kind),
    errors: p.issues.filter((i) => i.severity === 'error').length,
    warnings: p.issues.filter((i) => i.severity === 'warning').length,
    issues: issues.slice(0, PREVIEW_ISSUES).map((i) => ({ line: i.line, severity: i.severity, message: i.message })),
    issueCount: p.issues.length,
  };
}
