// Value decoders for single vfpctrl fields: Flags, `{ ... }` encap destinations, DIP ranges, counters.
import { normalizeMac as normMac } from '../net/mac.ts';
import { normKey, parseIntLoose } from './text-lines.ts';
import { PORT, readInt, UINT32 } from '../text/numbers.ts';
import type { VfpDipRange, VfpEncapDestination, VfpRuleCounters } from './types.ts';

export interface ParsedFlags {
  flags: number;
  text: string;
  names: string[];
}

/**
 * `8195 terminating stateful`, `1 terminating`, `0x9 Default Allow , Update flows on address change`,
 * `0x1, Default Allow`. Layer flag names are comma-separated phrases; rule flag names are single words
 * (whitespace-separated) unless a comma appears.
 */
export function parseFlags(value: string, phrases = false): ParsedFlags | undefined {
  const m = /^(0x[0-9a-f]+|\d+)[ \t]*,?[ \t]*(.*)$/i.exec(value.trim());
  if (!m) return undefined;
  const [, number = '', rest = ''] = m;
  const flags = readInt(number, { ...UINT32, hex: true }).value;
  if (flags === undefined) return undefined;
  const text = rest.trim();
  const names = text === '' ? [] : (phrases || text.includes(',') ? text.split(',') : text.split(/\s+/)).map((s) => s.trim()).filter((s) => s !== '');
  return { flags, text, names };
}

/** `{ IP address=10.127.130.38, MAC address=00-15-5D-F9-D2-63, GRE key=4096 }` (one or more per line). */
export function parseEncapDestinations(body: string): { dests: VfpEncapDestination[]; complete: boolean } {
  const dests: VfpEncapDestination[] = [];
  const re = /\{([^}]*)(\}|$)/g;
  let complete = true;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body)) !== null) {
    const [, inside = '', close] = m;
    if (close !== '}') complete = false;
    const d: VfpEncapDestination = { ip: '', extra: {} };
    for (const part of inside.split(',')) {
      const eq = part.indexOf('=');
      if (eq < 0) {
        if (part.trim() !== '') d.extra[part.trim()] = '';
        continue;
      }
      const k = part.slice(0, eq).trim();
      const v = part.slice(eq + 1).trim();
      const nk = normKey(k);
      if (nk === 'ip address' || nk === 'ip' || nk === 'pa' || nk === 'destination ip') d.ip = v;
      else if (nk === 'mac address' || nk === 'mac') d.mac = normMac(v) ?? v;
      else if (nk === 'gre key' || nk === 'vni' || nk === 'vsid') {
        const n = parseIntLoose(v);
        if (n !== undefined) d.greKey = n;
        else d.extra[k] = v;
      } else d.extra[k] = v;
    }
    dests.push(d);
    if (m[0] === '') break;
  }
  return { dests, complete };
}

/** `{ 10.244.19.31 : 80 }`, `{ fdf5:5d67:b9ce:b28f::13f : 4445 }`, also without braces. */
export function parseDipRange(body: string): VfpDipRange | undefined {
  const inner = body.replace(/^\{/, '').replace(/\}$/, '').trim();
  if (inner === '') return undefined;
  let m = /^(.*\S)[ \t]+:[ \t]+(\d{1,5})$/.exec(inner);
  if (!m) m = /^(\d{1,3}(?:\.\d{1,3}){3})[ \t]*:[ \t]*(\d{1,5})$/.exec(inner);
  // A port over 65535 is no port: the range is refused (the caller names the line), not read as one.
  if (m) {
    const [, ip = '', portText = ''] = m;
    const port = readInt(portText, PORT).value;
    return port === undefined ? undefined : { ip, port };
  }
  if (/^[0-9a-f:.]+$/i.test(inner)) return { ip: inner };
  return undefined;
}

/** Counter labels are not verified against a real sample: accept any case/spacing of the known ones. */
export function counterField(nk: string): keyof VfpRuleCounters | undefined {
  const k = nk.replace(/\s+/g, '');
  if (k === 'matchedpackets') return 'matchedPackets';
  if (k === 'droppedpackets') return 'droppedPackets';
  if (k === 'pendingpackets') return 'pendingPackets';
  if (k === 'droppedunifiedflows' || k === 'droppedflows') return 'droppedFlows';
  return undefined;
}
