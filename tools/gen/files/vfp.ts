// ports.txt (`vfpctrl /list-vmswitch-port` + per-port `/get-port-counter`) and vfpOutput.txt
// (dumpVfpPolicies.ps1: a `Port name / Mac Address / PortId` table, then per port the six vfpctrl
// outputs). Both are produced as LF text chunks; vfpOutput.txt is the big one (hundreds of MB for a
// 250-pod node), so rule text is rendered once per shared rule object and emitted in ~1 MB chunks.

import { psTable } from '../psformat.ts';
import type { GeneratedNode, VfpGroup, VfpLayer, VfpPort, VfpRule } from '../types.ts';

const HEADER = '\n ITEM LIST\n ===========\n\n';
const done = (verb: string) => `Command ${verb} succeeded!\n`;
const SP = ' '.repeat(64);

export function ruleText(r: VfpRule): string {
  if (r.text !== undefined) return r.text;
  let s = r.id ? `    RULE : ${r.id}\n` : '    RULE :\n';
  if (r.friendlyName) s += `        Friendly name : ${r.friendlyName}\n`;
  s += `        Priority : ${r.priority}\n        Flags : ${r.flags} \n        Type : ${r.type}\n        Conditions:\n`;
  if (r.conditions.length === 0) s += '            <none>\n';
  else for (const c of r.conditions) s += `            ${c}\n`;
  s += `        Flow TTL: ${r.ttl}\n`;
  for (const b of r.body) s += SP.slice(0, 8 + b.indent) + b.text + '\n';
  s += '        FlagsEx : 0 \n';
  r.text = s;
  return s;
}

export function groupText(g: VfpGroup): string {
  return (
    `  GROUP : ${g.name}\n      Friendly name : ${g.name}\n      Priority : ${g.priority}\n      Direction : ${g.direction}\n      Type : ${g.type}\n` +
    `        Conditions:\n            <none>\n      Match type : ${g.matchType}\n\n`
  );
}

export function layerText(l: VfpLayer): string {
  return `LAYER : ${l.name}\n    Friendly name : ${l.name}\n${l.flags ? `    Flags : ${l.flags}\n` : ''}    Priority : ${l.priority}\n\n`;
}

const ZERO_COUNTERS = '        Matched packets : 0\n        Dropped packets : 0\n        Pending packets : 0\n        Dropped unified flows : 0\n';

/** Deterministic, mostly-zero rule counters for /get-rule-counter (cheap: no PRNG state per rule). */
function counters(portNo: number, ruleNo: number): string {
  let h = Math.imul(portNo + 1, 0x9e3779b1) ^ Math.imul(ruleNo + 7, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0xc2b2ae35) >>> 0;
  if (h % 11 !== 0) return ZERO_COUNTERS;
  const matched = (h >>> 8) % 20000;
  return `        Matched packets : ${matched}\n        Dropped packets : ${h % 13 === 0 ? (h >>> 4) % 50 : 0}\n        Pending packets : 0\n        Dropped unified flows : 0\n`;
}

function portCounterText(port: VfpPort): string {
  let h = (port.portId * 2654435761) >>> 0;
  const n = () => {
    h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) >>> 0;
    return h;
  };
  const dir = (d: string) => {
    const pk = n() % 5_000_000;
    const vals: [string, number][] = [
      ['Total packets', pk],
      ['Total bytes', pk * 412 + (n() % 1000)],
      ['SYN packets', n() % 40000],
      ['SYN-ACK packets', n() % 40000],
      ['FIN packets', n() % 30000],
      ['RST packets', n() % 900],
      ['TCP Connections Verified', n() % 40000],
      ['TCP Connections Timed Out', n() % 200],
      ['TCP Connections Reset', n() % 900],
      ['TCP Connections Reset by SYN', 0],
      ['TCP Connections Closed by FIN', n() % 30000],
      ['TCP Half Open Timeouts', n() % 50],
      ['Dropped Packets', port.blocked ? pk : n() % 20],
    ];
    return `Direction - ${d}\n` + vals.map(([k, v]) => `    ${k} : ${v}\n`).join('');
  };
  return HEADER + dir('OUT') + '\n' + dir('IN') + '\n' + done('get-port-counter');
}

function vmswitchPortBlock(p: VfpPort): string {
  const k = (key: string, v: string | number) => `${key.padEnd(22)}: ${v}\n`;
  const type = p.kind === 'external' ? 'External' : p.kind === 'host' ? 'Internal' : 'Synthetic';
  return (
    k('Port name', p.name) +
    k('Port Friendly name', p.friendlyName) +
    k('Switch name', p.switchName) +
    k('Switch Friendly name', p.switchFriendlyName) +
    k('PortId', p.portId) +
    k('VMQ Weight', 100) +
    k('VMQ Usage', 0) +
    k('SR-IOV Weight', 0) +
    k('SR-IOV Usage', 0) +
    k('Port type:', type) +
    'Port is Initialized.\n' +
    'MAC Learning is Disabled.\n' +
    'NIC is connected.\n' +
    k('NIC name', p.nicName) +
    k('NIC Friendly name', p.nicFriendlyName) +
    k('MTU', p.mtu) +
    k('MAC address', p.mac) +
    k('VM name', p.vmName) +
    k('VM ID', p.vmId) +
    k('Bytes Sent', (p.portId * 7919 * 4121) % 900_000_000) +
    k('Bytes Received', (p.portId * 104729 * 811) % 900_000_000) +
    k('Ingress Packet Drops', 0) +
    k('Egress Packet Drops', 0) +
    k('Ingress VFP Drops', p.blocked ? 1311 : 0) +
    k('Egress VFP Drops', 0) +
    '\n'
  );
}

export function* portsTxt(node: GeneratedNode): Generator<string> {
  let s = HEADER;
  for (const p of node.vfpPorts) s += vmswitchPortBlock(p);
  s += done('list-vmswitch-port');
  yield s;
  for (const p of node.vfpPorts) yield `Get-port-counter for port:  ${p.name}\n` + portCounterText(p);
}

function portStateText(p: VfpPort): string {
  const b = (v: boolean) => (v ? 'TRUE' : 'FALSE');
  return (
    HEADER +
    'Port State\n' +
    `    Enabled : TRUE\n    Blocked : ${b(p.blocked)}\n    BlockOnRestore : FALSE\n    BlockLayerCreation : FALSE\n    PreserveVlan : FALSE\n` +
    `    IsVmContextSet : TRUE\n    VmqEnabled : ${b(p.kind === 'external')}\n    SriovEnabled : FALSE\n    OffloadState : 0\n` +
    '    QosHardwareReservationsEnabled : FALSE\n    QosHardwareCapsEnabled : FALSE\n    GftOffloadEnabled : FALSE\n\n' +
    done('get-port-state')
  );
}

function flowStatsText(p: VfpPort, rules: number): string {
  const flows = rules === 0 ? 0 : (p.portId * 37) % 400;
  return (
    HEADER +
    'Flow Stats\n' +
    `    Total flows : ${flows}\n    Total unified flows : ${flows}\n    Inbound flows : ${Math.floor(flows / 3)}\n    Outbound flows : ${flows - Math.floor(flows / 3)}\n` +
    `    Flows pending deletion : 0\n    Flow limit : 0\n\n` +
    done('get-flow-stats')
  );
}

const CHUNK = 1 << 20;

export function* vfpOutputTxt(node: GeneratedNode): Generator<string> {
  const withCounters = node.spec.vfpGeneration === 'get-rule-counter';
  const verb = withCounters ? 'get-rule-counter' : 'list-rule';
  yield psTable(
    ['Port name', 'Mac Address', 'PortId'],
    node.vfpPorts.map((p) => [p.name, p.mac, String(p.portId)]),
  );
  let buf = '';
  for (let pi = 0; pi < node.vfpPorts.length; pi++) {
    const p = node.vfpPorts[pi];
    buf += `Policy for port : \n${p.name}\n`;
    buf += HEADER + done('list-space');
    buf += HEADER + done('list-mapping');
    buf += HEADER;
    let ruleNo = 0;
    for (const l of p.layers) {
      buf += layerText(l);
      for (const g of l.groups) {
        buf += groupText(g);
        for (const r of g.rules) {
          buf += ruleText(r);
          if (withCounters) buf += counters(pi, ruleNo);
          buf += '\n';
          ruleNo++;
          if (buf.length >= CHUNK) {
            yield buf;
            buf = '';
          }
        }
      }
    }
    buf += done(verb);
    buf += portStateText(p);
    buf += HEADER + done('list-nat-range');
    buf += flowStatsText(p, ruleNo);
  }
  yield buf;
}
