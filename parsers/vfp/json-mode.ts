// `vfpctrl ... /format 1` JSON (never written by collectlogs; used by wcnscripts/AKSTestScripts helpers)
// mapped onto the text model. The field names come from scripts that read this JSON (reference §5.2);
// numeric encodings (rule Type numbers, IPv4 range byte order) are unverified, so raw values are kept
// in `extra` next to the interpretation.
import { IssueSink } from '../types.ts';
import type { ParseResult } from '../types.ts';
import { makeCondition } from './conditions.ts';
import { normalizeMac as normMac } from '../net/mac.ts';
import { uintToIpv4 } from '../net/ip.ts';
import { readJsonInt } from '../text/numbers.ts';
import type { NumRange, VfpCondition, VfpGroup, VfpLayer, VfpPortPolicy, VfpRule, VfpSwitchPort } from './types.ts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** Case-insensitive property read (the scripts use both `Id` and `ID`). */
function get(o: Obj, ...names: string[]): unknown {
  for (const n of names) if (n in o) return o[n];
  const keys = Object.keys(o);
  for (const n of names) {
    const k = keys.find((x) => x.toLowerCase() === n.toLowerCase());
    if (k !== undefined) return o[k];
  }
  return undefined;
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
/** A whole number (parsers/text/numbers.ts): `1e309`, `-0`, `1.5` and `"1e3"` are refused, not read. */
const num = (v: unknown): number | undefined => readJsonInt(v, WHOLE)?.value;
const WHOLE = { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

/** Lines of the first occurrence of `"value"`: an approximate src for objects inside JSON. */
function lineOf(text: string, needle: string): number {
  if (needle === '') return 1;
  const i = text.indexOf(JSON.stringify(needle));
  if (i < 0) return 1;
  let n = 1;
  for (let k = text.indexOf('\n'); k >= 0 && k < i; k = text.indexOf('\n', k + 1)) n++;
  return n;
}

function parseJson(text: string, sink: IssueSink): unknown {
  const t = (typeof text === 'string' ? text : '').replace(/^\uFEFF/, '');
  const start = t.search(/[[{]/);
  if (start < 0) {
    sink.info(0, 'no JSON document found');
    return undefined;
  }
  try {
    return JSON.parse(t.slice(start));
  } catch (e) {
    sink.error(0, `invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

function rangeList(v: unknown): NumRange[] {
  const out: NumRange[] = [];
  for (const r of arr(v)) {
    if (!isObj(r)) continue;
    const lo = num(get(r, 'L', 'Low')), hi = num(get(r, 'H', 'High'));
    if (lo !== undefined && hi !== undefined) out.push({ lo, hi });
  }
  return out;
}

function condition(c: Obj): VfpCondition {
  const t = num(get(c, 'ConditionType'));
  const protocols = get(c, 'ProtocolList');
  const dports = get(c, 'DestinationPortList');
  const v4 = get(c, 'DestinationIPv4RangeList');
  if (t === 1 || protocols !== undefined) return makeCondition('Protocols', arr(protocols).map(str).join(', '));
  if (t === 5 || dports !== undefined) {
    const ports = arr(dports).map((p) => (isObj(p) ? `${str(get(p, 'L'))}-${str(get(p, 'H'))}` : str(p)));
    return makeCondition('Destination ports', ports.join(', '));
  }
  if (t === 11 || v4 !== undefined) {
    const ranges = rangeList(v4);
    const value = ranges.map((r) => `${uintToIpv4(r.lo)}-${uintToIpv4(r.hi)}`).join(', ');
    return { key: 'Destination IP', value, kind: 'dstIp', ipRanges: ranges };
  }
  if (t === 13) return { key: 'Destination IPv6', value: str(get(c, 'DestinationIPv6RangeList')), kind: 'dstIp' };
  return { key: `ConditionType ${str(t)}`, value: JSON.stringify(c), kind: 'other' };
}

/** ETW rule-type enum order (microsoft/SDN etl_vfpext.npl); whether JSON uses it is unverified. */
const RULE_TYPES = ['none', 'allow', 'block', 'meter', 'nat', 'dynamicnat', 'decap', 'mapout', 'mapin', 'mapencap', 'mapdecap', 'mapipout', 'mapipin', 'mapmacout', 'mapmacin', 'profile', 'redirect', 'routeencap', 'tunnelednat', 'qos', 'transposition', 'paroute'];

/** A rule's priority; one that is no whole number is refused with a warning (read as another, it reorders the rules). */
function priorityOf(o: Obj, text: string, sink: IssueSink): number | undefined {
  const r = readJsonInt(get(o, 'Priority'), WHOLE);
  if (r?.problem) sink.warn(lineOf(text, str(get(o, 'Id', 'ID')) || str(get(o, 'Name'))), `rule priority ${r.problem}; the value is not read`);
  return r?.value;
}

function rule(o: Obj, text: string, sink: IssueSink): VfpRule {
  const id = str(get(o, 'Id', 'ID'));
  const name = str(get(o, 'Name'));
  const rawType = get(o, 'Type');
  const extra: Record<string, string> = {};
  let type = typeof rawType === 'string' ? rawType.toLowerCase() : '';
  if (typeof rawType === 'number') {
    type = RULE_TYPES[rawType] ?? String(rawType);
    extra['Type (raw)'] = String(rawType);
  }
  for (const k of ['SubType', '$type']) if (get(o, k) !== undefined) extra[k] = str(get(o, k));
  const flags = num(get(o, 'RuleFlags', 'Flags')) ?? 0;
  const r: VfpRule = {
    id,
    name: name || id,
    priority: priorityOf(o, text, sink),
    flags,
    flagNames: [],
    terminating: (flags & 1) !== 0,
    stateful: (flags & 2) !== 0,
    type,
    conditions: arr(get(o, 'Conditions')).filter(isObj).map(condition),
    ruleData: [],
    dipRanges: [],
    encapDestinations: [],
    modify: {},
    extra,
    src: sink.ref(lineOf(text, id || name)),
  };
  if (name) r.friendlyName = name;
  const info = arr(get(o, 'InformationArray')).find((x) => isObj(x) && isObj(get(x, 'RuleCounters')));
  if (isObj(info)) {
    const c = get(info, 'RuleCounters') as Obj;
    r.counters = {
      matchedPackets: num(get(c, 'MatchedPackets')),
      droppedPackets: num(get(c, 'DroppedPackets')),
      pendingPackets: num(get(c, 'PendingPackets')),
      droppedFlows: num(get(c, 'DroppedFlows')),
    };
  }
  return r;
}

function group(o: Obj, text: string, sink: IssueSink): VfpGroup {
  const id = str(get(o, 'Name', 'Id', 'ID'));
  const dir = get(o, 'Direction');
  return {
    id,
    priority: num(get(o, 'Priority')),
    direction: dir === 0 ? 'OUT' : dir === 1 ? 'IN' : str(dir).toUpperCase(),
    ipVersion: '',
    conditions: arr(get(o, 'Conditions')).filter(isObj).map(condition),
    matchType: 'unknown',
    matchTypeText: '',
    rules: arr(get(o, 'Rules')).filter(isObj).map((r) => rule(r, text, sink)),
    extra: dir === undefined ? {} : { 'Direction (raw)': str(dir) },
    src: sink.ref(lineOf(text, id)),
  };
}

/** `/list-layer`, `/list-group`, `/list-rule` or `/get-rule-counter` with `/format 1`, for one port. */
export function parseVfpRuleJson(text: string, file: string, portName = ''): ParseResult<VfpPortPolicy> {
  const sink = new IssueSink(file);
  const port: VfpPortPolicy = { portName, layers: [], portState: {}, natRanges: [], sections: [], flowStats: {}, otherSections: [], src: sink.ref(1) };
  try {
    const doc = parseJson(text, sink);
    if (isObj(doc)) {
      const layers = get(doc, 'Layers');
      const groups = get(doc, 'Groups');
      const rules = get(doc, 'Rules');
      for (const l of arr(layers).filter(isObj)) {
        const id = str(get(l, 'Name', 'Id', 'ID'));
        const layer: VfpLayer = {
          id,
          priority: num(get(l, 'Priority')),
          groups: arr(get(l, 'Groups')).filter(isObj).map((g) => group(g, text, sink)),
          extra: {},
          src: sink.ref(lineOf(text, id)),
        };
        port.layers.push(layer);
      }
      if (layers === undefined && (groups !== undefined || rules !== undefined)) {
        const layer: VfpLayer = { id: '', groups: [], extra: {}, synthetic: true, src: sink.ref(1) };
        if (groups !== undefined) layer.groups = arr(groups).filter(isObj).map((g) => group(g, text, sink));
        else {
          const g = group({}, text, sink);
          g.synthetic = true;
          g.rules = arr(rules).filter(isObj).map((r) => rule(r, text, sink));
          layer.groups.push(g);
        }
        port.layers.push(layer);
        sink.info(1, 'JSON without Layers (filtered output): kept in a synthetic layer');
      }
      if (layers === undefined && groups === undefined && rules === undefined) sink.warn(1, 'JSON has no Layers, Groups or Rules');
    } else if (doc !== undefined) sink.warn(1, 'expected a JSON object with Layers/Groups/Rules');
  } catch (e) {
    sink.error(0, `internal error while reading VFP JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { value: port, issues: sink.issues };
}

/** `/list-vmswitch-port /format 1`: `.Ports[]` with Name (GUID), Id (friendly name), VmsPortId, MacAddress. */
export function parseVmSwitchPortsJson(text: string, file: string): ParseResult<VfpSwitchPort[]> {
  const sink = new IssueSink(file);
  const out: VfpSwitchPort[] = [];
  try {
    const doc = parseJson(text, sink);
    const ports = isObj(doc) ? get(doc, 'Ports') : undefined;
    if (doc !== undefined && ports === undefined) sink.warn(1, 'JSON has no Ports array');
    for (const p of arr(ports).filter(isObj)) {
      const name = str(get(p, 'Name'));
      const sp: VfpSwitchPort = { name, states: [], fields: {}, src: sink.ref(lineOf(text, name)) };
      const id = get(p, 'Id');
      if (id !== undefined) sp.friendlyName = str(id);
      const mac = get(p, 'MacAddress');
      if (mac !== undefined) sp.mac = normMac(str(mac)) ?? str(mac);
      const vms = num(get(p, 'VmsPortId'));
      if (vms !== undefined) sp.portId = vms;
      for (const [k, v] of Object.entries(p)) if (!['Name', 'Id', 'MacAddress', 'VmsPortId'].includes(k)) sp.fields[k] = str(v);
      out.push(sp);
    }
  } catch (e) {
    sink.error(0, `internal error while reading vmswitch port JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { value: out, issues: sink.issues };
}
