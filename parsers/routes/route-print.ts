// `route print` (and `netstat -r`, which prints the same) text. Sections are told apart by their
// banner words (English, German, French, Spanish, Chinese, Japanese) and, failing that, by the shape
// of their rows: an IPv4 active row is
// `dest mask gateway ifaddr metric`, a persistent row `dest mask gateway metric`, an IPv6 row
// `if metric dest gateway` where a long destination pushes the gateway onto the next line.

import type { ParseResult } from '../types.ts';
import { IssueSink } from '../types.ts';
import { isIpv4, maskToPrefix, normalizeMac } from '../net/ip.ts';
import { isBannerLine, isBlank, splitLines } from '../ps/lines.ts';
import type { Ipv4Route, Ipv6Route, RoutePrintResult } from './types.ts';
import { v4ActiveRow, v4PersistentRow, v6Row } from './route-rows.ts';
import { COUNT, PREFIX_V6, readInt } from '../text/numbers.ts';

// The description is taken to the line's end and trimmed in code: a lazy group before \s*$ is
// quadratic in a long run of blanks (the rows are split at blanks instead: route-rows.ts).
const IFACE_RE = /^\s*(\d+)\s?\.\.\.((?:[0-9a-fA-F]{2} )*)[ .]*(.*)$/;

const INTERFACE_LIST_RE = /^\s*(interface list|schnittstellenliste|liste d.interfaces|lista de interfaces|接口列表|インターフェイス一覧)\s*$/i;
const PERSISTENT_RE = /persist|ständig|beständig|permanent|永久|固定|持続/i;
const PROMPT_RE = /^\s*(?:PS\s+)?[A-Za-z]:\\[^>\r\n]{0,260}>/;
const COMMAND_RE = /^(?:route(?:\.exe)?\s+print|netstat(?:\.exe)?\s+-r\w*)\b/i;
const NONE_RE = /^\s*(none|keine|aucun[e]?|ninguna?|nessuna?)\s*$/i;

export function parseRoutePrint(text: string, file: string): ParseResult<RoutePrintResult> {
  const lines = splitLines(typeof text === 'string' ? text : '');
  return parseRoutePrintLines(lines, 0, lines.length, file);
}

export function parseRoutePrintLines(lines: readonly string[], from: number, to: number, file: string): ParseResult<RoutePrintResult> {
  const sink = new IssueSink(file);
  const out: RoutePrintResult = { interfaces: [], ipv4Active: [], ipv4Persistent: [], ipv6Active: [], ipv6Persistent: [] };
  let section: 'none' | 'interfaces' | 'ipv4' | 'ipv6' = 'none';
  let sub: 'active' | 'persistent' | null = null;
  let pendingV6: { route: Ipv6Route; persistent: boolean } | null = null;

  const flushV6 = () => {
    if (!pendingV6) return;
    sink.warn(pendingV6.route.src.line, 'IPv6 route without a gateway (wrapped line missing)');
    (pendingV6.persistent ? out.ipv6Persistent : out.ipv6Active).push(pendingV6.route);
    pendingV6 = null;
  };

  let last = to - 1;
  while (last >= from && isBlank(lines[last])) last--;

  for (const [k, line] of lines.slice(from, to).entries()) {
    const i = from + k;
    const n = i + 1;
    // The gateway of a long IPv6 row wraps onto an indented line of its own; localized on-link
    // gateways have spaces ('Auf Verbindung'), so any indented line that is not a row continues it.
    if (pendingV6 && /^\s{8,}\S/.test(line) && !v6Row(line) && !NONE_RE.test(line) && !isBannerLine(line)) {
      const gw = line.trim();
      pendingV6.route.gateway = gw;
      pendingV6.route.onLink = !gw.includes(':');
      (pendingV6.persistent ? out.ipv6Persistent : out.ipv6Active).push(pendingV6.route);
      pendingV6 = null;
      continue;
    }
    flushV6();
    if (isBlank(line) || isBannerLine(line)) continue;
    const t = line.trim();

    if (INTERFACE_LIST_RE.test(line)) { section = 'interfaces'; sub = null; continue; }
    const iface = section === 'interfaces' || section === 'none' ? IFACE_RE.exec(line) : null;
    if (iface) {
      const [, index = '', macBytes = '', description = ''] = iface;
      const mac = macBytes.trim() === '' ? undefined : normalizeMac(macBytes, { long: true });
      out.interfaces.push({ index: readInt(index, COUNT).value ?? -1, ...(mac ? { mac } : {}), description: description.trimEnd(), src: sink.ref(n) });
      section = 'interfaces';
      continue;
    }

    const active = v4ActiveRow(line);
    if (active && (section === 'ipv4' || section === 'none' || section === 'interfaces')) {
      if (section !== 'ipv4') { section = 'ipv4'; sub = 'active'; }
      const r = v4Route(active.destination, active.netmask, active.gateway, active.metric, sink, n);
      r.interface = active.iface!;
      (sub === 'persistent' ? out.ipv4Persistent : out.ipv4Active).push(r);
      continue;
    }
    const pers = v4PersistentRow(line);
    if (pers && section === 'ipv4') {
      const r = v4Route(pers.destination, pers.netmask, pers.gateway, pers.metric, sink, n);
      if (sub !== 'persistent') sink.warn(n, 'IPv4 route without an interface address outside "Persistent Routes"');
      out.ipv4Persistent.push(r);
      continue;
    }
    const v6 = v6Row(line);
    if (v6 && (section === 'ipv6' || section === 'none')) {
      if (section === 'none') { section = 'ipv6'; sub = 'active'; }
      const dest = v6.destination;
      const slash = dest.indexOf('/');
      // Refused, with the rest of the table read: a prefix longer than 128 bits, an index or metric
      // too large to be one (Number() would round it).
      const nums = { ifIndex: readInt(v6.ifIndex, COUNT), metric: readInt(v6.metric, COUNT), prefix: slash >= 0 ? readInt(dest.slice(slash + 1), PREFIX_V6) : undefined };
      const bad = Object.entries(nums).find(([, r]) => r?.problem);
      if (bad) {
        sink.warn(n, `IPv6 route ${dest}: the ${bad[0] === 'prefix' ? 'prefix length' : bad[0]} ${bad[1]!.problem}; the route is not read`);
        continue;
      }
      const route: Ipv6Route = {
        ifIndex: nums.ifIndex.value!, metric: nums.metric.value!, destination: dest,
        ...(nums.prefix ? { prefixLength: nums.prefix.value! } : {}),
        gateway: v6.gateway ?? '', onLink: false, src: sink.ref(n),
      };
      const persistent = sub === 'persistent';
      if (v6.gateway === undefined) { pendingV6 = { route, persistent }; continue; }
      route.onLink = !v6.gateway.includes(':');
      (persistent ? out.ipv6Persistent : out.ipv6Active).push(route);
      continue;
    }

    if (/ipv4/i.test(t) && !t.endsWith(':')) { section = 'ipv4'; sub = null; continue; }
    if (/ipv6/i.test(t) && !t.endsWith(':')) { section = 'ipv6'; sub = null; continue; }
    if (t.endsWith(':')) {
      sub = PERSISTENT_RE.test(t) ? 'persistent' : /activ|aktiv/i.test(t) || sub === null ? 'active' : 'persistent';
      // A paste of only the `Persistent Routes:` part (ovn-kubernetes#360 in the corpus) has no
      // `IPv4 Route Table` title before it: its rows are IPv4 rows all the same.
      if (section === 'none' || section === 'interfaces') section = 'ipv4';
      continue;
    }
    if (NONE_RE.test(line)) continue;
    if (isColumnHeader(t)) continue;
    // The command typed before the output: a prompt, or `route print` / `netstat -rn` alone.
    if (PROMPT_RE.test(line) || COMMAND_RE.test(t)) { sink.info(n, `the command line not read: "${t.slice(0, 80)}"`); continue; }
    if (i === last && /^[\d.:a-fA-F]+$/.test(t)) { sink.info(n, `the text ends inside this line: "${t.slice(0, 80)}" is the start of a route cut off (the paste or the file was cut here)`); continue; }
    sink.info(n, `route print: line not understood, skipped: "${t.slice(0, 80)}"`);
  }
  flushV6();
  return { value: out, issues: sink.issues };
}

/** Column header lines (`Network Destination  Netmask ...`, ` If Metric Network Destination Gateway`): words only, no addresses. */
function isColumnHeader(t: string): boolean {
  return /^[\p{L}\s.()-]+$/u.test(t) && t.split(/\s+/).length >= 3;
}

function v4Route(dest: string, mask: string, gateway: string, metricText: string, sink: IssueSink, n: number): Ipv4Route {
  if (!isIpv4(dest)) sink.warn(n, `route destination "${dest}" is not an IPv4 address`);
  const prefix = maskToPrefix(mask);
  if (prefix === null) sink.warn(n, `netmask "${mask}" is not a contiguous mask`);
  const metric = /^\d+$/.test(metricText) ? readInt(metricText, COUNT).value : undefined;
  return {
    destination: dest, netmask: mask, ...(prefix !== null ? { prefixLength: prefix } : {}),
    gateway, onLink: !isIpv4(gateway), ...(metric !== undefined ? { metric } : {}), metricText, src: sink.ref(n),
  };
}
