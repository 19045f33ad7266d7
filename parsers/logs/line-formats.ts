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
    const t = tod(c[4], c[5], c[6], c[7]);
    return {
      format: 'klog',
      time: { ms: Date.UTC(2000, +c[2] - 1, +c[3]) + t, tod: t, precision: 'monthday', resolution: resolutionOf(c[7]) },
      level: normaliseLevel(c[1]),
      pid: c[8] ? Number(c[8]) : undefined,
      source: c[9],
      message: '',
      fields: { cut: 'true' },
    };
  }
  const t = tod(m[4], m[5], m[6], m[7]);
  const out: LineRead = {
    format: 'klog',
    time: { ms: Date.UTC(2000, +m[2] - 1, +m[3]) + t, tod: t, precision: 'monthday', resolution: resolutionOf(m[7]) },
    level: normaliseLevel(m[1]),
    pid: Number(m[8]),
    source: m[9],
    message: m[10],
  };
  // Structured klog (k8s ≥ 1.21): `"message" key=value …`.
  const s = /^"((?:[^"\\]|\\.)*)"(?=\s|$)/.exec(m[10]);
  if (s) {
    const r = readPairs(m[10], s[0].length);
    out.message = unquoteGo(s[1]);
    if (Object.keys(r.fields).length) out.fields = r.fields;
  }
  return out;
}

// The seed's damaged klog without the level letter, and klog with the date cut off.
const KLOG_NOLEVEL = /^\s*(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?\s+(\d+)\s+([\w.-]+:\d+)\]?\s*(.*)$/;
const KLOG_NODATE = /^\s*(\d\d):(\d\d):(\d\d)(?:\.(\d+))?\s+(\d+)\s+([\w.-]+:\d+)\]?\s*(.*)$/;

export function readKlogDamaged(line: string): LineRead | null {
  let m = KLOG_NOLEVEL.exec(line);
  if (m) {
    const t = tod(m[3], m[4], m[5], m[6]);
    return { format: 'klog', time: { ms: Date.UTC(2000, +m[1] - 1, +m[2]) + t, tod: t, precision: 'monthday', resolution: resolutionOf(m[6]) }, pid: Number(m[7]), source: m[8], message: m[9] };
  }
  m = KLOG_NODATE.exec(line);
  if (m) {
    const t = tod(m[1], m[2], m[3], m[4]);
    return { format: 'klog', time: { ms: t, tod: t, precision: 'time', resolution: resolutionOf(m[4]) }, pid: Number(m[5]), source: m[6], message: m[7] };
  }
  return null;
}

const CRI = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d) (stdout|stderr) ([FP]) ?(.*)$/;

export function readCri(line: string): LineRead | null {
  const m = CRI.exec(line);
  if (!m) return null;
  const inner = readPayload(m[11]);
  const fields: Record<string, string> = { ...(inner?.fields ?? {}), stream: m[9] };
  if (m[10] === 'P') fields.partial = 'true';
  return {
    format: 'cri',
    time: full(m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8] === 'Z' ? undefined : m[8]),
    level: inner?.level ?? (m[9] === 'stderr' ? undefined : undefined),
    pid: inner?.pid,
    source: inner?.source,
    tag: inner?.tag,
    message: inner ? inner.message : m[11],
    fields,
    payload: m[11],
  };
}

const LOGRUS = /^(?:(?!time=|level=)(\S+)\s+)?(?:time="([^"]*)"\s+)?level=(\w+)\s+msg=("(?:[^"\\]|\\.)*"|\S*)/;
const LOGRUS_TIME = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?(Z|[+-]\d\d:?\d\d)?$/;

export function readLogrus(line: string): LineRead | null {
  const m = LOGRUS.exec(line);
  if (!m) return null;
  const tm = m[2] === undefined ? null : LOGRUS_TIME.exec(m[2]);
  const msg = m[4].startsWith('"') ? unquoteGo(m[4].slice(1, -1)) : m[4];
  const r = readPairs(line, m[0].length);
  const fields = r.fields;
  if (m[1] && !/=/.test(m[1])) fields.host = m[1];
  const out: LineRead = {
    format: 'logrus',
    time: tm ? full(tm[1], tm[2], tm[3], tm[4], tm[5], tm[6], tm[7], tm[8] && tm[8] !== 'Z' ? tm[8] : undefined) : undefined,
    level: normaliseLevel(m[3]),
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
  const tm = LOGRUS_TIME.exec(m[2]);
  const { message, fields } = trailingPairs(m[3]);
  return {
    format: 'logrus',
    time: tm ? full(tm[1], tm[2], tm[3], tm[4], tm[5], tm[6], tm[7], tm[8] && tm[8] !== 'Z' ? tm[8] : undefined) : undefined,
    level: TTY_LEVEL[m[1]],
    message,
    fields: Object.keys(fields).length ? fields : undefined,
  };
}

// Get-EventLog's table (Index, Time, EntryType, Source, InstanceID, Message): how EKS collects the
// kubelet/kube-proxy services' logs; the klog line inside the message carries the real severity
// (research sample eks-kube-proxy-eventlog-remote-endpoint, aws/containers-roadmap#240).
const EVENTLOG_ROW = /^\s*(\d+)\s+(\w{3} \d{1,2} \d\d:\d\d)\s+(Information|Warning|Error|FailureAudit|SuccessAudit)\s+(\S+)\s+(\d+)\s+(.*)$/;

export function readEventLogRow(line: string): LineRead | null {
  const m = EVENTLOG_ROW.exec(line);
  if (!m) return null;
  const inner = readKlog(m[6]) ?? readLogrus(m[6]);
  const h = /(\d\d):(\d\d)$/.exec(m[2])!;
  const t = tod(h[1], h[2], '0');
  return {
    format: 'event-table',
    time: inner?.time ?? { ms: t, tod: t, precision: 'time', resolution: 60_000 },
    level: inner?.level ?? normaliseLevel(m[3]),
    pid: inner?.pid,
    source: inner?.source,
    message: inner?.message ?? m[6],
    fields: { index: m[1], source: m[4], id: m[5], ...(inner?.fields ?? {}) },
    tag: m[4],
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
  const o: Record<string, unknown> = { level: head[1], ts: head[2].startsWith('"') ? head[2].slice(1, -1) : Number(head[2]), msg: unquoteGo(head[3]) };
  for (const m of t.slice(head[0].length).matchAll(/"([\w.-]{1,64})":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)/g)) {
    const v = m[2];
    o[m[1]] = v.startsWith('"') ? unquoteGo(v.slice(1, -1)) : /^-?\d/.test(v) ? Number(v) : v === 'true' ? true : v === 'false' ? false : null;
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
    const tm = LOGRUS_TIME.exec(ts);
    if (tm) time = full(tm[1], tm[2], tm[3], tm[4], tm[5], tm[6], tm[7], tm[8] && tm[8] !== 'Z' ? tm[8] : undefined);
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
  const { message, fields } = trailingPairs(m[12]);
  return {
    format: 'calico',
    time: full(m[1], m[2], m[3], m[4], m[5], m[6], m[7]),
    level: normaliseLevel(m[8]),
    pid: Number(m[9]),
    source: `${m[10]}:${m[11]}`,
    message,
    fields: Object.keys(fields).length ? fields : undefined,
    tag: m[10].startsWith('felix/') ? 'felix' : undefined,
  };
}

const AZURE = /^(\d{4})\/(\d\d)\/(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))? (?:\[(\d+)\] )?(?:\[([^\]]{1,40})\] )?(.*)$/;

export function readAzure(line: string): LineRead | null {
  const m = AZURE.exec(line);
  if (!m) return null;
  const lv = /^(?:\[?(ERROR|WARN(?:ING)?|INFO|DEBUG)\]?:?)\s+/i.exec(m[10]);
  return {
    format: 'azure',
    time: full(m[1], m[2], m[3], m[4], m[5], m[6], m[7]),
    level: normaliseLevel(lv?.[1]),
    pid: m[8] ? Number(m[8]) : undefined,
    message: m[9] ? `[${m[9]}] ${m[10]}` : m[10],
    tag: m[9],
  };
}

const ISO = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?(Z|[+-]\d\d:?\d\d)?\s+(?:\[?(INFO|DEBUG|WARN(?:ING)?|ERROR|FATAL|TRACE)\]?:?\s+)?(.*)$/i;

export function readIso(line: string): LineRead | null {
  const m = ISO.exec(line);
  if (!m) return null;
  const { message, fields } = trailingPairs(m[10]);
  return {
    format: 'iso',
    time: full(m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8] && m[8] !== 'Z' ? m[8] : undefined),
    level: normaliseLevel(m[9]) ?? normaliseLevel(fields.level),
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
  const level = normaliseLevel(m[9]);
  if (!level || !['info', 'warning', 'error', 'fatal', 'debug'].includes(level)) return null;
  let h = Number(m[4]);
  const pm = m[7] && /^(p|午後|下午)/i.test(m[7]);
  const am = m[7] && /^(a|午前|上午)/i.test(m[7]);
  if (pm && h < 12) h += 12;
  if (am && h === 12) h = 0;
  const t = tod(String(h), m[5], m[6]);
  let y: number, mo: number, d: number;
  const a = Number(m[1]), b = Number(m[2]), c = Number(m[3]);
  let time: LogTime;
  if (m[1].length === 4) [y, mo, d] = [a, b, c];
  else if (a > 12) [y, mo, d] = [c, b, a];
  else if (b > 12) [y, mo, d] = [c, a, b];
  else {
    y = NaN;
    mo = NaN;
    d = NaN;
  }
  if (Number.isFinite(y)) time = { ms: Date.UTC(y < 100 ? 2000 + y : y, mo - 1, d) + t, tod: t, precision: 'full', resolution: 1000 };
  else time = { ms: t, tod: t, precision: 'time', resolution: 1000 };
  return { format: 'event-table', time, level, message: m[10], fields: { id: m[8] } };
}

export function readKubectlEvent(line: string): LineRead | null {
  const m = /^\s{1,6}(Normal|Warning)\s{2,}(\S+)\s{2,}(\S.*?)\s{2,}(\S.*?)\s{2,}(\S.*)$/.exec(line);
  if (!m) {
    // A row cut short by the paste: type and reason are enough to know what happened.
    const c = /^\s{1,6}(Normal|Warning)\s{2,}([A-Z]\w+)(?:\s{2,}(.*))?$/.exec(line);
    if (!c) return null;
    return { format: 'kubectl-events', level: c[1] === 'Warning' ? 'warning' : 'info', message: '', fields: { type: c[1], reason: c[2], ...(c[3] ? { rest: c[3] } : {}), cut: 'true' } };
  }
  return { format: 'kubectl-events', level: m[1] === 'Warning' ? 'warning' : 'info', message: m[5], fields: { type: m[1], reason: m[2], age: m[3], from: m[4] } };
}

export function readKubectlGetEvent(line: string): LineRead | null {
  const m = /^(\S+)\s{2,}(Normal|Warning)\s{2,}(\S+)\s{2,}(\S+)\s{2,}(\S.*)$/.exec(line);
  if (!m) return null;
  return { format: 'kubectl-get-events', level: m[2] === 'Warning' ? 'warning' : 'info', message: m[5], fields: { lastSeen: m[1], type: m[2], reason: m[3], object: m[4] } };
}

const E2E = /^\w{3} +\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)?: (\w+): At (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) ([+-]\d{4}) \w+ - event for ([^:]+): \{(\S+) ?([^}]*)\} (\w+): (.*)$/;

export function readE2eEvent(line: string): LineRead | null {
  const m = E2E.exec(line);
  if (!m) return null;
  const warn = /^(Failed|BackOff|Unhealthy|Evicted|NetworkNotReady|FailedCreatePodSandBox|FailedMount|Killing)/.test(m[12]);
  return {
    format: 'e2e-events',
    time: full(m[2], m[3], m[4], m[5], m[6], m[7], undefined, m[8]),
    level: warn ? 'warning' : 'info',
    message: m[13],
    fields: { object: m[9], source: m[10], ...(m[11] ? { node: m[11] } : {}), reason: m[12] },
  };
}

const PS_STREAM = /^(VERBOSE|WARNING|DEBUG|ERROR|WARNUNG|AUSFÜHRLICH|AVERTISSEMENT|COMMENTAIRES|ADVERTENCIA|DETALLADO|警告|详细信息|詳細)\s?:\s?(.*)$/;

export function readPowerShell(line: string): LineRead | null {
  const m = PS_STREAM.exec(line);
  if (!m) return null;
  return { format: 'powershell', level: normaliseLevel(m[1]), message: m[2] };
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
