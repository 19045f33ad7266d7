// Redaction for exports: IPv4 and IPv6 addresses, MACs, GUIDs (braced, dashless, and the 8-hex short
// forms the UI prints), container IDs, host names, DNS names and e-mail addresses are replaced by
// placeholders, the same original by the same placeholder everywhere (`[ip-3]`, `[ip6-1]`, `[mac-1]`,
// `[guid-12]`, `[id-2]`, `[host-1]`, `[dns-1]`, `[email-1]`), so a reader can still follow one address
// through a report. The brackets keep a placeholder from reading as an address or a host name where it
// is glued to other text (`[ip-3]0.0.0.0`, not `ip-30.0.0.0`). Addresses that identify nothing
// (0.0.0.0, netmasks, loopback, multicast, the broadcast address, `::`, `::1`) are kept because they
// carry the meaning of routes.
//
// Text is scanned by shape, and also for the addresses the caller names (`known`), because VFP rule
// names glue values together without separators (`EXCEPTIONS_OUTBOUNDNAT_FD046_10.240.0.1910.244.0.0`).

import { DASHLESS_GUID, DNS_NAME, EMAIL, IPV6_CANDIDATE, dashGuid, isMeaninglessIpv6, isPrivateDnsName } from './shapes.ts';
import { ipv4ToUint, ipv6ToHex } from '../../parsers/net/ip.ts';
import { normalizeMac } from '../../parsers/net/mac.ts';

/** The kinds of value redaction replaces, each with its own numbering. */
export const REDACTED_KINDS = ['ip', 'ip6', 'mac', 'guid', 'id', 'host', 'dns', 'email'] as const;
export type RedactedKind = (typeof REDACTED_KINDS)[number];

export interface RedactorSeed {
  ips?: Iterable<string>;
  macs?: Iterable<string>;
  guids?: Iterable<string>;
  hostnames?: Iterable<string>;
}

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** Dotted or underscored (rule names: `10_244_3_0`), not inside a longer number or dotted run. */
const IPV4 = new RegExp(`(?<![\\d.])${OCTET}([._])${OCTET}\\2${OCTET}\\2${OCTET}(?![\\d]|\\.\\d)`, 'g');
// No hex-boundary lookarounds: HNS glues GUIDs between addresses and an index in NAT pool names
// (`SLB_NATPOOL_IPV4_TCP_10.1.18.67172.16.0.65C99E9C1E-3E1B-…-DA4F55B03B2F0`, calico#4682); the dashes
// fix the alignment, and redacting a few neighbouring hex digits too is the safe side.
const GUID = /\{?([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\}?/gi;
// Not part of a longer run of the same separator (8-byte tunnel addresses); `…-00:53` (a port) is fine.
const MAC = /(?<![0-9a-f][-:]?)([0-9a-f]{2})([-:])([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})\2([0-9a-f]{2})(?![0-9a-f])(?!\2[0-9a-f]{2})/gi;
/** Runs of digits and dots longer than one address: where rule names glue addresses together. */
const GLUED = /(?<![\d.])\d[\d.]{15,}\d(?![\d.])/g;
const FULL_IPV4 = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);
const CONTAINER_ID = /(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/gi;
/** The short forms the UI and the walk print: `1bc5a3f2…` (GUIDs), `b35bcbe0dace…` (container IDs). */
const SHORT = /(?<![0-9a-f-])([0-9a-f]{12}|[0-9a-f]{8})…/gi;
const BARE_MAC = /(?<![0-9a-f])[0-9a-f]{12}(?![0-9a-f])/gi;

export function isMeaninglessIp(ip: string): boolean {
  // Rule names glue an address with underscores (`10_0_0_1`): the same address.
  const n = ipv4ToUint(ip.replace(/_/g, '.'));
  if (n === undefined) return false;
  const a = n >>> 24;
  if (n === 0 || n === 0xffffffff) return true;
  if (a === 127 || a >= 224) return true;
  // A netmask: ones then zeros (255.255.255.0). Only masks of /8 and longer, so 128.0.0.0 stays redacted.
  const inv = ~n >>> 0;
  return a === 255 && (inv & (inv + 1)) === 0;
}

export class Redactor {
  private readonly map = new Map<string, string>();
  private readonly counters: Record<RedactedKind, number> = { ip: 0, ip6: 0, mac: 0, guid: 0, id: 0, host: 0, dns: 0, email: 0 };
  private readonly guidsByPrefix = new Map<string, string>();
  private readonly idsByPrefix = new Map<string, string>();
  private readonly macs = new Set<string>();
  private knownIps: string[] = [];
  private readonly hosts = new Set<string>();
  /** Learned host names by first character, longest first: matched as literal text, never as a RegExp. */
  private hostsByFirst = new Map<string, string[]>();
  private knownIpRe?: RegExp;

  constructor(seed: RedactorSeed = {}) {
    this.learn(seed);
  }

  /** Adds originals the scan must find even where their shape is hidden (glued into rule names). */
  learn(seed: RedactorSeed): void {
    for (const g of seed.guids ?? []) {
      const k = g.toLowerCase().replace(/[{}]/g, '');
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(k)) this.guidsByPrefix.set(k.slice(0, 8), k);
    }
    for (const m of seed.macs ?? []) {
      const k = normalizeMac(m);
      if (k) this.macs.add(k);
    }
    const ips = new Set(this.knownIps);
    for (const ip of seed.ips ?? []) if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip) && !isMeaninglessIp(ip)) ips.add(ip);
    this.knownIps = [...ips].sort((a, b) => b.length - a.length);
    this.knownIpRe = this.knownIps.length ? GLUED : undefined;
    for (const h of seed.hostnames ?? []) {
      const t = h?.trim() ?? '';
      // A host name is at most 253 characters (RFC 1035); anything longer in a bundle is not one.
      if (t.length >= 3 && t.length <= MAX_HOST && this.hosts.size < MAX_HOSTS) this.hosts.add(asciiLower(t));
    }
    const byFirst = new Map<string, string[]>();
    for (const h of [...this.hosts].sort((a, b) => b.length - a.length)) {
      const l = byFirst.get(h.charAt(0));
      if (l) l.push(h); else byFirst.set(h.charAt(0), [h]);
    }
    this.hostsByFirst = byFirst;
  }

  private placeholder(kind: RedactedKind, key: string): string {
    const k = `${kind}:${key}`;
    let v = this.map.get(k);
    if (!v) {
      v = `[${kind}-${++this.counters[kind]}]`;
      this.map.set(k, v);
    }
    return v;
  }

  private ip(ip: string): string {
    const dotted = ip.replace(/_/g, '.');
    return isMeaninglessIp(dotted) ? ip : this.placeholder('ip', dotted);
  }

  /** An IPv6 candidate (a run of hex, colons and dots): its placeholder when it is an address worth hiding.
   *  A sentence's full stop after it is not part of it. */
  private ip6(run: string): string {
    // The run may take in a label's colon before it (`Address:fe80::1`) and a colon or full stops
    // after it (`fe80::1: reachable`, `… fe80::1.`): those are not part of the address.
    const lead = /^:[^:]/.test(run) ? 1 : 0;
    const trail = /(?<=[^:]):?\.*$/.exec(run)?.[0].length ?? 0;
    const core = run.slice(lead, run.length - trail);
    // One key per address whatever its spelling (`fd00::1`, `FD00:0::0001`): the 32 hex digits.
    const hex = ipv6ToHex(core);
    if (hex === undefined || isMeaninglessIpv6(hex)) return run;
    return run.slice(0, lead) + this.placeholder('ip6', hex) + run.slice(run.length - trail);
  }

  /** Collects the GUIDs of a text first, so their short forms elsewhere map to the same placeholder. */
  prescan(s: string): void {
    for (const m of s.matchAll(GUID)) if (m[1]) this.guidsByPrefix.set(m[1].toLowerCase(), m[0].replace(/[{}]/g, '').toLowerCase());
    for (const m of s.matchAll(DASHLESS_GUID)) this.guidsByPrefix.set(m[0].slice(0, 8).toLowerCase(), dashGuid(m[0]));
    for (const m of s.matchAll(CONTAINER_ID)) this.idsByPrefix.set(m[0].slice(0, 12).toLowerCase(), m[0].toLowerCase());
    for (const m of s.matchAll(MAC)) this.macs.add(normalizeMac(m[0])!);
  }

  redact(s: string): string {
    if (!s) return s;
    let out = s;
    // E-mail addresses first, whole: their local part is as identifying as their domain.
    out = out.replace(EMAIL, (m) => this.placeholder('email', asciiLower(m)));
    if (this.hostsByFirst.size) out = this.replaceHosts(out);
    out = out.replace(CONTAINER_ID, (m) => this.placeholder('id', m.toLowerCase()));
    out = out.replace(GUID, (m) => this.placeholder('guid', m.replace(/[{}]/g, '').toLowerCase()));
    out = out.replace(DASHLESS_GUID, (m) => this.placeholder('guid', dashGuid(m)));
    out = out.replace(SHORT, (m, hex: string) => {
      const h = hex.toLowerCase();
      if (h.length === 8) return `${this.placeholder('guid', this.guidsByPrefix.get(h) ?? `prefix:${h}`)}…`;
      const full = this.idsByPrefix.get(h);
      return `${this.placeholder('id', full ?? `prefix:${h}`)}…`;
    });
    out = out.replace(MAC, (m) => this.placeholder('mac', normalizeMac(m)!));
    out = out.replace(BARE_MAC, (m) => {
      const k = normalizeMac(m)!;
      return this.macs.has(k) ? this.placeholder('mac', k) : m;
    });
    // IPv6 before IPv4, so an address with an IPv4 tail (`::ffff:10.0.0.1`) is one value.
    out = out.replace(IPV6_CANDIDATE, (m) => this.ip6(m));
    out = out.replace(IPV4, (m) => this.ip(m));
    if (this.knownIpRe) out = out.replace(this.knownIpRe, (run) => this.unglue(run));
    // Last, so no address or GUID is read as a name; file names and public names are kept (shapes.ts).
    out = out.replace(DNS_NAME, (m) => (isPrivateDnsName(m) ? this.placeholder('dns', asciiLower(m)) : m));
    return out;
  }

  /**
   * Each learned host name, as a whole word (no letter or digit either side: an underscore is a
   * boundary, as VFP and HNS glue names with it, `akswin000000_ext`), ASCII case
   * ignored; at each place the longest one that fits. Literal comparison: the names come from the bundle.
   */
  private replaceHosts(s: string): string {
    const low = asciiLower(s);
    let out = '';
    let from = 0;
    for (let i = 0; i < low.length; ) {
      const cands = (i === 0 || !isWord(low.charCodeAt(i - 1))) && this.hostsByFirst.get(low.charAt(i));
      const h = cands ? cands.find((c) => low.startsWith(c, i) && (i + c.length >= low.length || !isWord(low.charCodeAt(i + c.length)))) : undefined;
      if (h) {
        out += s.slice(from, i) + this.placeholder('host', h);
        i += h.length;
        from = i;
      } else i++;
    }
    return from ? out + s.slice(from) : s;
  }

  /** A run of digits and dots holding known addresses back to back (`10.240.0.1910.244.0.0`): each one replaced. */
  private unglue(run: string): string {
    let out = '';
    let i = 0;
    while (i < run.length) {
      const k = this.knownIps.find((ip) => run.startsWith(ip, i));
      if (k) {
        out += this.ip(k);
        i += k.length;
        continue;
      }
      const rest = run.slice(i);
      if (FULL_IPV4.test(rest)) return out + this.ip(rest);
      out += run[i++];
    }
    return out;
  }

  /** A deep copy of a JSON value with every string (and object key) redacted. */
  redactDeep<T>(v: T): T {
    const walkScan = (x: unknown): void => {
      if (typeof x === 'string') this.prescan(x);
      else if (Array.isArray(x)) x.forEach(walkScan);
      else if (x && typeof x === 'object') {
        for (const [k, val] of Object.entries(x)) {
          this.prescan(k);
          walkScan(val);
        }
      }
    };
    walkScan(v);
    const walk = (x: unknown): unknown => {
      if (typeof x === 'string') return this.redact(x);
      if (Array.isArray(x)) return x.map(walk);
      if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, val]) => [this.redact(k), walk(val)]));
      return x;
    };
    return walk(v) as T;
  }

  /** How many distinct originals of each kind were replaced. */
  stats(): Record<RedactedKind, number> {
    return { ...this.counters };
  }
}


/** The longest host name (RFC 1035), and how many distinct ones a report learns. */
const MAX_HOST = 253;
const MAX_HOSTS = 10_000;

/** A-Z lowered, nothing else: the string keeps its length, so positions in it are positions in the original. */
function asciiLower(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) {
      out += s.slice(from, i) + String.fromCharCode(c + 32);
      from = i + 1;
    }
  }
  return from ? out + s.slice(from) : s;
}

/** An ASCII letter or digit: what may not touch a host name for it to be that name. */
function isWord(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
