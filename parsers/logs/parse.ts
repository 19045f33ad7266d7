// Reads the logs of a node's Kubernetes components line by line in whatever format each line is in
// (parsers/logs/line-formats.ts: klog with or without the CRI prefix, logrus, zap JSON, Calico,
// Azure CNI/CNS, Windows event tables, Kubernetes events). A line in no format continues the record
// before it (go-spew dumps, hexdumps, console wraps). Every record gets one shape — time, level,
// message, component, fields, src — plus the sandbox IDs, pod and HNS error codes it names. A log of
// up to 20,000 lines keeps every record; a bigger one keeps those about CNI, sandboxes, HNS or errors.
import { IssueSink, type ParseResult } from '../types.ts';
import type { LogComponent, LogEvent, LogFile, LogFormat } from './types.ts';
import { readCri, readLogLine, type LineRead } from './line-formats.ts';
import { componentFromContent, componentFromName, componentFromTag } from './components.ts';
import { findHnsErrors } from '../hns/errors.ts';

export { componentFromName } from './components.ts';

const MAX_EVENTS = 50_000;
const RELEVANT = /0x[0-9a-f]{2,8}\b|ErrorCode|cni|cmdadd|cmddel|sandbox|add command|del command|\b[0-9a-f]{64}\b|hns|hcn|endpoint|network ?plugin|networkready|failed|error|\bE\d{4}\b|level=(error|warn)|ovs port|ip address|subnet added/i;

/** The pod a line names, in any of the spellings the runtimes and plugins use. */
export function podOf(line: string): { namespace?: string; name: string } | undefined {
  let m: RegExpExecArray | null;
  const ns = /K8S_POD_NAMESPACE=([\w.-]+)/.exec(line)?.[1];
  if ((m = /K8S_POD_NAME=([\w.-]+)/.exec(line))) return { namespace: ns, name: m[1] ?? '' };
  if ((m = /PodSandboxMetadata\{Name:([\w.-]+),(?:Uid:[\w-]+,)?Namespace:([\w.-]+)/.exec(line))) return { namespace: m[2], name: m[1] ?? '' };
  if ((m = /\bpod="([\w.-]+)\/([\w.-]+)"/.exec(line))) return { namespace: m[1], name: m[2] ?? '' };
  if ((m = /for pod ([\w.-]+)/.exec(line))) return { name: m[1] ?? '' };
  return undefined;
}

/** Header and rule lines of tabular log views (kubectl describe, Get-WinEvent): structure, not records. */
const TABLE_FURNITURE = /^\s*(Events:|Type\s+Reason\s+Age\s+From\s+Message|LAST SEEN\s+TYPE\s+REASON|TimeCreated\s+Id\s+LevelDisplayName|ProviderName:|[-\s]+$)/;
const KEEP_ALL_LINES = 20_000;

export function parseLogFile(text: string, file: string): ParseResult<LogFile> {
  const sink = new IssueSink(file);
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const sample = lines.slice(0, 400);
  const formatCount = new Map<LogFormat, number>();
  const reads: (LineRead | null)[] = new Array(lines.length);
  for (const [i, line] of lines.entries()) {
    const raw = line.replace(/^\uFEFF/, '');
    if (!raw.trim()) {
      reads[i] = null;
      continue;
    }
    const r = readLogLine(raw.length > 20_000 ? raw.slice(0, 20_000) : raw);
    reads[i] = r;
    if (r) formatCount.set(r.format, (formatCount.get(r.format) ?? 0) + 1);
  }
  const formats = [...formatCount.entries()].sort((a, b) => b[1] - a[1]).map(([f]) => f);
  const byFormat: LogComponent | undefined =
    formats[0] === 'kubectl-events' || formats[0] === 'kubectl-get-events' || formats[0] === 'e2e-events' ? 'events' : formats[0] === 'event-table' ? 'eventlog' : undefined;
  // Events and event logs say what they are by their layout; a name that only says "cni" says less
  // than content that names the plugin.
  const byName = componentFromName(file);
  const byContent = byFormat ? undefined : componentFromContent(sample);
  // wincni.log / win-bridge / sdnbridge name their plugin even though their lines carry azure-vnet's
  // `[cni-net]` tag (both come from windows-container-networking's cni package): the name decides there.
  const namesWinCni = /wincni|win-bridge|win-overlay|sdnbridge|sdnoverlay/i.test(file.split(/[\\/]/).pop() ?? file);
  const component = byFormat ?? (byName && !(byName === 'cni' && !namesWinCni && byContent !== 'other') ? byName : byContent ?? 'other');
  const keepAll = lines.length <= KEEP_ALL_LINES;
  const out: LogFile = { file, component, formats: formats.length ? formats : ['text'], events: [], lines: lines.length, src: sink.ref(1) };

  // `cri`: a CRI record's line with the payloads of the partial records that continue it joined on.
  let cur: { ev: LogEvent; read: LineRead | null; parts: [string, ...string[]]; chars: number; cri?: string } | null = null;
  let preamble = 0;
  let stopped = false;
  const finish = (): void => {
    if (!cur) return;
    const { ev, parts } = cur;
    if (cur.cri !== undefined) {
      // CRI records joined: the text is the one line the component wrote (its codes and IDs whole).
      ev.text = cur.cri.length > 2000 ? cur.cri.slice(0, 2000) + '…' : cur.cri;
    } else if (parts.length > 1) {
      const joined = parts.join('\n');
      ev.text = joined.length > 2000 ? joined.slice(0, 2000) + '…' : joined;
      if (!cur.read) ev.msg = ev.message = ev.text;
    }
    enrich(ev);
    if (keepAll || RELEVANT.test(ev.text)) {
      if (out.events.length >= MAX_EVENTS) {
        if (!out.capped) sink.info(ev.line, `only the first ${MAX_EVENTS} ${keepAll ? '' : 'CNI/sandbox/error '}lines were kept`);
        out.capped = true;
        stopped = true;
      } else out.events.push(ev);
    }
    cur = null;
  };
  let last = lines.length - 1;
  while (last >= 0 && !lines[last]?.trim()) last--;
  for (const [i, line] of lines.entries()) {
    if (stopped) break;
    const raw = line.replace(/^\uFEFF/, '');
    if (!raw.trim()) continue;
    const r = reads[i];
    if (!r) {
      if (TABLE_FURNITURE.test(raw)) continue;
      // The last line is only the first characters of a log line (`ti` of `time="…"`): the paste was
      // cut there. It is no part of the record before it.
      const frag = raw.trim();
      if (i === last && cur && frag.length < 16 && (cur as NonNullable<typeof cur>).parts[0].trimStart().startsWith(frag)) {
        sink.info(i + 1, `the text ends inside this line: ${JSON.stringify(frag)} is the start of a log line cut off (the paste or the file was cut here)`);
        continue;
      }
      if (cur) {
        // A continuation: a go-spew dump, a hexdump, a console wrap, a wrapped event message.
        const c = cur as NonNullable<typeof cur>;
        if (c.parts.length < 500 && c.chars < 20_000) {
          c.parts.push(raw);
          c.chars += raw.length;
        }
        c.ev.endLine = i + 1;
        continue;
      }
      preamble++;
      continue;
    }
    // CRI splits a long line into partial records (`P`) closed by a full one (`F`): one record again.
    if (cur && r.format === 'cri' && r.payload !== undefined) {
      const c = cur as NonNullable<typeof cur>;
      const f = c.ev.fields;
      if (c.read?.format === 'cri' && f?.partial === 'true' && f.stream === r.fields?.stream) {
        // The payloads joined as written, then read again (the klog header and fields are in the first).
        c.cri = (c.cri ?? c.parts[0]) + r.payload;
        const again = readCri(c.cri.length > 20_000 ? c.cri.slice(0, 20_000) : c.cri);
        c.parts.push(raw);
        c.chars += raw.length;
        c.ev.endLine = i + 1;
        if (again) {
          c.ev.msg = c.ev.message = again.message.trim();
          if (again.level) c.ev.level = again.level;
          c.ev.fields = { ...again.fields };
        }
        const nf = c.ev.fields ?? {};
        if (r.fields?.partial === 'true') nf.partial = 'true';
        else delete nf.partial;
        nf.joined = String(c.parts.length);
        c.ev.fields = nf;
        continue;
      }
    }
    finish();
    const text = raw.length > 2000 ? raw.slice(0, 2000) + '…' : raw;
    const tagged = componentFromTag(r.tag);
    const ev: LogEvent = {
      line: i + 1,
      text,
      time: r.time,
      level: r.level,
      msg: r.message.trim(),
      message: r.message.trim(),
      component: tagged ?? component,
      format: r.format,
      ids: [],
      src: sink.ref(i + 1),
    };
    if (r.fields) ev.fields = r.fields;
    if (r.pid !== undefined) ev.pid = r.pid;
    if (r.source) ev.caller = r.source;
    cur = { ev, read: r, parts: [raw], chars: raw.length };
  }
  finish();
  if (preamble > 0) {
    out.preamble = preamble;
    const firstText = lines.findIndex((l) => l.trim() !== '');
    // A preamble is made of lines with text, so there is one.
    const shown = (lines[firstText] ?? '').trim();
    const q = JSON.stringify(shown.length > 80 ? shown.slice(0, 80) + '…' : shown);
    if (out.events.length) sink.info(firstText + 1, `${preamble} line${preamble > 1 ? 's' : ''} before the first log line not read (a prompt, a command or the end of an earlier record), from ${q}`);
    else sink.warn(firstText + 1, `no line is in a log format hnsight knows (klog, logrus, zap, Calico, Azure CNI, event tables); ${preamble} line${preamble > 1 ? 's' : ''} not read, from ${q}`);
  }
  return { value: out, issues: sink.issues };
}

/** IDs, the pod and HNS error codes a record names. */
function enrich(ev: LogEvent): void {
  ev.ids = [...new Set(ev.text.match(/\b[0-9a-f]{64}\b/g) ?? [])];
  const pod = podOf(ev.text);
  if (pod) ev.pod = pod;
  const errs = findHnsErrors(ev.text);
  if (errs.length) ev.hnsErrors = errs;
  if (!ev.level && /^E\d{4} /.test(ev.text)) ev.level = 'error';
}
