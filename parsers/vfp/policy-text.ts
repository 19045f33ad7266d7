// Detailed parser of vfpctrl policy text: a whole vfpOutput.txt, one port's /list-rule or
// /get-rule-counter, filtered output (/layer → starts at GROUP, /layer /group → starts at RULE),
// Get-NetView VfpCtrl.PortGuid.<guid>.txt transcripts. Blocks are recognised by their upper-case keyword
// at the first non-blank character, never by indentation, because copies in the wild (the seed guide)
// lost their indentation. Indentation is only used as a hint to end a sub-block early.
import { IssueSink } from '../types.ts';
import type { ParseResult } from '../types.ts';
import { makeCondition } from './conditions.ts';
import { refuseAt } from './refusals.ts';
import { parseDipRange, parseEncapDestinations, parseFlags } from './rule-values.ts';
import { Could, couldMatch, fastIntLoose, fastVfpInt, keyInfo, ruleFlagsOf } from './policy-text-lookups.ts';
import type { KeyInfo } from './policy-text-lookups.ts';
import {
  isHeaderLine,
  isPortNameLine,
  isWhoLine,
  matchBlocked,
  matchKeyword,
  matchPortBoundary,
  matchPrompt,
  matchTrailer,
  splitKeyValue,
  toLines,
} from './text-lines.ts';
import { RULE_BLOCK_END, GROUP_KEYS, natPoolIn, addExtra } from './policy-text-keys.ts';
import type { SubBlock, OpenSection } from './policy-text-keys.ts';
import type { KeyValue, Line, PromptInfo } from './text-lines.ts';
import type { VfpCondition, VfpGroup, VfpLayer, VfpPortPolicy, VfpRule } from './types.ts';
import { plural } from '../text/quantities.ts';
import { emptyGroup, emptyRule } from './policy-blocks.ts';

export interface VfpTextOptions {
  /** Added to every line number (the text is a slice of a bigger file). */
  lineOffset?: number;
  /** Name for a port the text does not name (single-port output, Get-NetView per-port file). */
  defaultPortName?: string;
}


export function parseVfpRuleText(text: string, file: string, opts: VfpTextOptions = {}): ParseResult<VfpPortPolicy[]> {
  const sink = new IssueSink(file);
  const ports: VfpPortPolicy[] = [];
  try {
    new PolicyTextParser(sink, ports, opts).run(typeof text === 'string' ? text : '');
  } catch (e) {
    sink.error(0, `internal error while reading VFP text: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { value: ports, issues: sink.issues };
}

const isGroupKey = (k: KeyInfo): boolean => GROUP_KEYS.has(k.nk);
const isRuleField = (k: KeyInfo): boolean => k.ruleField;

class PolicyTextParser {
  private port: VfpPortPolicy | undefined;
  private layer: VfpLayer | undefined;
  private group: VfpGroup | undefined;
  private rule: VfpRule | undefined;
  private target: 'layer' | 'group' | 'rule' | undefined;
  private sub: SubBlock | undefined;
  private section: OpenSection | undefined;
  private orphans: OpenSection[] = [];
  private awaitingName: Line | undefined;
  private prompt: PromptInfo | undefined;
  private dipExpected: number | undefined;
  private at = 0; // the line being read, where a refused number is reported
  private lastLine = 0;
  private kv: KeyValue | undefined; // the line's `Key : value`, and what its key means (read once a line)
  private ki: KeyInfo | undefined;

  constructor(
    private readonly sink: IssueSink,
    private readonly ports: VfpPortPolicy[],
    private readonly opts: VfpTextOptions,
  ) {}

  run(text: string): void {
    const lines = toLines(text, this.opts.lineOffset ?? 0);
    let contentLines = 0;
    for (const line of lines) {
      this.lastLine = line.no;
      if (line.body === '') {
        // Sub-blocks never contain blank lines; a blank ends them (rules are blank-separated).
        this.sub = undefined;
        continue;
      }
      contentLines++;
      try {
        this.line(line);
      } catch (e) {
        this.sink.error(line.no, `internal error: ${e instanceof Error ? e.message : String(e)}`);
        this.sub = undefined;
      }
    }
    this.finish(contentLines);
  }

  private line(line: Line): void {
    this.at = line.no;
    const body = line.body;
    const could = couldMatch(body);
    const kw = could & Could.Keyword ? matchKeyword(body) : undefined;
    const boundary = kw || !(could & Could.Boundary) ? undefined : matchPortBoundary(body);
    const blocked = kw || boundary !== undefined || !(could & Could.Blocked) ? undefined : matchBlocked(body);

    if (this.awaitingName) {
      const at = this.awaitingName;
      this.awaitingName = undefined;
      if (!kw && boundary === undefined && !blocked && isPortNameLine(body)) {
        if (this.port) this.port.portName = body;
        return;
      }
      this.sink.warn(at.no, 'Policy for port: the port GUID is missing on this line and the next');
    }

    if (boundary !== undefined) {
      this.closePolicy();
      this.closeSection();
      this.port = this.newPort(boundary, line.no, false);
      if (boundary === '') this.awaitingName = line;
      return;
    }
    if (kw) {
      this.keyword(kw.kw, kw.rest, line);
      return;
    }
    if (blocked) {
      this.ensurePort(line.no);
      this.closePolicy();
      if (blocked.value === undefined) this.sink.warn(line.no, `unreadable Blocked value: ${body}`);
      else this.port!.blocked = blocked.value;
      this.loose(line);
      return;
    }
    if (could & Could.Error && /^error\b/i.test(body)) {
      this.sink.warn(line.no, `vfpctrl reported: ${body}`);
      return;
    }
    const verb = could & Could.Trailer ? matchTrailer(body) : undefined;
    if (verb !== undefined) {
      this.closePolicy();
      this.closeSection(verb, line.no);
      return;
    }
    const prompt = could & Could.Prompt ? matchPrompt(body) : undefined;
    if (prompt) {
      this.closePolicy();
      this.closeSection();
      this.prompt = prompt;
      this.section = { command: prompt.verb, line: line.no, lines: [] };
      return;
    }
    if (could & Could.Who && isWhoLine(body)) return;
    if (could & Could.Header && isHeaderLine(body)) {
      if (body.startsWith('=')) return;
      this.closePolicy();
      if (this.section && this.section.lines.length > 0) this.closeSection();
      if (!this.section) this.section = { command: '', line: line.no, lines: [] };
      return;
    }
    if (this.target) {
      const kv = splitKeyValue(body);
      this.kv = kv;
      this.ki = kv && keyInfo(kv.key);
      if (this.ki?.portState) {
        this.closePolicy();
        this.loose(line);
        return;
      }
      if (this.target === 'rule') this.ruleLine(line, kv);
      else if (this.target === 'group') this.groupLine(line, kv);
      else this.layerLine(kv, body);
      return;
    }
    this.loose(line);
  }

  // ---- ports and sections ------------------------------------------------------------------------

  private newPort(name: string, line: number, implicit: boolean): VfpPortPolicy {
    const p: VfpPortPolicy = {
      portName: name,
      layers: [],
      portState: {},
      natRanges: [],
      sections: [],
      flowStats: {},
      otherSections: [],
      src: this.sink.ref(line),
    };
    if (implicit) p.implicit = true;
    this.ports.push(p);
    return p;
  }

  private ensurePort(line: number): void {
    if (this.port) return;
    const name = this.opts.defaultPortName ?? this.prompt?.port ?? '';
    this.port = this.newPort(name, line, true);
    for (const s of this.orphans) this.applySection(s);
    this.orphans = [];
  }

  private loose(line: Line): void {
    if (!this.section) this.section = { command: '', line: line.no, lines: [] };
    this.section.lines.push(line);
  }

  private closeSection(trailerVerb?: string, trailerLine?: number): void {
    const s = this.section ?? (trailerVerb ? { command: '', line: trailerLine ?? this.lastLine, lines: [] } : undefined);
    this.section = undefined;
    if (!s) return;
    if (trailerVerb) s.command = trailerVerb;
    if (!this.port) {
      if (s.command !== '' || s.lines.length > 0) this.orphans.push(s);
      return;
    }
    this.applySection(s);
  }

  private applySection(s: OpenSection): void {
    const port = this.port!;
    if (s.command !== '') port.sections.push({ command: s.command, line: s.line });
    if (s.lines.length === 0) return;
    const kvs = s.lines.map((l) => ({ line: l, kv: splitKeyValue(l.body) }));
    const looksLikeState = kvs.some((x) => x.kv && keyInfo(x.kv.key).portState);
    const cmd = s.command;
    if (cmd === 'get-port-state' || (cmd === '' && looksLikeState)) {
      for (const { kv } of kvs) if (kv && kv.value !== '') port.portState[kv.key] = kv.value;
    } else if (cmd === 'list-nat-range') {
      for (const l of s.lines) port.natRanges.push(l.body);
    } else if (cmd === 'get-flow-stats') {
      for (const { kv, line } of kvs) {
        if (kv) {
          if (kv.value !== '') port.flowStats[kv.key] = kv.value;
        } else port.flowStats[line.body] = '';
      }
    } else {
      port.otherSections.push({ command: cmd, line: s.line, lines: s.lines.map((l) => l.body) });
    }
  }

  // ---- policy blocks -----------------------------------------------------------------------------

  private keyword(kw: 'LAYER' | 'GROUP' | 'RULE', rest: string, line: Line): void {
    this.ensurePort(line.no);
    this.finishRule();
    this.sub = undefined;
    const port = this.port!;
    if (kw === 'LAYER') {
      this.layer = { id: rest, groups: [], extra: {}, src: this.sink.ref(line.no) };
      port.layers.push(this.layer);
      this.group = undefined;
      this.target = 'layer';
      return;
    }
    if (!this.layer) this.layer = this.syntheticLayer(line.no);
    if (kw === 'GROUP') {
      this.group = this.newGroup(rest, line.no);
      this.layer.groups.push(this.group);
      this.target = 'group';
      return;
    }
    if (!this.group) {
      this.group = this.newGroup(this.prompt?.group ?? '', line.no);
      this.group.synthetic = true;
      this.layer.groups.push(this.group);
      this.sink.info(line.no, 'RULE outside any GROUP (output filtered with /group?): kept in a synthetic group');
    }
    this.rule = emptyRule(rest, this.sink.ref(line.no));
    this.dipExpected = undefined;
    this.group.rules.push(this.rule);
    this.target = 'rule';
  }

  private syntheticLayer(line: number): VfpLayer {
    const named = this.prompt?.layer;
    const l: VfpLayer = { id: named ?? '', groups: [], extra: {}, synthetic: true, src: this.sink.ref(line) };
    this.port!.layers.push(l);
    if (named) this.sink.info(line, `GROUP/RULE outside any LAYER: layer ${named}, as the command names it (/layer ${named})`);
    else this.sink.info(line, 'GROUP/RULE outside any LAYER (output filtered with /layer?): kept in a synthetic layer');
    return l;
  }

  private newGroup(id: string, line: number): VfpGroup {
    return emptyGroup(id, this.sink.ref(line));
  }

  private closePolicy(): void {
    this.finishRule();
    this.layer = undefined;
    this.group = undefined;
    this.target = undefined;
    this.sub = undefined;
  }

  private finishRule(): void {
    const r = this.rule;
    this.rule = undefined;
    if (!r) return;
    if (this.dipExpected !== undefined && this.dipExpected !== r.dipRanges.length) {
      this.sink.warn(r.src.line, `rule ${r.name || '(unnamed)'}: Count of DIP Ranges says ${this.dipExpected} but ${r.dipRanges.length} listed`);
    }
    this.dipExpected = undefined;
  }

  private layerLine(kv: KeyValue | undefined, body: string): void {
    const l = this.layer!;
    if (!kv) {
      addExtra(l.extra, body, '');
      return;
    }
    switch (this.info(kv).nk) {
      case 'friendly name':
        l.friendlyName = kv.value;
        break;
      case 'priority':
        l.priority = fastVfpInt(this.sink, this.at, kv);
        break;
      case 'flags': {
        const f = parseFlags(kv.value, true);
        if (f) {
          l.flags = f.flags;
          l.flagsText = f.text;
          l.flagNames = f.names;
        } else addExtra(l.extra, kv.key, kv.value);
        break;
      }
      default:
        addExtra(l.extra, kv.key, kv.value);
    }
  }

  private groupLine(line: Line, kv: KeyValue | undefined): void {
    const g = this.group!;
    if (this.sub?.mode === 'conditions' && this.conditionLine(line, kv, g.conditions, isGroupKey)) return;
    this.sub = undefined;
    if (!kv) {
      addExtra(g.extra, line.body, '');
      return;
    }
    switch (this.info(kv).nk) {
      case 'friendly name':
        g.friendlyName = kv.value;
        break;
      case 'priority':
        g.priority = fastVfpInt(this.sink, this.at, kv);
        break;
      case 'direction': {
        const d = kv.value.toUpperCase();
        g.direction = d === 'IN' || d === 'OUT' ? d : kv.value;
        break;
      }
      case 'type': {
        const t = kv.value.toLowerCase();
        g.ipVersion = t === 'ipv4' ? 'IPv4' : t === 'ipv6' ? 'IPv6' : kv.value;
        break;
      }
      case 'conditions':
        this.openConditions(line, kv.value, g.conditions);
        break;
      case 'match type': {
        g.matchTypeText = kv.value;
        const t = kv.value.toLowerCase();
        g.matchType = /longest|lpm/.test(t) ? 'lpm' : /priority/.test(t) ? 'priority' : 'unknown';
        break;
      }
      default:
        addExtra(g.extra, kv.key, kv.value);
    }
  }

  private openConditions(line: Line, value: string, into: VfpCondition[]): void {
    this.sub = { mode: 'conditions', headerIndent: line.indent };
    if (value === '' || /^<?none>?$/i.test(value)) return;
    const inner = splitKeyValue(value);
    if (inner) into.push(makeCondition(inner.key, inner.value, refuseAt(this.sink, line.no, inner.key)));
  }

  /** Returns true when the line was a condition entry. */
  private conditionLine(line: Line, kv: KeyValue | undefined, into: VfpCondition[], isFieldKey: (k: KeyInfo) => boolean): boolean {
    const sub = this.sub!;
    if (this.indentEnded(line)) return false;
    if (/^<?none>?$/i.test(line.body)) {
      sub.firstIndent ??= line.indent;
      return true;
    }
    if (!kv || isFieldKey(this.info(kv))) return false;
    sub.firstIndent ??= line.indent;
    into.push(makeCondition(kv.key, kv.value, refuseAt(this.sink, line.no, kv.key)));
    return true;
  }

  private info(kv: KeyValue): KeyInfo {
    return kv === this.kv && this.ki ? this.ki : keyInfo(kv.key);
  }

  /** A sub-block whose first entry was indented deeper than its header ends when indentation returns. */
  private indentEnded(line: Line): boolean {
    const s = this.sub!;
    return s.firstIndent !== undefined && s.firstIndent > s.headerIndent && line.indent <= s.headerIndent;
  }

  private ruleLine(line: Line, kv: KeyValue | undefined): void {
    const r = this.rule!;
    const body = line.body;
    const sub = this.sub;
    if (sub) {
      switch (sub.mode) {
        case 'encap':
          if (body.startsWith('{')) {
            const { dests, complete } = parseEncapDestinations(body);
            r.encapDestinations.push(...dests);
            if (!complete) this.sink.warn(line.no, 'Encap Destination entry without closing brace');
            return;
          }
          break;
        case 'dip':
          if (body.startsWith('{') || /^[0-9a-f:.]+[ \t]*:[ \t]*\d+$/i.test(body)) {
            const d = parseDipRange(body);
            if (d) r.dipRanges.push(d);
            else this.sink.warn(line.no, `unreadable DIP range: ${body}`);
            return;
          }
          break;
        case 'conditions':
          if (this.conditionLine(line, kv, r.conditions, isRuleField)) return;
          break;
        case 'ruleData':
          if (this.ruleDataLine(line, kv)) return;
          break;
        case 'modify':
          if (!this.indentEnded(line) && kv && !this.info(kv).ruleField) {
            sub.firstIndent ??= line.indent;
            r.modify[kv.key] = kv.value;
            return;
          }
          break;
      }
      this.sub = undefined;
    }
    if (!kv) {
      r.ruleData.push(body);
      return;
    }
    const info = this.info(kv);
    const nk = info.nk;
    if (this.ruleValue(r, nk, kv)) return;
    switch (nk) {
      case 'friendly name':
        r.friendlyName = kv.value;
        r.name = kv.value || r.id;
        break;
      case 'priority':
        r.priority = fastVfpInt(this.sink, this.at, kv);
        break;
      case 'flags': {
        const f = ruleFlagsOf(kv.value);
        if (!f) {
          this.sink.warn(line.no, `unreadable rule Flags: ${kv.value}`);
          addExtra(r.extra, kv.key, kv.value);
          break;
        }
        r.flags = f.flags;
        r.flagNames = f.names;
        const lower = f.names.map((n) => n.toLowerCase());
        // With names printed, trust them; the bits (1 terminating, 2 stateful) are inferred from
        // `1 terminating` and `8195 terminating stateful` (0x2003) and only used when names are absent.
        r.terminating = lower.length ? lower.includes('terminating') : (f.flags & 1) !== 0;
        r.stateful = lower.length ? lower.includes('stateful') : (f.flags & 2) !== 0;
        break;
      }
      case 'type':
        // kubernetes/kubernetes#79359: a dynnat rule prints a second `Type :` line (`Source NAT;  NAT pool : …`)
        // after its data; the rule's type is the first one.
        if (r.type === '') r.type = kv.value.toLowerCase();
        else {
          r.typeDetail = kv.value;
          const pool = natPoolIn(kv.value);
          if (pool) r.natPool = pool;
        }
        break;
      case 'conditions':
        this.openConditions(line, kv.value, r.conditions);
        break;
      case 'flow ttl':
        r.flowTtl = fastVfpInt(this.sink, this.at, kv);
        break;
      case 'rule data':
        this.sub = { mode: 'ruleData', headerIndent: line.indent };
        if (kv.value !== '') r.ruleData.push(kv.value);
        break;
      case 'encap destinations':
        this.sub = { mode: 'encap', headerIndent: line.indent };
        if (kv.value.includes('{')) r.encapDestinations.push(...parseEncapDestinations(kv.value).dests);
        break;
      case 'dip ranges':
        this.sub = { mode: 'dip', headerIndent: line.indent };
        if (kv.value.includes('{')) {
          const d = parseDipRange(kv.value);
          if (d) r.dipRanges.push(d);
          else this.sink.warn(line.no, `unreadable DIP range: ${kv.value}`);
        }
        break;
      case 'modify':
        this.sub = { mode: 'modify', headerIndent: line.indent };
        break;
      case 'flagsex':
        r.flagsEx = fastVfpInt(this.sink, this.at, kv);
        break;
      default: {
        const cf = info.counter;
        if (cf) {
          const n = fastIntLoose(kv.value);
          r.counters ??= {};
          if (n !== undefined) r.counters[cf] = n;
          else this.sink.warn(line.no, `unreadable counter: ${body}`);
        } else addExtra(r.extra, kv.key, kv.value);
      }
    }
  }

  /** Values that may appear inside or outside `Rule Data:` (the seed shows both placements). */
  private ruleValue(r: VfpRule, nk: string, kv: KeyValue): boolean {
    switch (nk) {
      case 'encap source ip':
        r.encapSourceIp = kv.value;
        return true;
      case 'encap type':
        r.encapType = kv.value;
        return true;
      case 'map space':
        r.mapSpace = kv.value;
        return true;
      case 'gre key': {
        const n = fastIntLoose(kv.value);
        if (n !== undefined) r.greKey = n;
        else addExtra(r.extra, kv.key, kv.value);
        return true;
      }
      case 'nat pool':
        r.natPool = kv.value;
        addExtra(r.extra, kv.key, kv.value);
        return true;
      case 'count of dip ranges':
        this.dipExpected = fastVfpInt(this.sink, this.at, kv);
        addExtra(r.extra, kv.key, kv.value);
        return true;
      default:
        return false;
    }
  }

  private ruleDataLine(line: Line, kv: KeyValue | undefined): boolean {
    if (this.indentEnded(line)) return false;
    const info = kv ? this.info(kv) : undefined;
    const nk = info?.nk;
    if (info !== undefined && nk !== undefined && (RULE_BLOCK_END.has(nk) || info.counter !== undefined)) return false;
    this.sub!.firstIndent ??= line.indent;
    const r = this.rule!;
    r.ruleData.push(line.body);
    if (kv && nk !== undefined) this.ruleValue(r, nk, kv);
    return true;
  }

  private finish(contentLines: number): void {
    if (this.awaitingName) this.sink.warn(this.awaitingName.no, 'Policy for port: file ends before the port GUID');
    const r = this.rule;
    if (r && r.flagsEx === undefined && this.target === 'rule') {
      this.sink.warn(this.lastLine, `file ends inside RULE ${r.name || '(unnamed)'} (no FlagsEx line): truncated?`);
    }
    this.closePolicy();
    this.closeSection();
    if (this.ports.length === 0) {
      if (contentLines > 0) this.sink.info(0, 'no VFP port policy (LAYER/GROUP/RULE or Policy for port) found');
    } else {
      // Loose lines before the first port are the PS port table of vfpOutput.txt: not worth an issue.
      const named = this.orphans.filter((s) => s.command !== '');
      const [first] = named;
      if (first) this.sink.info(first.line, `${plural(named.length, 'vfpctrl output')} before the first port ${named.length === 1 ? 'was' : 'were'} not attached to a port`);
    }
  }
}
