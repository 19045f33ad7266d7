// ports.txt: `vfpctrl /list-vmswitch-port` blocks, then per port a marker line
// `Get-port-counter for port:  <GUID>` followed by that port's `/get-port-counter` output.
import { IssueSink } from '../types.ts';
import type { ParseResult } from '../types.ts';
import { normalizeMac as normMac } from '../net/mac.ts';
import { isHeaderLine, isWhoLine, matchPrompt, matchTrailer, normKey, parseIntLoose, splitKeyValue, toLines } from './text-lines.ts';
import type { VfpSwitchPort } from './types.ts';

export interface SwitchPortOptions {
  lineOffset?: number;
}

const MARKER = /^get-port-counter for port[ \t]*:[ \t]*(.*)$/is;
const DIRECTION = /^direction[ \t]*(?:-|:)[ \t]*(in|out)\b/i;

export function parseVmSwitchPorts(text: string, file: string, opts: SwitchPortOptions = {}): ParseResult<VfpSwitchPort[]> {
  const sink = new IssueSink(file);
  const ports: VfpSwitchPort[] = [];
  try {
    read(typeof text === 'string' ? text : '', sink, ports, opts.lineOffset ?? 0);
  } catch (e) {
    sink.error(0, `internal error while reading vmswitch ports: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { value: ports, issues: sink.issues };
}

function read(text: string, sink: IssueSink, ports: VfpSwitchPort[], lineOffset: number): void {
  const byName = new Map<string, VfpSwitchPort>();
  let port: VfpSwitchPort | undefined;
  /** Port whose /get-port-counter output is being read; null = marker named an unknown port. */
  let counterPort: VfpSwitchPort | null | undefined;
  let dir: 'in' | 'out' | undefined;
  let contentLines = 0;

  for (const line of toLines(text, lineOffset)) {
    // Select-String marks the matching line of a `-Context` excerpt with `> `.
    const body = line.body.startsWith('> ') ? line.body.slice(2).trimStart() : line.body;
    if (body === '') continue;
    contentLines++;
    try {
      const marker = MARKER.exec(body);
      if (marker) {
        const [, marked = ''] = marker;
        const name = marked.trim();
        counterPort = byName.get(name.toLowerCase()) ?? null;
        dir = undefined;
        port = undefined;
        if (counterPort === null) sink.warn(line.no, `port counters for ${name || '(no name)'}, which /list-vmswitch-port did not list`);
        continue;
      }
      if (/^error\b/i.test(body)) {
        sink.warn(line.no, `vfpctrl reported: ${body}`);
        continue;
      }
      if (matchTrailer(body) !== undefined || isHeaderLine(body) || isWhoLine(body) || matchPrompt(body)) continue;

      const kv = splitKeyValue(body);
      const nk = kv ? normKey(kv.key) : '';
      if (kv && nk === 'port name') {
        counterPort = undefined;
        port = {
          name: kv.value,
          states: [],
          fields: {},
          src: sink.ref(line.no),
        };
        ports.push(port);
        if (kv.value === '') sink.warn(line.no, 'Port name without a value');
        else if (byName.has(kv.value.toLowerCase())) sink.warn(line.no, `port ${kv.value} listed twice`);
        byName.set(kv.value.toLowerCase(), port);
        continue;
      }

      if (counterPort !== undefined) {
        const d = DIRECTION.exec(body);
        if (d) {
          const [, word = ''] = d;
          dir = word.toLowerCase() as 'in' | 'out';
          continue;
        }
        if (!kv || counterPort === null) continue;
        const n = parseIntLoose(kv.value);
        if (n === undefined || !/^[\d,.]+$|^0x[0-9a-f]+$/i.test(kv.value)) {
          if (kv.value !== '') counterPort.fields[`counter: ${kv.key}`] = kv.value;
          continue;
        }
        counterPort.counters ??= { in: {}, out: {} };
        if (dir) counterPort.counters[dir][kv.key] = n;
        else counterPort.fields[`counter: ${kv.key}`] = kv.value;
        continue;
      }

      if (!port) {
        sink.warn(line.no, `text outside any port block: ${body.slice(0, 80)}`);
        continue;
      }
      if (!kv) {
        // `Port is enabled.`, `MAC Learning is disabled.`, `NIC is connected.`
        if (/\bis\b/i.test(body)) port.states.push(body);
        else port.fields[body] = '';
        continue;
      }
      applyField(port, kv.key, nk, kv.value, line.no, sink);
    } catch (e) {
      sink.error(line.no, `internal error: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (ports.length === 0 && contentLines > 0) sink.info(0, 'no /list-vmswitch-port block (Port name : ...) found');
}

/**
 * `<reason> : <value>` split at the first colon that follows a blank and is followed by a value — what
 * /^(.*?)[ \t]+:[ \t]*(\S.*)$/ matches, in one pass: that expression is quadratic in a long run of
 * blanks, which a hostile ports.txt has.
 */
function reasonAndValue(v: string): [string, string] | undefined {
  for (let i = v.indexOf(':'); i > 0; i = v.indexOf(':', i + 1)) {
    const before = v.charCodeAt(i - 1);
    if (before !== 32 && before !== 9) continue;
    let j = i + 1;
    while (j < v.length && (v.charCodeAt(j) === 32 || v.charCodeAt(j) === 9)) j++;
    if (j < v.length && !/\s/.test(v.charAt(j))) return [v.slice(0, i), v.slice(j)];
  }
  return undefined;
}

function applyField(port: VfpSwitchPort, key: string, nk: string, rawValue: string, line: number, sink: IssueSink): void {
  // `Port type:            : Synthetic` (seen in a fixture): the key carries its own colon.
  const value = rawValue.replace(/^:[ \t]*/, '');
  // `Ingress packet drops : <reason> : <n>`: keep the reason in the key.
  const third = !/^(port name|mac address|vm id|switch name)$/.test(nk) && /drops?$/.test(nk) ? reasonAndValue(value) : undefined;
  if (third) {
    port.fields[`${key} : ${third[0].trim()}`] = third[1].trim();
    return;
  }
  switch (nk) {
    case 'port friendly name':
      port.friendlyName = value;
      return;
    case 'switch name':
      port.switchName = value;
      return;
    case 'switch friendly name':
      port.switchFriendlyName = value;
      return;
    case 'portid':
    case 'port id': {
      const n = parseIntLoose(value);
      if (n !== undefined) port.portId = n;
      else sink.warn(line, `unreadable PortId: ${value}`);
      return;
    }
    case 'mac address':
    case 'mac':
      port.mac = normMac(value) ?? value;
      return;
    case 'port type':
      port.portType = value;
      return;
    case 'nic name':
      port.nicName = value;
      return;
    case 'nic friendly name':
      port.nicFriendlyName = value;
      return;
    case 'vm name':
      port.vmName = value;
      return;
    case 'vm id':
      port.vmId = value;
      return;
    case 'mtu': {
      const n = parseIntLoose(value);
      if (n !== undefined) port.mtu = n;
      else port.fields[key] = value;
      return;
    }
    default:
      port.fields[key] = key in port.fields && port.fields[key] !== '' ? `${port.fields[key]}; ${value}` : value;
  }
}
