// The notes a person writes while looking at a bundle: on hops, findings, objects and the report as
// a whole, plus the walks they chose. Saved by services/notes (atomically, with revisions);
// the schema is documented in README.md ("Notes file").
import type { Flow, Proto } from '../walk/types.ts';
import { parseFlowSpec } from '../../parsers/net/address.ts';

export type NoteTargetKind = 'hop' | 'finding' | 'object' | 'report';

export interface NoteTarget {
  kind: NoteTargetKind;
  /**
   * 'report', 'finding:<key>' (FindingView.key, e.g. `lb-stale-dip#1`), 'object:<type>:<id>' (an
   * ObjectRef, e.g. `object:endpoint:<guid>`), 'trace:<srcIp>-<dstIp>:<port>/<proto>#<hopIndex>'
   * (hop index 0-based; without `#…` the note is on the whole walk).
   */
  ref: string;
}

export interface Note {
  id: string;
  target: NoteTarget;
  text: string;
  createdAt: string;
  updatedAt: string;
}

export interface Notes {
  schema: 1;
  bundle: { hash: string; location: string; hostName?: string };
  title: string;
  summary: string;
  notes: Note[];
  /** The walks the person chose for the report. */
  traces: Flow[];
  /** Incremented by every save; a save must name the revision it was based on. */
  revision: number;
}

export function emptyNotes(bundle: Notes['bundle']): Notes {
  return { schema: 1, bundle, title: '', summary: '', notes: [], traces: [], revision: 0 };
}

/** `trace:10.244.1.5-10.96.0.10:53/udp` — the ref of a walk (append `#<hop>` for one hop). */
export function traceRef(f: Pick<Flow, 'srcIp' | 'dstIp' | 'dstPort' | 'proto'>): string {
  return `trace:${f.srcIp}-${f.dstIp}${f.dstPort !== undefined ? `:${f.dstPort}` : ''}/${f.proto}`;
}

/** Splits a hop ref into the walk's ref and the hop index. */
export function parseTraceRef(ref: string): { trace: string; hop?: number; flow?: { srcIp: string; dstIp: string; dstPort?: number; proto: Proto } } | undefined {
  const m = /^trace:([^#]+?)(?:#(\d+))?$/i.exec(ref.trim());
  const f = m?.[1] ? parseFlowSpec(m[1]) : undefined;
  // A walk ref always names its protocol (traceRef writes it).
  if (!m || !f?.proto) return undefined;
  const flow = { srcIp: f.srcIp, dstIp: f.dstIp, dstPort: f.dstPort, proto: f.proto as Proto };
  return { trace: traceRef(flow), hop: m[2] === undefined ? undefined : Number(m[2]), flow };
}
