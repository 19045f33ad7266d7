// Room left in the host's dynamic (ephemeral) port ranges, from dynamicportrange.txt and
// excludedportrange.txt (collectlogs.ps1: `netsh int ipv4 sh dynamicportrange|excludedportrange TCP`,
// UDP appended). HNS and WinNAT reserve their port ranges as exclusions inside the dynamic range (the
// non-administered ranges in open-telemetry/opentelemetry-collector#10839 are WinNAT's), so an exclusion
// inside the range is expected, not a fault: what matters is how many whole 64-port blocks are still
// free — 64 because collectlogs' own probe (reservedports.txt, PortReservationTest.ps1) reserves
// "ranges of 64 ports", the unit the ephemeral-ports check already reads. The arithmetic is shown in
// the finding. How many of those blocks each new pod takes is not in these files, so the text says
// "insufficient information" rather than forecasting a pod count.
import type { Finding, FindingEvidence } from '../findings/types.ts';
import type { Check } from './types.ts';
import { dynamicRoom, parseNetshPortRanges, type NetshPortRanges } from '../../parsers/net/netsh-ports.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import { plural } from '../../parsers/text/quantities.ts';
import { snatForecast, type SnatForecast } from './snat-forecast.ts';
import { checkContext } from './context.ts';

/** The SNAT forecast of the TCP row (the check context is cached per model). */
function withSnat(m: NodeModel, blocks: number): { snat?: SnatForecast } {
  const snat = snatForecast(checkContext(m), blocks);
  return snat ? { snat } : {};
}

const MAX_LINES = 20_000;
/** Below this many free 64-port blocks the node is close to the exhaustion reservedports.txt reports (same bar as ephemeral-ports). */
const LOW_BLOCKS = 16;

function read(m: NodeModel, re: RegExp): { file: string; ranges: NetshPortRanges; issues: number } | undefined {
  const file = m.files.find((f) => re.test(f.name))?.name;
  if (!file || !m.text?.has(file)) return undefined;
  const lines: string[] = [];
  for (let i = 1; i <= MAX_LINES; i++) {
    const l = m.text.lineText(file, i);
    if (l === undefined) break;
    lines.push(l);
  }
  const r = parseNetshPortRanges(lines.join('\n'), file);
  return { file, ranges: r.value, issues: r.issues.length };
}

export interface PortCapacityRow {
  proto: string;
  start: number;
  end: number;
  size: number;
  excludedInside: number;
  rangesInside: number;
  freePorts: number;
  /** Whole 64-port blocks in the free gaps. */
  blocks: number;
  /** The sum spelled out, for people. */
  arithmetic: string;
  evidence: FindingEvidence[];
  /** Lines of the two files that could not be read. */
  unreadLines: number;
  /** TCP row: how many more source-NATed pods fit, with its arithmetic, or what is missing (snat-forecast.ts); absent when no pod here is source-NATed. */
  snat?: SnatForecast;
}

const rowsOf = new WeakMap<NodeModel, readonly PortCapacityRow[]>();

/**
 * One row per dynamic range (TCP, UDP) when both netsh files are in the bundle; [] otherwise. Worked
 * out once per model (the rows are shared: do not modify them): the check and the inspect document both show them,
 * and the TCP row's SNAT forecast reads every source-NATed pod port's sections (≈ 0.14 s on the 250-pod node).
 */
export function portCapacityRows(m: NodeModel): PortCapacityRow[] {
  let rows = rowsOf.get(m);
  if (!rows) rowsOf.set(m, (rows = capacityRows(m)));
  return [...rows];
}

function capacityRows(m: NodeModel): PortCapacityRow[] {
  const dyn = read(m, /(^|\/)dynamicportrange\.txt$/i);
  const exc = read(m, /(^|\/)excludedportrange\.txt$/i);
  if (!dyn || !exc) return [];
  return dyn.ranges.dynamic.map((d) => {
    const end = d.start + d.count - 1;
    const room = dynamicRoom(d, exc.ranges.excluded);
    const inside = exc.ranges.excluded.filter((e) => e.proto === d.proto && e.end >= d.start && e.start <= end);
    const gapsText = room.gaps.length <= 6
      ? room.gaps.map((g) => `${g.start}–${g.end} (${g.end - g.start + 1} ports → ${Math.floor((g.end - g.start + 1) / 64)})`).join(' + ')
      : `${room.gaps.length} gaps`;
    return {
      proto: d.proto, start: d.start, end, size: d.count, excludedInside: room.excludedInside, rangesInside: room.rangesInside, freePorts: room.freePorts, blocks: room.blocks,
      arithmetic: `${d.proto.toUpperCase()} dynamic range ${d.start}–${end} (${d.count} ports) − ${room.excludedInside} ports in ${plural(room.rangesInside, 'excluded range')} inside it = ${room.freePorts} free ports; whole 64-port blocks in the free gaps: ${gapsText} = ${room.blocks}.`,
      evidence: [
        { file: dyn.file, line: d.line, text: `Start Port : ${d.start} / Number of Ports : ${d.count} (${d.proto})` },
        ...inside.slice(0, 5).map((e) => ({ file: exc.file, line: e.line, text: `${e.start} ${e.end}${e.administered ? ' *' : ''}` })),
      ],
      unreadLines: dyn.issues + exc.issues,
      ...(d.proto === 'tcp' ? withSnat(m, room.blocks) : {}),
    };
  });
}

export const portCapacityCheck: Check = {
  id: 'port-capacity',
  ids: ['port-capacity', 'port-capacity-low'],
  title: 'Dynamic port capacity',
  platforms: 'any',
  assumes: "the host's dynamic port range is shared by every plugin, and HNS/WinNAT reservations appear in it as excluded ranges",
  run(ctx) {
    return portCapacityRows(ctx.m).map((r): Finding => {
      const proto = r.proto.toUpperCase();
      const low = r.blocks < LOW_BLOCKS;
      // Pods' SNAT pools are forecast against the TCP range only (snat-forecast.ts: inferred).
      const snat = r.snat;
      const podsText = snat ? snat.text : 'How many blocks each new pod takes is not in these files: insufficient information to say how many more pods fit.';
      return {
        id: low ? 'port-capacity-low' : 'port-capacity',
        severity: low ? 'warning' : 'info',
        area: 'node',
        title: low ? `Only ${r.blocks} free blocks of 64 ${proto} ports are left in the dynamic range` : `${r.blocks} free blocks of 64 ${proto} ports in the dynamic range`,
        explanation: `${r.arithmetic} Port reservations (HNS, WinNAT and other services) are taken from this range as contiguous blocks; when no whole block is left, new reservations fail. ${podsText}${r.unreadLines ? ` ${plural(r.unreadLines, 'line')} of the port range files could not be read.` : ''}`,
        fix: low
          ? 'See which ranges are reserved (`netsh int ipv4 show excludedportrange tcp`) and which process holds ports (`netstat -anoq`); widen the dynamic range (`netsh int ipv4 set dynamicport tcp start=10000 num=55535`) or remove stale reservations.'
          : 'Nothing to do; compare with reservedports.txt\'s estimate when ports run short.',
        objects: [...new Set(r.evidence.slice(0, 2).map((e) => e.file))],
        evidence: [...r.evidence, ...(snat?.evidence ?? [])],
      };
    });
  },
};
