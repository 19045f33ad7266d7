// `netsh int ipv4 show dynamicportrange tcp|udp` and `netsh int ipv4 show excludedportrange tcp|udp`,
// as collectlogs.ps1 writes them to dynamicportrange.txt and excludedportrange.txt (microsoft/SDN
// Kubernetes/windows/debug/collectlogs.ps1: `netsh int ipv4 sh excludedportrange TCP > …`, then UDP
// appended). The exclusion layout is as pasted in open-telemetry/opentelemetry-collector#10839 and
// opentelemetry-collector-contrib#10872 (with `*` marking administered exclusions); the dynamic range's
// `Start Port : … / Number of Ports : …` is the output Microsoft Learn's "Troubleshoot port exhaustion
// issues" (windows/client-management/troubleshoot-tcpip-port-exhaust) shows for `netsh int ipv4 show
// dynamicport tcp`:
//
//   Protocol tcp Dynamic Port Range            Protocol tcp Port Exclusion Ranges
//   ---------------------------------
//   Start Port      : 49152                    Start Port    End Port
//   Number of Ports : 16384                    ----------    --------
//                                                    5357        5357
//                                                   50000       50059     *
//                                              * - Administered port exclusions.
//
// Both files may hold both sections (one per protocol). Bounded: at most MAX_RANGES ranges are kept.
import type { ParseIssue, ParseResult } from '../types.ts';

export interface DynamicRange { proto: string; start: number; count: number; line: number }
export interface ExcludedRange { proto: string; start: number; end: number; administered: boolean; line: number }
export interface NetshPortRanges { dynamic: DynamicRange[]; excluded: ExcludedRange[] }

const MAX_RANGES = 10_000;
const port = (n: number) => Number.isInteger(n) && n >= 0 && n <= 65535;

export function parseNetshPortRanges(text: string, file: string): ParseResult<NetshPortRanges> {
  const out: NetshPortRanges = { dynamic: [], excluded: [] };
  const issues: ParseIssue[] = [];
  const lines = (text ?? '').split(/\r?\n/);
  let section: { kind: 'dynamic' | 'excluded'; proto: string } | undefined;
  let pendingStart: { value: number; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = (lines[i] ?? '').trim();
    const ln = i + 1;
    const head = /^Protocol\s+(tcp|udp)\s+(Dynamic Port Range|Port Exclusion Ranges)/i.exec(l);
    if (head) {
      section = { kind: /dynamic/i.test(head[2] ?? '') ? 'dynamic' : 'excluded', proto: (head[1] ?? '').toLowerCase() };
      pendingStart = undefined;
      continue;
    }
    if (!section || !l || /^-+(\s+-+)?$/.test(l) || /^Start Port\s+End Port$/i.test(l) || /^\*\s*-/.test(l)) continue;
    if (out.dynamic.length + out.excluded.length >= MAX_RANGES) {
      issues.push({ file, line: ln, severity: 'warning', message: `More than ${MAX_RANGES} port ranges: the rest of the file is not read.` });
      break;
    }
    if (section.kind === 'dynamic') {
      const kv = /^(Start Port|Number of Ports)\s*:\s*(\d+)$/i.exec(l);
      if (!kv) { issues.push({ file, line: ln, severity: 'warning', message: `Not a dynamic port range line: "${l.slice(0, 80)}"` }); continue; }
      const v = Number(kv[2]);
      if (/start/i.test(kv[1] ?? '')) { pendingStart = { value: v, line: ln }; continue; }
      if (!pendingStart) { issues.push({ file, line: ln, severity: 'warning', message: 'Number of Ports without a Start Port before it.' }); continue; }
      if (!port(pendingStart.value) || v < 1 || pendingStart.value + v - 1 > 65535) {
        issues.push({ file, line: ln, severity: 'warning', message: `Dynamic range ${pendingStart.value} + ${v} ports is outside 0–65535.` });
      } else {
        out.dynamic.push({ proto: section.proto, start: pendingStart.value, count: v, line: pendingStart.line });
      }
      pendingStart = undefined;
      continue;
    }
    const r = /^(\d+)\s+(\d+)(\s+\*)?$/.exec(l);
    if (!r) { issues.push({ file, line: ln, severity: 'warning', message: `Not a port exclusion range line: "${l.slice(0, 80)}"` }); continue; }
    const start = Number(r[1]);
    const end = Number(r[2]);
    if (!port(start) || !port(end) || end < start) { issues.push({ file, line: ln, severity: 'warning', message: `Port exclusion range ${start}–${end} is not a valid range.` }); continue; }
    out.excluded.push({ proto: section.proto, start, end, administered: !!r[3], line: ln });
  }
  return { value: out, issues };
}

/**
 * Free room in a dynamic range once the excluded ranges inside it are taken out: the free gaps, the
 * excluded ports inside the range, and how many whole 64-port blocks the gaps hold
 * (Σ floor(gap / 64): a block must be contiguous, so ports left over in each gap do not add up).
 */
export function dynamicRoom(d: DynamicRange, excluded: ExcludedRange[], block = 64): { excludedInside: number; rangesInside: number; gaps: { start: number; end: number }[]; freePorts: number; blocks: number } {
  const end = d.start + d.count - 1;
  const inside = excluded.filter((e) => e.proto === d.proto && e.end >= d.start && e.start <= end)
    .map((e) => ({ start: Math.max(e.start, d.start), end: Math.min(e.end, end) }))
    .sort((a, b) => a.start - b.start);
  const gaps: { start: number; end: number }[] = [];
  let cur = d.start;
  let excludedInside = 0;
  for (const e of inside) {
    if (e.start > cur) gaps.push({ start: cur, end: e.start - 1 });
    if (e.end >= cur) { excludedInside += e.end - Math.max(cur, e.start) + 1; cur = e.end + 1; }
  }
  if (cur <= end) gaps.push({ start: cur, end });
  const freePorts = gaps.reduce((s, g) => s + g.end - g.start + 1, 0);
  const blocks = gaps.reduce((s, g) => s + Math.floor((g.end - g.start + 1) / block), 0);
  return { excludedInside, rangesInside: inside.length, gaps, freePorts, blocks };
}
