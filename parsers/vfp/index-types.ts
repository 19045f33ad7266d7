// The shape of the byte-level index of vfpOutput.txt (scan.ts builds it). A leaf module: the scanner,
// the cut-end notes and the rule-name reader all read it without importing one another.
import type { VfpPortTableRow } from './types.ts';

export interface VfpIndexPort {
  name: string;
  /** Line of `Policy for port :`, or of the first block when the file names no port (resolved lazily). */
  readonly line: number;
  /** Byte offset of the line that `line` names. */
  byte: number;
  /** First line of the port's range: the boundary line, 1 for an implicit port (resolved lazily). */
  readonly lineStart: number;
  /** First byte of the range (the boundary line; 0 for an implicit port). */
  byteStart: number;
  /** Exclusive end byte of the range (next boundary or end of file). */
  byteEnd: number;
  layers: number;
  groups: number;
  rules: number;
  blocked?: boolean;
  /** True when no `Policy for port :` line introduced this port. */
  implicit: boolean;
  /** Index of the port's first layer in VfpIndex.layers. */
  firstLayer: number;
}

export interface VfpIndexLayer {
  port: number;
  name: string;
  priority?: number;
  /** Line of the LAYER block (resolved lazily). */
  readonly line: number;
  byte: number;
}

export type VfpOutputGeneration = 'list-rule' | 'get-rule-counter' | 'unknown';

export interface VfpIndex {
  file: string;
  bytes: number;
  /** Line count (resolving it builds the line locator: one pass over the bytes). */
  readonly lines: number;
  ports: VfpIndexPort[];
  layers: VfpIndexLayer[];
  /** Per GROUP block: byte offset of its line, port index. */
  groupByte: Float64Array;
  groupPort: Uint32Array;
  /** Lines of the GROUP blocks, computed in one sweep on first read. */
  readonly groupLine: Uint32Array;
  /** Per RULE block: byte offset of its line, port index. */
  ruleByte: Float64Array;
  rulePort: Uint32Array;
  /** Lines of the RULE blocks, computed in one sweep on first read. */
  readonly ruleLine: Uint32Array;
  /**
   * Per RULE block: a number standing for its name (rule-name.ts nameKeyAt), -1 when it prints none.
   * Read while the scan has the bytes at hand, so checks can tell which rules several ports share
   * without touching a million rule lines again.
   */
  ruleName: Float64Array;
  totals: { ports: number; layers: number; groups: number; rules: number };
  portTable: VfpPortTableRow[];
  generation: VfpOutputGeneration;
  /** 1-based line of a byte offset. The first call builds the locator (one pass, ~150 ms per GB). */
  lineAt(byte: number): number;
  /** Byte offset where a 1-based line starts; undefined past the last line. */
  lineStart(line: number): number | undefined;
  /**
   * The line locator's checkpoint table, once prepareLines() built it: the parse worker builds it
   * while the main thread reads the other files, and it crosses threads with the index.
   */
  lineTable?: Float64Array;
  /** Builds the line locator now (and keeps its table in lineTable). */
  prepareLines(): void;
  /**
   * Takes a checkpoint table counted elsewhere over the same bytes (LineLocator.table: the loader counts
   * it on the main thread while the worker scans); false, and nothing changed, when it does not fit them.
   */
  adoptLines(table: Float64Array): boolean;
}

export interface VfpScanOptions {
  defaultPortName?: string;
  /** The layer an echoed `vfpctrl … /layer X` names: groups before any LAYER line are in it. */
  defaultLayerName?: string;
  /** Bytes decoded per chunk (default 64 KiB). Only tests change it, to put chunk edges everywhere. */
  chunkBytes?: number;
  /** Bytes read from a source not held in memory at a time (default 4 MiB). Only tests change it. */
  windowBytes?: number;
  /**
   * Count the line locator's table during the scan (default true). The loader turns it off for a dump
   * on disk and counts the table on its main thread meanwhile (adoptLines): the two cores share the work.
   */
  countLines?: boolean;
}
