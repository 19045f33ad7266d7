// The text forms of an address people type and the tool prints: `IP[:PORT][/PROTO]` (a pod, a
// VIP:port/proto; IPv6 as `[ADDRESS]:PORT` when a port follows, RFC 3986 style) and a flow
// `SRC-DST[:PORT][/PROTO]` (the CLI's --trace, the walk refs in notes; IPv4). One parser for every
// place that reads them (CLI, report notes, findings, the app's search box).
import { isIpv4, isIpv6 } from './ip.ts';
import { readInt } from '../text/numbers.ts';

export type AddressProto = 'tcp' | 'udp' | 'icmp';

export interface Address {
  ip: string;
  port?: number;
  proto?: AddressProto;
}

const ADDRESS = /^\s*(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?(?:\s*\/\s*(tcp|udp|icmp))?\s*$/i;
const ADDRESS6 = /^\s*(?:\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?|([0-9a-fA-F]*:[0-9a-fA-F:.]*))(?:\s*\/\s*(tcp|udp|icmp))?\s*$/i;
const FLOW = /^\s*(\d{1,3}(?:\.\d{1,3}){3})-(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?(?:\/(tcp|udp|icmp))?\s*$/i;

function port(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  return readInt(text, { min: 1, max: 65535 }).value ?? null;
}

/** An address with its port as the tool prints it: `10.0.0.5:80`, `[fd00::5]:80` (RFC 3986 §3.2.2), the bare address without a port. */
export function hostPort(ip: string, port?: number): string {
  if (port === undefined) return ip;
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** Why an address text is not one, in words (for usage errors), or undefined when it parses. */
export function addressProblem(text: string): string | undefined {
  const m = ADDRESS.exec(text);
  if (m) {
    const [, ip = '', portText] = m;
    if (!isIpv4(ip)) return `${ip} is not an IPv4 address`;
    if (port(portText) === null) return `port ${portText} is out of range`;
    return undefined;
  }
  const m6 = ADDRESS6.exec(text);
  if (!m6) return 'not an IP address';
  // One of the two forms (bracketed or bare) always fills its group.
  const [, bracketed, portText, bare = ''] = m6;
  const ip = bracketed ?? bare;
  if (!isIpv6(ip)) return `${ip} is not an IPv6 address`;
  if (port(portText) === null) return `port ${portText} is out of range`;
  return undefined;
}

/** “10.96.0.10”, “10.96.0.10:53”, “10.96.0.10:53/udp”, “fd00::a”, “[fd00::a]:53/udp” (protocol names in any case). */
export function parseAddress(text: string): Address | undefined {
  const m = ADDRESS.exec(text);
  const m6 = m ? null : ADDRESS6.exec(text);
  const ip = m ? m[1] : m6 ? (m6[1] ?? m6[3]) : undefined;
  if (!ip || !(m ? isIpv4(ip) : isIpv6(ip))) return undefined;
  const p = port(m ? m[2] : m6![2]);
  if (p === null) return undefined;
  const proto = m ? m[3] : m6![4];
  return { ip, ...(p !== undefined ? { port: p } : {}), ...(proto ? { proto: proto.toLowerCase() as AddressProto } : {}) };
}

export interface FlowSpec {
  srcIp: string;
  dstIp: string;
  dstPort?: number;
  proto?: AddressProto;
}

/** `10.244.1.5-10.96.0.10:53/udp` (the protocol may be absent: the caller picks its default). */
export function parseFlowSpec(text: string): FlowSpec | undefined {
  const m = FLOW.exec(text);
  if (!m) return undefined;
  const [, srcIp = '', dstIp = '', portText, proto] = m;
  if (!isIpv4(srcIp) || !isIpv4(dstIp)) return undefined;
  const p = port(portText);
  if (p === null) return undefined;
  return { srcIp, dstIp, ...(p !== undefined ? { dstPort: p } : {}), ...(proto ? { proto: proto.toLowerCase() as AddressProto } : {}) };
}
