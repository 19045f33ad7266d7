// One reader per log line format seen on Windows Kubernetes nodes. Each takes one physical line and
// returns what it says (time, level, message, the `key=value` fields) or null when the line is not
// in its format. Samples (corpus unless noted):
//   klog            I0409 13:34:04.778448    3560 service.go:421] Adding new service port …
//                   (structured: `E0409 … proxier.go:998] "Source Vip endpoint creation failed" err="…"`)
//   cri             2021-09-28T06:52:05.160881377Z stderr F W0928 06:52:05.160748 1 x.go:543] …
//                   (containerd's on-disk pod log around a klog line; research sample gardener-notes)
//   logrus          time="2020-09-20T18:47:55.66Z" level=info msg="…" k=v (containerd; k0s wraps
//                   kubelet's klog line in msg=, calico#4334); a log shipper may prefix a host name
//   zap             {"level":"info","ts":"2023-08-15T20:51:20.379Z","msg":"…",…} (Azure CNI ≥ 1.5)
//   calico          2024-08-09 20:57:55.736 [INFO][14032] dataplane_windows.go 79: … (CNI and Felix)
//   azure           2019/04/15 17:25:13 [cni-net] … / 2023/08/15 20:51:20 [11200] [net] … (azure-vnet,
//                   azure-cns `[Azure CNS]`)
//   event-table     Get-WinEvent's table: `6/1/2024 9:31:43 PM   2 Information  Hypervisor …`
//   kubectl-events  `kubectl describe` Events rows: `  Warning  FailedCreatePodSandBox  2m  kubelet, n  …`
//   kubectl-get     `kubectl get events`: `41m  Warning  FailedCreatePodSandBox  pod/x  …`
//   e2e-events      e2e framework dumps: `Jan 29 06:41:25.617: INFO: At 2021-01-29 06:36:50 +0000 UTC - event for p: {kubelet n} Reason: …`
//   powershell      VERBOSE: / WARNING: lines, localized (research sample ps-localized-warning-verbose-zh-CN)
import { readPairs, trailingPairs, unquoteGo } from './fields.ts';
import type { LogFormat, LogTime } from './types.ts';

export interface LineRead {
  format: LogFormat;
  time?: LogTime;
  level?: string;
  message: string;
  pid?: number;
  /** `file.go:123` the line names as its origin. */
  source?: string;
  fields?: Record<string, string>;
  /** A component the line names itself (logrus `component=`, Azure's `[cni-net]`, Calico's `felix/`). */
  tag?: string;
  /** CRI: the payload after the `<time> <stream> <F|P>` prefix, as written (a `P` record continues in the next line's). */
  payload?: string;
}

function tod(h: string, m: string, s: string, frac?: string): number {
  const f = frac ? Number(`0.${frac}`) * 1000 : 0;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + f;
}

/** The resolution of a time printed with this fraction (none: whole seconds). */
function resolutionOf(frac: string | undefined): number {
  return frac ? 10 ** (3 - Math.min(frac.length, 9)) : 1000;
}

function full(y: string, mo: string, d: string, h: string, mi: string, s: string, frac?: string, zone?: string): LogTime {
  const t = tod(h, mi, s, frac);
  let ms = Date.UTC(+y, +mo - 1, +d) + t;
  const z = zone ? /^([+-])(\d\d):?(\d\d)$/.exec(zone) : null;
  if (z) ms -= (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3])) * 60_000;
  return { ms, tod: t, precision: 'full', resolution: resolutionOf(frac) };
}

const LEVELS: Record<string, string> = {
  i: 'info', w: 'warning', e: 'error', f: 'fatal',
  info: 'info', information: 'info', informational: 'info', informationen: 'info', informations: 'info', 信息: 'info', 資訊: 'info', 情報: 'info', información: 'info',
  warn: 'warning', warning: 'warning', warnung: 'warning', avertissement: 'warning', advertencia: 'warning', 警告: 'warning',
  err: 'error', error: 'error', fehler: 'error', erreur: 'error', 错误: 'error', 錯誤: 'error', エラー: 'error',
  debug: 'debug', trace: 'trace', fatal: 'fatal', panic: 'panic', critical: 'fatal', kritisch: 'fatal', critique: 'fatal', 严重: 'fatal', 重大: 'fatal',
  verbose: 'debug', ausführlich: 'debug', commentaires: 'debug', 详细信息: 'debug', 詳細: 'debug', detallado: 'debug',
};

/** A level word in any case or language as the canonical name (info, warning, error, debug, …). */
export function normaliseLevel(word: string | undefined): string | undefined {
  if (!word) return undefined;
  return LEVELS[word.toLowerCase()] ?? word.toLowerCase();
}

const KLOG = /^([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?\s+(\d+) ([^\]\s]+:\d+)\] ?(.*)$/;

// A klog line the paste cut before its message: `E0115 08:37:14.385312   5` (corpus flanneld-log,
// flannel#833), `I0318 09:27:33.937681   10164 proxier.go:114` (corpus calico#5762).
const KLOG_CUT = /^([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:\s+(\d+)(?:\s+([^\]\s]+))?)?\s*$/;

export function readKlog(line: string): LineRead | null {
  const m = KLOG.exec(line);
  if (!m) {
    const c = KLOG_CUT.exec(line);
    if (!c) return null;
    const [, lv, mo = '', d = '', h = '', mi = '', sec = '', frac, pid, source] = c;
    const t = tod(h, mi, sec, frac);
    return {
      format: 'klog',
      time: { ms: Date.UTC(2000, +mo - 1, +d) + t, tod: t, precision: 'monthday', resolution: resolutionOf(frac) },
      level: normaliseLevel(lv),
      pid: pid ? Number(pid) : undefined,
      source,
      message: '',
      fields: { cut: 'true' },
    };
  }
  const [, lv, mo = '', d = '', h = '', mi = '', sec = '', frac, pid, source, message = ''] = m;
  const t = tod(h, mi, sec, frac);
  const out: LineRead = {
    format: 'klog',
    time: { ms: Date.UTC(2000, +mo - 1, +d) + t, tod: t, precision: 'monthday', resolution: resolutionOf(frac) },
    level: normaliseLevel(lv),
    pid: Number(pid),
    source,
    message,
  };
  // Structured klog (k8s ≥ 1.21): `"message" key=value …`.
  const s = /^"((?:[^"\\]|\\.)*)"(?=\s|$)/.exec(message);
  if (s) {
    const [quoted, body = ''] = s;
    const r = readPairs(message, quoted.length);
    out.message = unquoteGo(body);
    if (Object.keys(r.fields).length) out.fields = r.fields;
  }
  return out;
}

// The seed's damaged klog without the level letter, and klog with the date cut off.
const KLOG_NOLEVEL = /^\s*(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?\s+(\d+)\s+([\w.-]+:\d+)\]?\s*(.*)$/;
const KLOG_NODATE = /^\s*(\d\d):(\d\d):(\d\d)(?:\.(\d+))?\s+(\d+)\s+([\w.-]+:\d+)\]?\s*(.*)$/;

export function readKlogDamaged(line: string): LineRead | null {
  const m = KLOG_NOLEVEL.exec(line);
  if (m) {
    const [, mo = '', d = '', h = '', mi = '', sec = '', frac, pid, source, message = ''] = m;
    const t = tod(h, mi, sec, frac);
    return { format: 'klog', time: { ms: Date.UTC(2000, +mo - 1, +d) + t, tod: t, precision: 'monthday', resolution: resolutionOf(frac) }, pid: Number(pid), source, message };
  }
  const n = KLOG_NODATE.exec(line);
  if (n) {
    const [, h = '', mi = '', sec = '', frac, pid, source, message = ''] = n;
    const t = tod(h, mi, sec, frac);
    return { format: 'klog', time: { ms: t, tod: t, precision: 'time', resolution: resolutionOf(frac) }, pid: Number(pid), source, message };
  }
  return null;
}

const CRI = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d) (stdout|stderr) ([FP]) ?(.*)$/;

export function readCri(line: string): LineRead | null {
  const m = CRI.exec(line);
  if (!m) return null;
  const [, y = '', mo = '', d = '', h = '', mi = '', sec = '', frac, zone, stream = '', tag, payload = ''] = m;
  const inner = readPayload(payload);
  const fields: Record<string, string> = { ...(inner?.fields ?? {}), stream };
  if (tag === 'P') fields.partial = 'true';
  return {
    format: 'cri',
    time: full(y, mo, d, h, mi, sec, frac, zone === 'Z' ? undefined : zone),
    level: inner?.level,
    pid: inner?.pid,
    source: inner?.source,
    tag: inner?.tag,
    message: inner ? inner.message : payload,
    fields,
    payload,
  };
}

const LOGRUS = /^(?:(?!time=|level=)(\S+)\s+)?(?:time="([^"]*)"\s+)?level=(\w+)\s+msg=("(?:[^"\\]|\\.)*"|\S*)/;
const LOGRUS_TIME = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?(Z|[+-]\d\d:?\d\d)?$/;

/** An RFC 3339 time as logrus, zap and containerd's terminal print it; undefined when it is not one. */
function logrusTime(s: string): LogTime | undefined {
  const tm = LOGRUS_TIME.exec(s);
  if (!tm) return undefined;
  const [, y = '', mo = '', d = '', h = '', mi = '', sec = '', frac, zone] = tm;
  return full(y, mo, d, h, mi, sec, frac, zone && zone !== 'Z' ? zone : undefined);
}

export function readLogrus(line: string): LineRead | null {
  const m = LOGRUS.exec(line);
  if (!m) return null;
  const [head, host, when, level, quoted = ''] = m;
  const msg = quoted.startsWith('"') ? unquoteGo(quoted.slice(1, -1)) : quoted;
  const r = readPairs(line, head.length);
  const fields = r.fields;
  if (host && !/=/.test(host)) fields.host = host;
  const out: LineRead = {
    format: 'logrus',
    time: when === undefined ? undefined : logrusTime(when),
    level: normaliseLevel(level),
    message: msg,
    fields: Object.keys(fields).length ? fields : undefined,
    tag: fields.component,
  };
  // A supervisor (k0s) wraps a klog line: its severity is the one that counts.
  const k = readKlog(msg);
  if (k) {
    out.level = k.level;
    out.message = k.message;
    out.pid = k.pid;
    out.source = k.source;
    if (k.fields) out.fields = { ...(out.fields ?? {}), ...k.fields };
  }
  return out;
}

// logrus's terminal layout (containerd run in a console): `DEBU[2021-11-01T09:31:42.2079-05:00] msg   k=v`
// (research sample containerd-log-begin-cni-setup-tty, containerd PR #6184).
const LOGRUS_TTY = /^(TRAC|DEBU|INFO|WARN|ERRO|FATA|PANI)\[([^\]]+)\] ?(.*)$/;
const TTY_LEVEL: Record<string, string> = { TRAC: 'trace', DEBU: 'debug', INFO: 'info', WARN: 'warning', ERRO: 'error', FATA: 'fatal', PANI: 'panic' };

export function readLogrusTty(line: string): LineRead | null {
  const m = LOGRUS_TTY.exec(line);
  if (!m) return null;
  const [, lv = '', when = '', rest = ''] = m;
  const { message, fields } = trailingPairs(rest);
  return {
    format: 'logrus',
    time: logrusTime(when),
    level: TTY_LEVEL[lv],
    message,
    fields: Object.keys(fields).length ? fields : undefined,
  };
}

// Get-EventLog's table (Index, Time, EntryType, Source, InstanceID, Message): how EKS collects the
// kubelet/kube-proxy services' logs; the klog line inside the message carries the real severity
// (research sample eks-kube-proxy-eventlog-remote-endpoint, aws/containers-roadmap#240).
const EVENTLOG_ROW = /^\s*(\d+)\s+\w{3} \d{1,2} (\d\d):(\d\d)\s+(Information|Warning|Error|FailureAudit|SuccessAudit)\s+(\S+)\s+(\d+)\s+(.*)$/;

export function readEventLogRow(line: string): LineRead | null {
  const m = EVENTLOG_ROW.exec(line);
  if (!m) return null;
  const [, index = '', h = '', mi = '', entryType, source = '', id = '', message = ''] = m;
  const inner = readKlog(message) ?? readLogrus(message);
  const t = tod(h, mi, '0');
  return {
    format: 'event-table',
    time: inner?.time ?? { ms: t, tod: t, precision: 'time', resolution: 60_000 },
    level: inner?.level ?? normaliseLevel(entryType),
    pid: inner?.pid,
    source: inner?.source,
    message: inner?.message ?? message,
    fields: { index, source, id, ...(inner?.fields ?? {}) },
    tag: source,
  };
}

export function readZap(line: string): LineRead | null {
  const t = line.trim();
  if (!t.startsWith('{') || !t.endsWith('}') || !/"(level|severity)"\s*:/.test(t) || !/"(msg|message)"\s*:/.test(t)) return null;
  let o: Record<string, unknown>;
  try {
    const v = JSON.parse(t);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
    o = v as Record<string, unknown>;
  } catch {
    return null;
  }
  return zapRecord(o, false);
}

/** A zap line broken by the paste (its JSON ends on a later line): the members before the break. */
function readZapCut(line: string): LineRead | null {
  const t = line.trim();
  if (!t.startsWith('{"') || t.endsWith('}')) return null;
  const head = /^\{"(?:level|severity)":"(\w+)","(?:ts|time)":("[^"]*"|[\d.e+]+),"(?:msg|message)":"((?:[^"\\]|\\.)*)"/.exec(t);
  if (!head) return null;
  const [whole, level, ts = '', msg = ''] = head;
  const o: Record<string, unknown> = { level, ts: ts.startsWith('"') ? ts.slice(1, -1) : Number(ts), msg: unquoteGo(msg) };
  for (const [, k = '', v = ''] of t.slice(whole.length).matchAll(/"([\w.-]{1,64})":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)/g)) {
    o[k] = v.startsWith('"') ? unquoteGo(v.slice(1, -1)) : /^-?\d/.test(v) ? Number(v) : v === 'true' ? true : v === 'false' ? false : null;
  }
  return zapRecord(o, true);
}

function zapRecord(o: Record<string, unknown>, cut: boolean): LineRead | null {
  const msg = o.msg ?? o.message;
  if (typeof msg !== 'string') return null;
  const fields: Record<string, string> = {};
  let n = 0;
  for (const [k, v] of Object.entries(o)) {
    if (k === 'msg' || k === 'message' || k === 'level' || k === 'severity' || k === 'ts' || k === 'time') continue;
    if (n++ >= 64) break;
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    fields[k] = s.length > 2000 ? s.slice(0, 2000) + '…' : s;
  }
  let time: LogTime | undefined;
  const ts = o.ts ?? o.time;
  if (typeof ts === 'string') {
    time = logrusTime(ts);
  } else if (typeof ts === 'number' && Number.isFinite(ts)) {
    const ms = ts > 1e12 ? ts : ts * 1000;
    const d = new Date(ms);
    // zap's epoch seconds are a float printed to the nanosecond.
    time = { ms, tod: ms - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()), precision: 'full', resolution: 0.001 };
  }
  const pid = typeof o.pid === 'number' ? o.pid : undefined;
  if (cut) fields.cut = 'true';
  return {
    // zap names its time `ts` (Azure CNI/CNS); logrus's JSON formatter names it `time` (sdnbridge,
    // sdnoverlay): the key tells which library, hence which plugin family, wrote the line.
    format: o.ts === undefined && o.time !== undefined ? 'logrus' : 'zap',
    time,
    level: normaliseLevel(String(o.level ?? o.severity)),
    pid,
    message: msg,
    fields: Object.keys(fields).length ? fields : undefined,
    tag: typeof o.component === 'string' ? o.component : undefined,
  };
}

const CALICO = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:[.,](\d+))? \[(\w+)\]\[(\d+)\] (\S+) (\d+): ?(.*)$/;

export function readCalico(line: string): LineRead | null {
  const m = CALICO.exec(line);
  if (!m) return null;
  const [, y = '', mo = '', d = '', h = '', mi = '', sec = '', frac, level, pid, file = '', fileLine = '', rest = ''] = m;
  const { message, fields } = trailingPairs(rest);
  return {
    format: 'calico',
    time: full(y, mo, d, h, mi, sec, frac),
    level: normaliseLevel(level),
    pid: Number(pid),
    source: `${file}:${fileLine}`,
    message,
    fields: Object.keys(fields).length ? fields : undefined,
    tag: file.startsWith('felix/') ? 'felix' : undefined,
  };
}

const AZURE = /^(\d{4})\/(\d\d)\/(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))? (?:\[(\d+)\] )?(?:\[([^\]]{1,40})\] )?(.*)$/;

export function readAzure(line: string): LineRead | null {
  const m = AZURE.exec(line);
  if (!m) return null;
  const [, y = '', mo = '', d = '', h = '', mi = '', sec = '', frac, pid, tag, rest = ''] = m;
  const lv = /^(?:\[?(ERROR|WARN(?:ING)?|INFO|DEBUG)\]?:?)\s+/i.exec(rest);
  return {
    format: 'azure',
    time: full(y, mo, d, h, mi, sec, frac),
    level: normaliseLevel(lv?.[1]),
    pid: pid ? Number(pid) : undefined,
    message: tag ? `[${tag}] ${rest}` : rest,
    tag,
  };
}

const ISO = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?(Z|[+-]\d\d:?\d\d)?\s+(?:\[?(INFO|DEBUG|WARN(?:ING)?|ERROR|FATAL|TRACE)\]?:?\s+)?(.*)$/i;

export function readIso(line: string): LineRead | null {
  const m = ISO.exec(line);
  if (!m) return null;
  const [, y = '', mo = '', d = '', h = '', mi = '', sec = '', frac, zone, level, rest = ''] = m;
  const { message, fields } = trailingPairs(rest);
  return {
    format: 'iso',
    time: full(y, mo, d, h, mi, sec, frac, zone && zone !== 'Z' ? zone : undefined),
    level: normaliseLevel(level) ?? normaliseLevel(fields.level),
    message,
    fields: Object.keys(fields).length ? fields : undefined,
  };
}

// Get-WinEvent's table. The date is in the host's culture: 6/1/2024 (en-US), 24/12/2023 (en-GB),
// 2024/6/1 (ja-JP, zh-CN); when day and month cannot be told apart only the time of day is kept.
const EVENT_ROW = /^(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})\s+(\d{1,2}):(\d\d):(\d\d)(?:\s*([AaPp][Mm]|午前|午後|上午|下午))?\s+(\d{1,5})\s+(\S+)\s+(.*)$/;

export function readEventRow(line: string): LineRead | null {
  const m = EVENT_ROW.exec(line);
  if (!m) return null;
  const [, first = '', second, third, hour, mi = '', sec = '', half, id = '', levelWord, message = ''] = m;
  const level = normaliseLevel(levelWord);
  if (!level || !['info', 'warning', 'error', 'fatal', 'debug'].includes(level)) return null;
  let h = Number(hour);
  const pm = half && /^(p|午後|下午)/i.test(half);
  const am = half && /^(a|午前|上午)/i.test(half);
  if (pm && h < 12) h += 12;
  if (am && h === 12) h = 0;
  const t = tod(String(h), mi, sec);
  let y: number, mo: number, d: number;
  const a = Number(first), b = Number(second), c = Number(third);
  let time: LogTime;
  if (first.length === 4) [y, mo, d] = [a, b, c];
  else if (a > 12) [y, mo, d] = [c, b, a];
  else if (b > 12) [y, mo, d] = [c, a, b];
  else {
    y = NaN;
    mo = NaN;
    d = NaN;
  }
  if (Number.isFinite(y)) time = { ms: Date.UTC(y < 100 ? 2000 + y : y, mo - 1, d) + t, tod: t, precision: 'full', resolution: 1000 };
  else time = { ms: t, tod: t, precision: 'time', resolution: 1000 };
  return { format: 'event-table', time, level, message, fields: { id } };
}

export function readKubectlEvent(line: string): LineRead | null {
  const m = /^\s{1,6}(Normal|Warning)\s{2,}(\S+)\s{2,}(\S.*?)\s{2,}(\S.*?)\s{2,}(\S.*)$/.exec(line);
  if (!m) {
    // A row cut short by the paste: type and reason are enough to know what happened.
    const c = /^\s{1,6}(Normal|Warning)\s{2,}([A-Z]\w+)(?:\s{2,}(.*))?$/.exec(line);
    if (!c) return null;
    const [, type = '', reason = '', rest] = c;
    return { format: 'kubectl-events', level: type === 'Warning' ? 'warning' : 'info', message: '', fields: { type, reason, ...(rest ? { rest } : {}), cut: 'true' } };
  }
  const [, type = '', reason = '', age = '', from = '', message = ''] = m;
  return { format: 'kubectl-events', level: type === 'Warning' ? 'warning' : 'info', message, fields: { type, reason, age, from } };
}

export function readKubectlGetEvent(line: string): LineRead | null {
  const m = /^(\S+)\s{2,}(Normal|Warning)\s{2,}(\S+)\s{2,}(\S+)\s{2,}(\S.*)$/.exec(line);
  if (!m) return null;
  const [, lastSeen = '', type = '', reason = '', object = '', message = ''] = m;
  return { format: 'kubectl-get-events', level: type === 'Warning' ? 'warning' : 'info', message, fields: { lastSeen, type, reason, object } };
}

const E2E = /^\w{3} +\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)?: (\w+): At (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) ([+-]\d{4}) \w+ - event for ([^:]+): \{(\S+) ?([^}]*)\} (\w+): (.*)$/;

export function readE2eEvent(line: string): LineRead | null {
  const m = E2E.exec(line);
  if (!m) return null;
  const [, , y = '', mo = '', d = '', h = '', mi = '', sec = '', zone, object = '', source = '', node, reason = '', message = ''] = m;
  const warn = /^(Failed|BackOff|Unhealthy|Evicted|NetworkNotReady|FailedCreatePodSandBox|FailedMount|Killing)/.test(reason);
  return {
    format: 'e2e-events',
    time: full(y, mo, d, h, mi, sec, undefined, zone),
    level: warn ? 'warning' : 'info',
    message,
    fields: { object, source, ...(node ? { node } : {}), reason },
  };
}

const PS_STREAM = /^(VERBOSE|WARNING|DEBUG|ERROR|WARNUNG|AUSFÜHRLICH|AVERTISSEMENT|COMMENTAIRES|ADVERTENCIA|DETALLADO|警告|详细信息|詳細)\s?:\s?(.*)$/;

export function readPowerShell(line: string): LineRead | null {
  const m = PS_STREAM.exec(line);
  if (!m) return null;
  const [, stream, message = ''] = m;
  return { format: 'powershell', level: normaliseLevel(stream), message };
}

/** A line inside another format's payload (CRI): every format but the outer ones. */
function readPayload(s: string): LineRead | null {
  return readKlog(s) ?? readLogrus(s) ?? readZap(s) ?? readCalico(s) ?? readAzure(s) ?? readIso(s);
}

/** The readers in the order a line is tried (most specific first). */
export const LINE_READERS: ((line: string) => LineRead | null)[] = [
  readCri, readZap, readZapCut, readLogrus, readLogrusTty, readEventLogRow, readKlog, readCalico, readAzure, readE2eEvent, readEventRow, readKubectlEvent, readKubectlGetEvent, readIso, readKlogDamaged, readPowerShell,
];

/** Reads a line in whichever known format it is in. */
export function readLogLine(line: string): LineRead | null {
  for (const r of LINE_READERS) {
    const x = r(line);
    if (x) return x;
  }
  return null;
}
