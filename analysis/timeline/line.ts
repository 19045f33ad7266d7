// One log line as the timeline needs it: time (with its resolution), level, message, key/value
// fields, process id and the sandbox IDs it names. parsers/logs keeps the relevant lines; this reads
// the formats the CNI plugins write that a generic reader flattens (zap JSON of azure-vnet and
// azure-cns, logrus JSON of sdnbridge/sdnoverlay/nat, seelog of vpc-bridge, Calico's text with
// key="value" tails, klog, containerd's logrus text and its tty form). Sources per format:
// /work/research/platforms.md §3.1 and /work/research/formats.md §7.
import type { LogEvent, LogFile } from '../../parsers/logs/index.ts';

export interface LineTime {
  /** Milliseconds since the epoch (or since midnight when only the time of day is known). */
  ms: number;
  /** The timestamp's resolution in ms: 1000 for `15:04:05`, 1 for `.000`, 0.001 for `.000000`. */
  resolution: number;
  /** Date known (false: klog without year is dated by the other logs; time-of-day only: false). */
  dated: boolean;
  /** The line had a month and day but no year (klog). */
  noYear?: boolean;
  /** Only a time of day. */
  todOnly?: boolean;
}

export interface TimedLine {
  file: string;
  component: string;
  line: number;
  text: string;
  time?: LineTime;
  level?: string;
  /** The message: zap/logrus `msg`, else the text after the time/level/pid prefix. */
  message: string;
  fields: Record<string, string>;
  pid?: number;
  /** 64-hex sandbox / container IDs the line names. */
  ids: string[];
  pod?: { namespace?: string; name: string };
  /** The order of the line among all lines (file order, then line), for stable sorting. */
  seq: number;
  /** Which line format was recognised (it tells the writer when the file name does not). */
  format: 'zap' | 'logrus-json' | 'logrus' | 'tty' | 'calico' | 'seelog' | 'azure-legacy' | 'klog' | 'klog-tod' | 'text';
}

const ID64 = /\b[0-9a-f]{64}\b/g;

function resolutionOf(frac: string | undefined): number {
  return frac ? 10 ** (3 - Math.min(frac.length, 9)) : 1000;
}

function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, frac?: string): number {
  return Date.UTC(y, mo - 1, d, h, mi, s) + (frac ? Number(`0.${frac}`) * 1000 : 0);
}

/** ISO-8601 with optional fraction and zone (`2023-08-15T20:51:20.379Z`, `…-05:00`), or `YYYY-MM-DD hh:mm:ss[.fff]`. */
function isoTime(s: string): LineTime | undefined {
  const m = /^(\d{4})[-/](\d\d)[-/](\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?\s*(Z|[+-]\d\d:?\d\d)?$/.exec(s.trim());
  if (!m) return undefined;
  let ms = utc(+m[1], +m[2], +m[3], +m[4], +m[5], +m[6], m[7]);
  if (m[8] && m[8] !== 'Z') {
    const z = /([+-])(\d\d):?(\d\d)/.exec(m[8])!;
    ms -= (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3])) * 60_000;
  }
  return { ms, resolution: resolutionOf(m[7]), dated: true };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : v === null ? 'null' : undefined;
}

/** `key="value"` and `key=value` pairs (logrus text, Calico tails). */
function kvPairs(s: string, into: Record<string, string>): void {
  const re = /\b([A-Za-z][\w.]*)=("(?:[^"\\]|\\.)*"|[^\s"]+)/g;
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = re.exec(s)) && n++ < 40) into[m[1]] = m[2].startsWith('"') ? m[2].slice(1, -1).replace(/\\"/g, '"') : m[2];
}

/** A JSON log line cut by a paste or the 2,000-character limit: its leading keys are still readable. */
function fromCutJson(t: string, out: Omit<TimedLine, 'seq'>): boolean {
  const get = (k: string) => new RegExp(`"${k}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(t)?.[1];
  const msg = get('msg') ?? get('message');
  if (msg === undefined) return false;
  out.message = msg.replace(/\\"/g, '"');
  out.format = get('ts') ? 'zap' : 'logrus-json';
  out.level = get('level')?.toLowerCase();
  const ts = get('ts') ?? get('time');
  if (ts) out.time = isoTime(ts);
  const pid = /"pid"\s*:\s*(\d+)/.exec(t)?.[1];
  if (pid) out.pid = Number(pid);
  for (const k of ['containerId', 'netNS', 'args', 'pod', 'error']) {
    const v = get(k);
    if (v !== undefined) out.fields[k] = v;
  }
  return true;
}

function fromJson(text: string, out: Omit<TimedLine, 'seq'>): boolean {
  const t = text.trim();
  if (!t.startsWith('{')) return false;
  let o: unknown;
  try {
    o = JSON.parse(t);
  } catch {
    return fromCutJson(t, out);
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return false;
  const r = o as Record<string, unknown>;
  const msg = str(r.msg) ?? str(r.message);
  if (msg === undefined) return false;
  out.message = msg;
  out.format = r.ts !== undefined ? 'zap' : 'logrus-json';
  out.level = str(r.level)?.toLowerCase();
  const ts = str(r.ts) ?? str(r.time) ?? str(r.timestamp);
  if (ts) out.time = isoTime(ts);
  else if (typeof r.ts === 'number') out.time = { ms: r.ts * 1000, resolution: 0.001, dated: true };
  if (typeof r.pid === 'number') out.pid = r.pid;
  for (const [k, v] of Object.entries(r)) {
    if (k === 'msg' || k === 'level' || k === 'ts' || k === 'time') continue;
    const s = str(v) ?? (typeof v === 'object' ? JSON.stringify(v) : undefined);
    if (s !== undefined) out.fields[k] = s.length > 600 ? s.slice(0, 600) + '…' : s;
  }
  return true;
}

const KLOG_LEVEL: Record<string, string> = { I: 'info', W: 'warning', E: 'error', F: 'fatal' };
const TTY_LEVEL: Record<string, string> = { DEBU: 'debug', INFO: 'info', WARN: 'warning', ERRO: 'error', FATA: 'fatal', TRAC: 'trace' };

function fromText(text: string, out: Omit<TimedLine, 'seq'>): void {
  let m: RegExpExecArray | null;
  // Pasted logs carry markdown: `> ` quotes, backticks, **bold**.
  const s = text.replace(/^(?:>\s?|`+|\*\*)+/, '').replace(/\*\*$/, '');
  // logrus text: time="…" level=… msg="…" k=v (containerd; optionally prefixed by a host name on EKS).
  if ((m = /\btime="([^"]+)"/.exec(s))) {
    out.format = 'logrus';
    out.time = isoTime(m[1]);
    kvPairs(s.slice(m.index), out.fields);
    out.level = out.fields.level?.toLowerCase();
    out.message = out.fields.msg ?? s;
    delete out.fields.time;
    delete out.fields.level;
    delete out.fields.msg;
    return;
  }
  // logrus text without a time (a post's excerpt): level=debug msg="…" k=v.
  if (/^level=\w+ msg=/.test(s)) {
    out.format = 'logrus';
    kvPairs(s, out.fields);
    out.level = out.fields.level?.toLowerCase();
    out.message = out.fields.msg ?? s;
    delete out.fields.level;
    delete out.fields.msg;
    return;
  }
  // containerd's tty form: DEBU[2021-11-01T09:31:42.207910789-05:00] begin cni setup   podsandboxid=…
  if ((m = /^([A-Z]{4})\[([^\]]+)\]\s+(.*)$/.exec(s)) && TTY_LEVEL[m[1]]) {
    out.format = 'tty';
    out.time = isoTime(m[2]);
    out.level = TTY_LEVEL[m[1]];
    const rest = m[3];
    const cut = rest.search(/\s{2,}\w+=/);
    out.message = (cut > 0 ? rest.slice(0, cut) : rest).trim();
    if (cut > 0) kvPairs(rest.slice(cut), out.fields);
    return;
  }
  // Calico: 2024-08-09 20:57:55.736 [INFO][14032] dataplane_windows.go 79: msg ContainerID="…" …
  if ((m = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?) \[(\w+)\]\[(\d+)\] (?:[\w/]+\.go \d+: )?(.*)$/.exec(s))) {
    out.format = 'calico';
    out.time = isoTime(m[1]);
    out.level = m[2].toLowerCase();
    out.pid = Number(m[3]);
    const body = m[4];
    const kv = body.search(/ [A-Z][A-Za-z]*="/);
    out.message = (kv > 0 ? body.slice(0, kv) : body).trim();
    kvPairs(body, out.fields);
    return;
  }
  // vpc-bridge (seelog): 2019-05-09T18:41:41Z [INFO] msg
  if ((m = /^(\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:?\d\d)) \[(\w+)\] (.*)$/.exec(s))) {
    out.format = 'seelog';
    out.time = isoTime(m[1]);
    out.level = m[2].toLowerCase();
    out.message = m[3];
    return;
  }
  // Azure CNI legacy text: 2023/08/15 20:51:20 [11200] [net] msg (pid absent on old builds).
  if ((m = /^(\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d) (?:\[(\d+)\] )?(.*)$/.exec(s))) {
    out.format = 'azure-legacy';
    out.time = isoTime(m[1]);
    if (m[2]) out.pid = Number(m[2]);
    out.message = m[3];
    return;
  }
  // klog: I0716 01:28:33.949849     508 server.go:375] msg — and without level/date (the deep dive's excerpt).
  if ((m = /^([IWEF])?(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?\s+(\d+) ([\w.-]+:\d+)\]\s?(.*)$/.exec(s))) {
    out.format = 'klog';
    out.time = { ms: utc(2000, +m[2], +m[3], +m[4], +m[5], +m[6], m[7]), resolution: resolutionOf(m[7]), dated: false, noYear: true };
    out.level = m[1] ? KLOG_LEVEL[m[1]] : undefined;
    out.pid = Number(m[8]);
    out.message = m[10];
    kvPairs(m[10].replace(/^"(?:[^"\\]|\\.)*"/, ''), out.fields);
    return;
  }
  if ((m = /^(\d\d):(\d\d):(\d\d)(?:\.(\d+))?\s+(\d+) ([\w.-]+:\d+)\]\s?(.*)$/.exec(s))) {
    out.format = 'klog-tod';
    out.time = { ms: ((+m[1] * 60 + +m[2]) * 60 + +m[3]) * 1000 + (m[4] ? Number(`0.${m[4]}`) * 1000 : 0), resolution: resolutionOf(m[4]), dated: false, todOnly: true };
    out.pid = Number(m[5]);
    out.message = m[7];
    return;
  }
  // A line in a kubelet/CRI wrapper or anything else: keep it whole.
  out.message = s;
}

/**
 * The raw text of an event. The log reader keeps a line that a console wrapped at its width as one
 * event whose text holds the pieces on separate lines; the wrap cut the line anywhere (inside a word,
 * an address, a GUID), so the pieces are joined back without a separator.
 */
function rawOf(ev: LogEvent): string {
  return ev.text.replace(/\r?\n/g, '');
}

export function readLine(ev: LogEvent, file: LogFile, seq: number): TimedLine {
  const text = rawOf(ev);
  const out: Omit<TimedLine, 'seq'> = { file: file.file, component: file.component, line: ev.line, text, message: '', fields: {}, ids: [], pod: ev.pod, format: 'text' };
  if (!fromJson(text, out)) fromText(text, out);
  if (!out.time && ev.time) {
    // The log reader found a time this reader does not know: take it as is.
    out.time = { ms: ev.time.ms, resolution: 1, dated: ev.time.precision === 'full', noYear: ev.time.precision === 'monthday', todOnly: ev.time.precision === 'time' };
  }
  if (!out.level && ev.level) out.level = ev.level;
  if (!out.pid && ev.pid) out.pid = ev.pid;
  const ids = new Set<string>(ev.ids ?? []);
  for (const id of text.match(ID64) ?? []) ids.add(id);
  out.ids = [...ids];
  if (!out.pod) {
    const f = out.fields;
    const ns = f.Namespace ?? f.namespace;
    const pod = f.Pod ?? f.pod;
    if (pod && !pod.includes('/') && !pod.startsWith('{')) out.pod = { namespace: ns, name: pod };
    else if (pod && /^[\w.-]+\/[\w.-]+$/.test(pod)) out.pod = { namespace: pod.split('/')[0], name: pod.split('/')[1] };
  }
  return { ...out, seq };
}
