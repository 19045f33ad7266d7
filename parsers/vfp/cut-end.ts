// Where a vfpctrl dump that was cut (the collector killed, the disk full) stops. dumpVfpPolicies.ps1
// appends, per port, six vfpctrl outputs, and vfpctrl ends each with `Command <verb> succeeded!`
// (../shared/reference/collectlogs-formats.md §3 and §5.2; microsoft/SDN Kubernetes/windows/debug/
// dumpVfpPolicies.ps1). So a LAYER, GROUP or RULE block with no such line after it, in a file whose
// outputs do carry it, was never finished: the rules after it are missing. Said like every other cut
// file (psJson's "JSON truncated"): an error at the last line, naming the port, layer, group and rule.
// Only the head and the tail of the file are decoded: the check costs the same on a 27 M line dump.
// A pasted listing that ends with a note of whoever pasted it is said here too (noteEndMarker).
import type { IssueSink } from '../types.ts';
import { matchKeyword, matchTrailer } from './text-lines.ts';
import type { VfpIndex } from './index-types.ts';
import { asByteSource, type ByteSource } from './byte-source.ts';
import { plural } from '../text/quantities.ts';

/** Bytes read at each end: the first port's list-space trailer comes within a few hundred bytes. */
const WINDOW = 1 << 20;
const decoder = new TextDecoder('utf-8');

const lastOf = (a: Float64Array): number => a.at(-1) ?? -1;

/** The bytes of the line that starts at `byte` (its first 4 KiB), decoded and trimmed. */
function lineText(b: ByteSource, byte: number): string {
  const head = b.read(byte, 4096);
  const e = head.indexOf(10);
  return decoder.decode(head.subarray(0, e < 0 ? head.length : e)).trim();
}

const isBlankByte = (c: number) => c === 10 || c === 13 || c === 32 || c === 9;

/** End of the last byte that is not a blank or a line end (0 when there is none), read backwards. */
function contentEnd(b: ByteSource): number {
  let e = b.size;
  while (e > 0) {
    const from = Math.max(0, e - 65536);
    const piece = b.read(from, e - from);
    let k = piece.length;
    while (k > 0 && isBlankByte(piece[k - 1]!)) k--;
    if (k > 0) return from + k;
    e = from;
  }
  return 0;
}

/** Start of the line holding the byte before `e` (searching back at most `limit` bytes; -1 past it). */
function lineStartBefore(b: ByteSource, e: number, limit = Infinity): number {
  let s = e;
  while (s > 0 && e - s < limit) {
    const from = Math.max(0, s - 65536, e - limit - 1);
    const piece = b.read(from, s - from);
    const k = piece.lastIndexOf(10);
    if (k >= 0) return from + k + 1;
    s = from;
  }
  return s === 0 ? 0 : -1;
}

/** Start of the last line that holds more than blanks, or -1. */
function lastContentLine(b: ByteSource): number {
  const e = contentEnd(b);
  return e === 0 ? -1 : lineStartBefore(b, e);
}

/** 1-based line of a byte, 0 when the index cannot tell (never throws). */
function lineOf(index: VfpIndex, byte: number): number {
  try {
    return index.lineAt(byte);
  } catch {
    return 0;
  }
}

/**
 * A pasted listing the author cut short often ends with their note: `(redacted)`, `...`, `[snip]`
 * (corpus vfp-list-rule-acl-layer…rke2windows ends with "  (redacted)"). vfpctrl prints no such
 * line; it is said, with its line, so the reader knows the listing goes on elsewhere.
 */
export function noteEndMarker(bytes: Uint8Array | ByteSource, index: VfpIndex, sink: IssueSink): void {
  const b = asByteSource(bytes);
  const e = contentEnd(b);
  if (e === 0) return;
  // The note is short: a last line longer than 200 bytes is not one.
  const ls = lineStartBefore(b, e, 200);
  if (ls < 0) return;
  const body = decoder.decode(b.read(ls, e - ls)).trim();
  if (!/^(?:\([^():]{1,80}\)|\[[^[\]:]{1,80}\]|<(?!none>)[^<>:]{1,80}>|\.{3,}|…)$/i.test(body)) return;
  sink.info(lineOf(index, ls), `the text ends with ${JSON.stringify(body)}: a note by whoever pasted it, not vfpctrl output (what was left out is not in the file)`);
}

const hasTrailer = (text: string): boolean => text.split('\n').some((l) => matchTrailer(l.trim()) !== undefined);

export function noteCutEnd(bytes: Uint8Array | ByteSource, index: VfpIndex, sink: IssueSink): boolean {
  const b = asByteSource(bytes);
  const layerByte = index.layers.at(-1)?.byte ?? -1;
  const groupByte = lastOf(index.groupByte);
  const ruleByte = lastOf(index.ruleByte);
  const last = Math.max(layerByte, groupByte, ruleByte);
  if (last < 0 || b.size - last > WINDOW) return false;
  // A paste of one vfpctrl output often leaves the trailer out: only a dump whose outputs end with it is judged.
  if (!hasTrailer(decoder.decode(b.read(0, WINDOW)))) return false;
  const tail = decoder.decode(b.read(last, b.size - last));
  if (hasTrailer(tail)) return false;
  const end = lastContentLine(b);
  if (end < 0) return false;
  const name = (byte: number) => (byte < 0 ? '' : (matchKeyword(lineText(b, byte))?.rest ?? '').trim() || '(unnamed)');
  const layer = index.layers.length ? index.layers[index.layers.length - 1] : undefined;
  const port = index.ports[layer ? layer.port : 0];
  const where: string[] = [];
  let what: string;
  if (last === ruleByte) {
    // The fields of a rule end with FlagsEx (then the counters on get-rule-counter dumps).
    const fieldsDone = /^\s*FlagsEx\s*:/im.test(tail);
    // Rules without an ID (`RULE :`) go by their friendly name, the next line.
    const id = name(ruleByte);
    const friendly = id === '(unnamed)' ? /^\s*Friendly name\s*:\s*(\S.*?)\s*$/im.exec(tail)?.[1] : undefined;
    what = `inside RULE ${friendly ?? id} (${fieldsDone ? 'after' : 'before'} its FlagsEx line)`;
    if (groupByte >= 0 && groupByte < ruleByte) where.push(`group ${name(groupByte)}`);
  } else if (last === groupByte) what = `inside GROUP ${name(groupByte)}`;
  else what = `inside LAYER ${name(layerByte)}`;
  if (layer && last !== layerByte) where.push(`layer ${layer.name || '(unnamed)'}`);
  if (port?.name) where.push(`port ${port.name}`);
  const line = lineOf(index, end);
  sink.error(line, `VFP dump truncated: the file stops ${what}${where.length ? ` — ${where.join(', ')}` : ''}. vfpctrl's "Command … succeeded!" line never came, so the rules after it, this port's later outputs and any later ports are missing`);
  return true;
}

/**
 * A dump cut between two vfpctrl outputs ends on a trailer, but the PS port table at its top lists
 * every port dumpVfpPolicies.ps1 then walks in the same order (`foreach ($port in $ports)`): ports of
 * the table with no `Policy for port` section after the last one that has it were never written.
 */
export function noteMissingPorts(index: VfpIndex, sink: IssueSink, cutSaid: boolean): void {
  const table = index.portTable.map((r) => r.name.toLowerCase());
  const dumped = index.ports.filter((p) => !p.implicit).map((p) => p.name.toLowerCase());
  if (!table.length || !dumped.length || dumped.length >= table.length) return;
  // Only a dump that follows the table's order and stops early: the dumped ports are its first rows.
  if (dumped.some((n, i) => table[i] !== n)) return;
  const missing = index.portTable.slice(dumped.length);
  if (cutSaid) return;
  // dumped is not empty, so neither is index.ports.
  const lastPort = index.ports.at(-1);
  if (!lastPort) return;
  const end = index.bytes > 0 ? lineOf(index, Math.max(0, index.bytes - 1)) : 0;
  sink.error(end, `VFP dump truncated: the port table lists ${table.length} ports, but the file ends after port ${lastPort.name} (port ${dumped.length} of ${table.length}): the ${missing.length === 1 ? 'port after it has' : `${plural(missing.length, 'port')} after it have`} no rules in the file: ${missing.slice(0, 5).map((r) => r.name).join(', ')}${missing.length > 5 ? ', …' : ''}`);
}
