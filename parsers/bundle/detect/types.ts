// What a detector says about a text: which kind of file it is, in which layout, how sure, and why.
import type { FileKind } from '../file-kind.ts';

export interface Detection {
  kind: FileKind;
  /** The output as a person would name it: "Get-HnsNetwork (list view)", "route print", "klog (kube-proxy)". */
  format: string;
  /** 0..1: how sure the detector is. Below 0.35 nothing is claimed. */
  score: number;
  /** The evidence, in words, with the line it starts at. */
  reason: string;
}

/** The start of a text (after paste cleanup), as every detector sees it. */
export interface Sample {
  text: string;
  lines: string[];
  /** 0-based indexes of the non-blank lines. */
  nonBlank: number[];
}

export type Detector = (s: Sample) => Detection | null;

export const clamp = (x: number): number => Math.max(0, Math.min(1, x));

/** `line N` for a 0-based index. */
export const at = (i: number): string => `line ${i + 1}`;

/** The non-blank lines, each with its 0-based index: a detector reads a line it was given, never one
 *  past the end of the sample. */
export function nonBlankLines(s: Sample): [number, string][] {
  return s.nonBlank.flatMap((i) => {
    const line = s.lines[i];
    return line === undefined ? [] : [[i, line] as [number, string]];
  });
}
