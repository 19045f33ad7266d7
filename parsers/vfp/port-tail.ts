// A port's trailing sections — port state, NAT ranges, flow stats — read without parsing its rules.
// dumpVfpPolicies.ps1 prints, per port, `/get-rule-counter` (the rules) and then `/get-port-state`,
// `/list-nat-range` and `/get-flow-stats` (../shared/reference/collectlogs-formats.md §3, from
// microsoft/SDN Kubernetes/windows/debug/dumpVfpPolicies.ps1). A check that wants a pod's NAT ranges
// on a node of 250 ports × 4,000 rules would otherwise parse a million rules (minutes) to read a few
// lines each. Where the rules' trailer is not found near the port's end (another layout, another
// encoding), the answer is undefined and the caller parses the whole port: slower, never different.
import type { ByteSource } from './byte-source.ts';
import type { VfpIndex } from './index-types.ts';
import { parseVfpRuleText } from './policy-text.ts';
import type { VfpPortPolicy } from './types.ts';

/** The rules' trailers (vfpctrl prints `Command <verb> succeeded!` after each output). */
const RULES_END = ['Command get-rule-counter succeeded', 'Command list-rule succeeded'];
/** How far back from a port's end the rules' trailer is looked for: the trailing sections are small. */
const MAX_TAIL_BYTES = 1024 * 1024;
// One byte per code unit: string positions are byte offsets, whatever the bytes are.
const bytewise = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

/**
 * The port's policy as parsed from the bytes after its rules only (no layers, no rules; its sections,
 * port state and NAT ranges as the whole parse gives them, at the same lines), or undefined when the
 * rules' trailer is not within MAX_TAIL_BYTES of the port's end or the NAT ranges are not after it.
 */
export function materializeVfpPortTail(src: ByteSource, index: VfpIndex, portIndex: number): VfpPortPolicy | undefined {
  const ip = index.ports[portIndex];
  if (!ip) return undefined;
  for (let span = 64 * 1024; ; span *= 4) {
    const from = Math.max(ip.byteStart, ip.byteEnd - span);
    const text = bytewise.decode(src.read(from, ip.byteEnd - from));
    let at = -1;
    for (const t of RULES_END) at = Math.max(at, text.lastIndexOf(t));
    if (at >= 0) {
      const nl = text.indexOf('\n', at);
      if (nl < 0) return undefined;
      const start = from + nl + 1;
      const tail = utf8.decode(src.read(start, ip.byteEnd - start));
      const r = parseVfpRuleText(tail, index.file, { lineOffset: index.lineAt(start) - 1, defaultPortName: ip.name });
      const p = r.value[0];
      // Only a tail that holds the NAT ranges answers: in another order they may precede the rules.
      return p && p.layers.length === 0 && p.sections.some((x) => x.command === 'list-nat-range') ? p : undefined;
    }
    if (from === ip.byteStart || span >= MAX_TAIL_BYTES) return undefined;
  }
}
