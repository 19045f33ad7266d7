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

const IP = String.raw`(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})`;
const V4_ACTIVE_RE = new RegExp(String.raw`^\s*${IP}\s+${IP}\s+(\S.*?)\s+${IP}\s+(\d+)\s*$`);
const V4_PERSISTENT_RE = new RegExp(String.raw`^\s*${IP}\s+${IP}\s+(\S.*?)\s+(\S+)\s*$`);
const V6_RE = /^\s*(\d+)\s+(\d+)\s+([0-9a-fA-F:.]*:[0-9a-fA-F:.]*(?:\/\d+)?)(?:\s+(\S.*?))?\s*$/;
const IFACE_RE = /^\s*(\d+)\s?\.\.\.((?:[0-9a-fA-F]{2} )*)[ .]*(.*?)\s*$/;

const INTERFACE_LIST_RE = /^\s*(interface list|schnittstellenliste|liste d.interfaces|lista de interfaces|接口列表|インターフェイス一覧)\s*$/i;
const PERSISTENT_RE = /persist|ständig|beständig|permanent|永久|固定|持続/i;
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

  for (let i = from; i < to; i++) {
    const line = lines[i];
    const n = i + 1;
    // The gateway of a long IPv6 row wraps onto an indented line of its own; localized on-link
    // gateways have spaces ('Auf Verbindung'), so any indented line that is not a row continues it.
    if (pendingV6 && /^\s{8,}\S/.test(line) && !V6_RE.test(line) && !NONE_RE.test(line) && !isBannerLine(line)) {
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
      const mac = iface[2].trim() === '' ? null : normalizeMac(iface[2].trim());
      out.interfaces.push({ index: Number(iface[1]), ...(mac ? { mac } : {}), description: iface[3], src: sink.ref(n) });
      section = 'interfaces';
      continue;
    }

    const active = V4_ACTIVE_RE.exec(line);
    if (active && (section === 'ipv4' || section === 'none' || section === 'interfaces')) {
      if (section !== 'ipv4') { section = 'ipv4'; sub = 'active'; }
      const r = v4Route(active[1], active[2], active[3], active[5], sink, n);
      r.interface = active[4];
      (sub === 'persistent' ? out.ipv4Persistent : out.ipv4Active).push(r);
      continue;
    }
    const pers = V4_PERSISTENT_RE.exec(line);
    if (pers && section === 'ipv4') {
      const r = v4Route(pers[1], pers[2], pers[3], pers[4], sink, n);
      if (sub !== 'persistent') sink.warn(n, 'IPv4 route without an interface address outside "Persistent Routes"');
      out.ipv4Persistent.push(r);
      continue;
    }
    const v6 = V6_RE.exec(line);
    if (v6 && (section === 'ipv6' || section === 'none')) {
      if (section === 'none') { section = 'ipv6'; sub = 'active'; }
      const dest = v6[3];
      const slash = dest.indexOf('/');
      const route: Ipv6Route = {
        ifIndex: Number(v6[1]), metric: Number(v6[2]), destination: dest,
        ...(slash >= 0 ? { prefixLength: Number(dest.slice(slash + 1)) } : {}),
        gateway: v6[4] ?? '', onLink: false, src: sink.ref(n),
      };
      const persistent = sub === 'persistent';
      if (v6[4] === undefined) { pendingV6 = { route, persistent }; continue; }
      route.onLink = !v6[4].includes(':');
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
  const metric = /^\d+$/.test(metricText) ? Number(metricText) : undefined;
  return {
    destination: dest, netmask: mask, ...(prefix !== null ? { prefixLength: prefix } : {}),
    gateway, onLink: !isIpv4(gateway), ...(metric !== undefined ? { metric } : {}), metricText, src: sink.ref(n),
  };
}
