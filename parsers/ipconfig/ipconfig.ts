// `ipconfig /all` and `ipconfig /allcompartments /all` text → compartments and adapters.

import type { ParseResult } from '../types.ts';
import { IssueSink } from '../types.ts';
import { isApipa, isIpv4, isIpv6, maskToPrefix, normalizeMac } from '../net/ip.ts';
import { isBannerLine, isBlank, splitLines } from '../ps/lines.ts';
import type { Field } from './labels.ts';
import { isDisconnectedState, isPreferredStatus, LANGUAGE_NAMES, lookupLabel, parseYesNo } from './labels.ts';
import { compartmentTitle, isAdapterHeader, isIpconfigTitle, parseAdapterHeader, splitKeyValue, splitStatus } from './layout.ts';
import type { Adapter, Compartment, IpconfigLanguage, IpconfigResult } from './types.ts';

export function parseIpconfig(text: string, file: string): ParseResult<IpconfigResult> {
  const lines = splitLines(typeof text === 'string' ? text : '');
  return parseIpconfigLines(lines, 0, lines.length, file);
}

/** Parses lines[from, to) (0-based); issues use 1-based line numbers of the whole file. */
export function parseIpconfigLines(lines: readonly string[], from: number, to: number, file: string): ParseResult<IpconfigResult> {
  const sink = new IssueSink(file);
  const st = new State(sink);
  for (let i = to - 1; i >= from; i--) {
    if (!isBlank(lines[i])) {
      st.lastLine = i;
      break;
    }
  }
  for (let i = from; i < to; i++) {
    try {
      st.line(lines, i);
    } catch (e) {
      // Defensive: one odd line must not lose the rest of the file.
      sink.error(i + 1, `internal error reading ipconfig line: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const language = st.finishLanguage();
  return { value: { compartments: st.compartments, language, endIndex: to }, issues: sink.issues };
}

const PROMPT = /^\s*(?:PS\s+)?[A-Za-z]:\\[^>\r\n]{0,260}>/;

type Continuation = (value: string, lineNo: number) => void;

class State {
  compartments: Compartment[] = [];
  comp: Compartment | null = null;
  adapter: Adapter | null = null;
  cont: Continuation | null = null;
  langVotes = new Map<string, number>();
  firstLangLine = new Map<string, number>();
  knownLabels = 0;
  kvLines = 0;
  firstKvLine = 0;
  unknownLabels = new Set<string>();
  /** 0-based index of the last non-blank line read: a paste cut there is said so. */
  lastLine = -1;

  constructor(readonly sink: IssueSink) {}

  line(lines: readonly string[], i: number): void {
    const raw = lines[i];
    const n = i + 1;
    if (raw === undefined || isBlank(raw)) { this.cont = null; return; }
    if (isBannerLine(raw)) { this.cont = null; return; }
    if (isIpconfigTitle(raw)) { this.cont = null; return; }

    const title = compartmentTitle(lines, i);
    if (title) { this.startCompartment(title.id, title.marker, raw.trim(), n); return; }

    if (isAdapterHeader(lines, i)) { this.startAdapter(raw, n); return; }

    // A label and its dotted leader without the colon and value: the line was cut (a paste that ends
    // there). It is no value continuing the key before it.
    const t = raw.trimEnd();
    if (!t.includes(':') && /\.\s?\.$/.test(t) && /\p{L}/u.test(t)) {
      this.cont = null;
      const label = t.replace(/[\s.]+$/, '').trim();
      if (i === this.lastLine) this.sink.info(n, `the text ends inside this line: "${label.slice(0, 60)}" without its value (the paste or the file was cut here)`);
      else this.sink.info(n, `ipconfig: "${label.slice(0, 60)}" without its value (the line is cut); skipped`);
      return;
    }

    const kv = splitKeyValue(raw);
    if (kv) { this.keyValue(kv.label, kv.value, n); return; }

    if (this.cont) { this.cont(raw.trim(), n); return; }
    // The command typed before the output (`PS C:\k> Get-NetIPInterface …`, `C:\>ipconfig /all`).
    if (PROMPT.test(raw)) { this.sink.info(n, `the command prompt line not read: "${raw.trim().slice(0, 80)}"`); return; }
    this.sink.info(n, `ipconfig: line not understood, skipped: "${raw.trim().slice(0, 80)}"`);
  }

  startCompartment(id: number, marker: string | undefined, title: string, n: number): void {
    this.cont = null;
    this.adapter = null;
    if (this.compartments.some((c) => c.id === id && !c.implicit)) this.sink.warn(n, `compartment ${id} appears twice`);
    // A plain `Windows IP Configuration` block with nothing in it before the first banner is not a compartment.
    const c0 = this.comp;
    if (c0 && c0.implicit && c0.adapters.length === 0 && c0.hostName === undefined && Object.keys(c0.extra).length === 0) {
      this.compartments.pop();
    }
    const comp: Compartment = { id, title, dnsSuffixSearchList: [], adapters: [], extra: {}, src: this.sink.ref(n) };
    if (marker !== undefined) comp.active = true;
    this.compartments.push(comp);
    this.comp = comp;
  }

  ensureCompartment(n: number): Compartment {
    if (this.comp) return this.comp;
    const comp: Compartment = { id: 1, implicit: true, dnsSuffixSearchList: [], adapters: [], extra: {}, src: this.sink.ref(n) };
    this.compartments.push(comp);
    this.comp = comp;
    return comp;
  }

  startAdapter(raw: string, n: number): void {
    const comp = this.ensureCompartment(n);
    const { kind, name, header } = parseAdapterHeader(raw);
    const a: Adapter = { kind, name, header, ipv4: [], ipv6: [], gateways: [], dnsServers: [], dnsSuffixSearchList: [], extra: {}, src: this.sink.ref(n) };
    comp.adapters.push(a);
    this.adapter = a;
    this.cont = null;
  }

  vote(langs: string[], n: number): void {
    for (const l of langs) {
      this.langVotes.set(l, (this.langVotes.get(l) ?? 0) + 1);
      if (!this.firstLangLine.has(l)) this.firstLangLine.set(l, n);
    }
  }

  keyValue(label: string, value: string, n: number): void {
    this.kvLines++;
    if (this.firstKvLine === 0) this.firstKvLine = n;
    const comp = this.ensureCompartment(n);
    const hit = lookupLabel(label);
    if (hit) { this.knownLabels++; this.vote(hit.langs, n); }
    const field: Field | null = hit ? hit.field : null;
    const a = this.adapter;
    this.cont = null;

    if (!a) {
      switch (field) {
        case 'hostName': comp.hostName = value; return;
        case 'primaryDnsSuffix': comp.primaryDnsSuffix = value; return;
        case 'nodeType': comp.nodeType = value; return;
        case 'ipRoutingEnabled': comp.ipRoutingEnabled = this.yesNo(value, label, comp.extra, n); return;
        case 'winsProxyEnabled': comp.winsProxyEnabled = this.yesNo(value, label, comp.extra, n); return;
        case 'dnsSuffixSearchList': this.listField(comp.dnsSuffixSearchList, value); return;
        default:
          if (!hit) this.unknown(label, n);
          this.extraField(comp.extra, label, value);
          return;
      }
    }

    switch (field) {
      case 'dnsSuffix': a.dnsSuffix = value; return;
      case 'dnsSuffixSearchList': this.listField(a.dnsSuffixSearchList, value); return;
      case 'mediaState': a.mediaState = value; a.mediaDisconnected = isDisconnectedState(value); return;
      case 'description': a.description = value; this.cont = (v) => { a.description = `${a.description} ${v}`; }; return;
      case 'mac': {
        const mac = normalizeMac(value, { long: true });
        if (mac) a.mac = mac;
        else if (value !== '') { this.sink.warn(n, `physical address "${value}" is not a MAC address`); a.extra[label] = value; }
        return;
      }
      case 'dhcpEnabled': a.dhcpEnabled = this.yesNo(value, label, a.extra, n); return;
      case 'autoconfig': a.autoconfig = this.yesNo(value, label, a.extra, n); return;
      case 'ipv4': case 'ipv4Auto': case 'ipv6': case 'ipv6Temp': case 'ipv6LinkLocal':
        this.address(a, field, label, value, n);
        this.cont = (v, ln) => this.address(a, field, label, v, ln);
        return;
      case 'mask': this.mask(a, label, value, n); return;
      case 'gateways': this.listField(a.gateways, value, true); return;
      case 'dnsServers': this.listField(a.dnsServers, value, true); return;
      case 'netbios': a.netbios = value; return;
      case 'hostName': case 'primaryDnsSuffix': case 'nodeType': case 'ipRoutingEnabled': case 'winsProxyEnabled':
        this.sink.warn(n, `"${label}" inside adapter "${a.name}": expected in the global block; kept in extra`);
        this.extraField(a.extra, label, value);
        return;
      default:
        if (!hit) {
          this.unknown(label, n);
          this.byShape(a, label, value, n);
        }
        this.extraField(a.extra, label, value);
    }
  }

  yesNo(value: string, label: string, extra: Record<string, string>, n: number): boolean | undefined {
    const b = parseYesNo(value);
    if (b === undefined && value !== '') { extra[label] = value; this.sink.info(n, `"${label}": value "${value}" is not yes/no`); }
    return b;
  }

  listField(target: string[], value: string, stripStatus = false): void {
    const add = (v: string) => {
      const t = stripStatus ? splitStatus(v).address : v.trim();
      if (t !== '') target.push(t);
    };
    add(value);
    this.cont = (v) => add(v);
  }

  extraField(extra: Record<string, string>, label: string, value: string): void {
    let key = label;
    for (let k = 2; key in extra; k++) key = `${label} #${k}`;
    extra[key] = value;
    this.cont = (v) => { extra[key] = extra[key] === '' ? v : `${extra[key]} ${v}`; };
  }

  unknown(label: string, n: number): void {
    if (this.unknownLabels.has(label)) return;
    this.unknownLabels.add(label);
    this.sink.info(n, `ipconfig: unknown label "${label}" kept in extra`);
  }

  address(a: Adapter, field: Field, label: string, value: string, n: number): void {
    if (value === '') return;
    const { address, status } = splitStatus(value);
    const preferred = status === undefined ? undefined : isPreferredStatus(status);
    if (isIpv4(address)) {
      const auto = field === 'ipv4Auto';
      a.ipv4.push({ address, ...(preferred !== undefined ? { preferred } : {}), ...(status !== undefined ? { status } : {}), autoconfigured: auto, apipa: isApipa(address), src: this.sink.ref(n) });
      return;
    }
    const zm = /^(.*?)%([^%\s]*)$/.exec(address);
    const bare = zm?.[1] ?? address;
    const zone = zm?.[2];
    if (isIpv6(bare) || /^[0-9a-f]{1,4}(:[0-9a-f]{0,4}){1,7}$/i.test(bare)) {
      // Pasted copies damage IPv6 text (lost '::'), so a near-IPv6 shape is accepted as printed.
      a.ipv6.push({
        address: bare,
        ...(zone ? { zone } : {}),
        ...(preferred !== undefined ? { preferred } : {}),
        ...(status !== undefined ? { status } : {}),
        linkLocal: field === 'ipv6LinkLocal' || /^fe[89ab][0-9a-f]:/i.test(bare),
        temporary: field === 'ipv6Temp',
        src: this.sink.ref(n),
      });
      return;
    }
    this.sink.warn(n, `"${label}": "${value}" is not an IP address; kept in extra`);
    this.extraField(a.extra, label, value);
  }

  mask(a: Adapter, label: string, value: string, n: number): void {
    const target = [...a.ipv4].reverse().find((e) => e.mask === undefined);
    if (!target) {
      this.sink.warn(n, `subnet mask "${value}" without a preceding IPv4 address; kept in extra`);
      this.extraField(a.extra, label, value);
      return;
    }
    target.mask = value;
    const p = maskToPrefix(value);
    if (p !== null) target.prefixLength = p;
    else this.sink.warn(n, `subnet mask "${value}" is not a valid contiguous mask`);
  }

  /** Unknown label: recognise addresses with a status suffix, masks and MACs by their shape. */
  byShape(a: Adapter, label: string, value: string, n: number): void {
    const { address, status } = splitStatus(value);
    if (status !== undefined && (isIpv4(address) || isIpv6(address.replace(/%.*$/, '')))) {
      this.address(a, 'ipv4', label, value, n);
      this.cont = null;
      return;
    }
    const last = a.ipv4[a.ipv4.length - 1];
    if (last && last.mask === undefined && isIpv4(value) && /^255\./.test(value) && maskToPrefix(value) !== null) {
      this.mask(a, label, value, n);
      return;
    }
    if (a.mac === undefined) {
      const mac = normalizeMac(value, { long: true });
      if (mac && /^[0-9a-f]{2}-/i.test(value)) a.mac = mac;
    }
  }

  finishLanguage(): IpconfigLanguage {
    if (this.kvLines === 0) return 'unknown';
    let best: IpconfigLanguage = 'unknown';
    let bestVotes = 0;
    for (const lang of ['en', 'de', 'fr', 'es', 'zh', 'ja'] as const) {
      const v = this.langVotes.get(lang) ?? 0;
      if (v > bestVotes) { best = lang; bestVotes = v; }
    }
    if (best === 'unknown') {
      this.sink.info(this.firstKvLine, 'ipconfig labels not recognised (unknown language): values were read by their shape only');
    } else if (best !== 'en') {
      this.sink.info(this.firstLangLine.get(best) ?? this.firstKvLine, `ipconfig output language: ${LANGUAGE_NAMES[best]} (${best}); labels mapped by translation`);
    }
    return best;
  }
}
