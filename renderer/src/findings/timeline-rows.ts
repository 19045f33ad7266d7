// The CNI ADD timeline as the view shows it: sandboxes slowest first, each step's message read out of
// its log format (a zap JSON line, a klog structured message) — never the raw line —, its offset from
// the ADD's start (never negative: a line logged before the ADD says so), the gap since the line
// before, "about" where a time has whole seconds only, and the failed ADDs grouped by pod
// (analysis/timeline addFailures). Pure, unit-tested.
import type { SandboxTimeline, TimelineStep } from '../../../analysis/timeline/types.ts';
import { formatMs } from './model.ts';

export function sandboxTitle(t: Pick<SandboxTimeline, 'pod' | 'sandboxId'>): string {
  if (t.pod) return t.pod.namespace ? `${t.pod.namespace}/${t.pod.name}` : t.pod.name;
  return `sandbox ${t.sandboxId.slice(0, 12)}…`;
}

/**
 * A row's name split so its end stays in view when the row is too narrow: pods of one deployment
 * differ only at the end ("default/sample-win-app-6c8d9f5b7-x2kqz"), so the head is cut with an
 * ellipsis and the tail (the name's last segment, at most 14 characters, at least 6) is always drawn.
 */
export function nameParts(name: string): { head: string; tail: string } {
  if (name.length <= 16) return { head: name, tail: '' };
  const dash = Math.max(name.lastIndexOf('-'), name.lastIndexOf('/'));
  const seg = name.length - dash;
  const keep = dash > 0 && seg >= 6 && seg <= 14 ? seg : Math.min(14, Math.floor(name.length / 2));
  return { head: name.slice(0, name.length - keep), tail: name.slice(name.length - keep) };
}

/** A time measured on a line with whole seconds is not known to the millisecond: say "about". */
export function durationText(ms: number, approximate: boolean): string {
  if (!approximate) return formatMs(ms);
  if (ms < 1000) return 'under 1 s';
  return `about ${Math.round(ms / 1000)} s`;
}

/** An offset from the ADD's start: `+1.234 s`, or `about +2 s` / `within 1 s` on whole-second lines. */
export function offsetText(ms: number, approximate: boolean): string {
  if (!approximate) return ms === 0 ? '+0 ms' : `+${formatMs(ms)}`;
  return ms < 1000 ? 'within 1 s' : `about +${Math.round(ms / 1000)} s`;
}

const coarse = (s: TimelineStep | undefined) => (s?.resolutionMs ?? 0) >= 1000;

/** The ADD's duration as the row shows it: from its start to its end, else first to last timed step;
 * none when the ADD started and no end is logged (its time is not known, not a few milliseconds). */
export function sandboxDuration(t: SandboxTimeline): { ms: number; approximate: boolean } | undefined {
  const timed = t.steps.filter((s) => s.at !== undefined);
  if (timed.length < 2) return undefined;
  if (t.add !== undefined && t.addStart !== undefined && t.addEnd !== undefined) {
    return { ms: Math.max(0, t.add), approximate: coarse(t.steps[t.addStart]) || coarse(t.steps[t.addEnd]) };
  }
  if (t.addStart !== undefined && t.addEnd === undefined) return undefined;
  const first = timed[0];
  const last = timed[timed.length - 1];
  return { ms: Math.max(0, last.at! - first.at!), approximate: coarse(first) || coarse(last) };
}

/**
 * After the ADD ended, until the last line logged for the sandbox (kubelet's "Created PodSandbox"):
 * time the pod waited outside the CNI plugin. Said only for an ADD that succeeded, and only when the
 * wait is longer than the ADD itself.
 */
export function afterAdd(t: SandboxTimeline): { ms: number; approximate: boolean; to: TimelineStep } | undefined {
  // After a failed ADD the runtime reports the failure and retries later: no pod waited on a network.
  if (t.addEnd === undefined || t.outcome !== 'succeeded') return undefined;
  const end = t.steps[t.addEnd];
  const last = [...t.steps].reverse().find((s) => s.at !== undefined);
  if (!last || last === end || end.at === undefined || last.at! <= end.at) return undefined;
  const ms = last.at! - end.at;
  const dur = sandboxDuration(t);
  if (!dur || ms <= Math.max(dur.ms, coarse(end) || coarse(last) ? 1000 : 0)) return undefined;
  return { ms, approximate: coarse(end) || coarse(last), to: last };
}

/** From the ADD's start to the sandbox's last logged line: what the pod waited for, ADD or not. */
function sandboxSpan(t: SandboxTimeline): number | undefined {
  const d = sandboxDuration(t)?.ms;
  return d === undefined ? undefined : d + (afterAdd(t)?.ms ?? 0);
}

/** Slowest sandbox first (its ADD and the wait after it), sandboxes without a duration last; on a tie, failed first. */
export function timelineOrder(list: readonly SandboxTimeline[]): SandboxTimeline[] {
  const o = { failed: 0, unknown: 1, succeeded: 2 } as const;
  return [...list]
    .map((t) => ({ t, d: sandboxSpan(t), a: sandboxDuration(t)?.ms }))
    .sort((a, b) => (b.d ?? -1) - (a.d ?? -1) || (b.a ?? -1) - (a.a ?? -1) || o[a.t.outcome] - o[b.t.outcome] || sandboxTitle(a.t).localeCompare(sandboxTitle(b.t)))
    .map((x) => x.t);
}

/** Each step's place on the time axis as a fraction 0..1 (undefined when the step has no time). */
export function axisPositions(t: Pick<SandboxTimeline, 'steps'>): (number | undefined)[] {
  const total = Math.max(0, ...t.steps.map((s) => s.at ?? 0));
  return t.steps.map((s) => (s.at === undefined ? undefined : total > 0 ? s.at / total : 0));
}

const ID64 = /\b[0-9a-f]{64}\b/g;
/** A 64-hex container or sandbox ID shortened the way docker and crictl print IDs. */
const shortIds = (s: string) => s.replace(ID64, (id) => `${id.slice(0, 12)}…`);

/** A quoted value without its quotes and escapes; one the log cut before its closing quote keeps what is there. */
function unquote(v: string): string {
  if (!v.startsWith('"')) return v;
  const closed = v.length >= 2 && v.endsWith('"') && !v.endsWith('\\"');
  return (closed ? v.slice(1, -1) : v.slice(1)).replace(/\\"/g, '"').replace(/\\\\/g, '\\');
}

// key=value, the value quoted (with escapes; running to the end of a message the log cut) or bare.
const KEY_VALUE = /([A-Za-z_][\w.-]*)=("(?:[^"\\]|\\.)*(?:"|$)|\S+)/g;

/**
 * A log message as a person reads it: its text and its key=value fields. A zap or JSON line whose
 * message is still JSON gives its `msg`; a klog structured message (`"Created PodSandbox" pod="a/b"`)
 * gives the quoted text and the pairs after it.
 */
export function messageParts(message: string): { text: string; fields: [string, string][]; json?: string } {
  const m = message.trim();
  // logrus text (containerd): `level=debug msg="Sandbox config …" key=value`.
  if (/(?:^|\s)msg=/.test(m)) {
    const pairs = [...m.matchAll(KEY_VALUE)];
    const msg = pairs.find((x) => x[1] === 'msg');
    if (msg) {
      const fields = pairs.filter((x) => !['msg', 'level', 'time'].includes(x[1])).slice(0, 8).map((x) => [x[1], shortIds(unquote(x[2]))] as [string, string]);
      return { ...jsonTail(shortIds(unquote(msg[2]))), fields };
    }
  }
  if (m.startsWith('{') && m.endsWith('}')) {
    try {
      const o = JSON.parse(m) as Record<string, unknown>;
      const text = [o.msg, o.message, o.M, o.Message].find((v): v is string => typeof v === 'string');
      if (text !== undefined) {
        const fields = Object.entries(o)
          .filter(([k, v]) => !['msg', 'message', 'M', 'Message', 'level', 'L', 'ts', 'T', 'time', 'timestamp', 'caller', 'C'].includes(k) && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
          .slice(0, 8)
          .map(([k, v]) => [k, shortIds(String(v))] as [string, string]);
        return { text: shortIds(text), fields };
      }
    } catch {
      // Not JSON after all: shown as written.
    }
  }
  const quoted = /^"((?:[^"\\]|\\.)*)"(?:\s+(.*))?$/.exec(m);
  if (quoted) {
    const fields = [...(quoted[2] ?? '').matchAll(KEY_VALUE)].slice(0, 8).map((x) => [x[1], shortIds(unquote(x[2]))] as [string, string]);
    return { text: shortIds(unquote(`"${quoted[1]}"`)), fields };
  }
  return { ...jsonTail(shortIds(m)), fields: [] };
}

/**
 * A message that ends in a JSON document (containerd's `cni result: {…}`): the words before it, the
 * document folded as `{…}` and kept, indented when it parses, for whoever opens it.
 */
function jsonTail(text: string): { text: string; json?: string } {
  const i = text.search(/(?:^|[:=]\s?|\s)[{[]["{[]/);
  if (i < 0) return { text };
  const start = text.slice(i).search(/[{[]/) + i;
  const doc = text.slice(start);
  let json = doc;
  try {
    json = JSON.stringify(JSON.parse(doc), null, 2);
  } catch {
    // Cut by the log (a line of at most 500 characters is kept): shown as written.
  }
  const head = text.slice(0, start).trimEnd();
  return { text: `${head}${head ? ' ' : ''}${doc.startsWith('[') ? '[…]' : '{…}'}`, json };
}

const LEVEL: Record<string, string> = { warn: 'warning', warning: 'warning', err: 'error', error: 'error', fatal: 'error', panic: 'error', info: 'info', debug: 'debug', trace: 'debug' };

export interface StepRow {
  /** From the ADD's start: `start`, `+1.234 s`, `about +2 s`, `before the ADD`, or `–` without a time. */
  offset: string;
  /** Since the step before (blank for the first timed step). */
  gap: string;
  /** The named step, else the message's text. */
  label: string;
  /** The message when the label is a step's name and the message says more. */
  detail?: string;
  fields: [string, string][];
  /** A JSON document the message ends with, folded out of the text (indented when it parses). */
  json?: string;
  /** error, warning, info, debug — or undefined when the line has none. */
  level?: string;
  component: string;
  plugin: boolean;
  clock?: string;
  /** Between the ADD's start and its end. */
  inAdd: boolean;
}

export function stepRows(t: SandboxTimeline): StepRow[] {
  const startIdx = t.addStart ?? t.steps.findIndex((s) => s.at !== undefined);
  const start = t.steps[startIdx];
  const base = start?.at;
  let prevTimed: TimelineStep | undefined;
  return t.steps.map((s, i) => {
    const parts = messageParts(s.message ?? s.label);
    let offset = '–';
    if (s.at !== undefined && base !== undefined) {
      const off = s.at - base;
      // Before the ADD started (kubelet asking for the sandbox): not a negative offset.
      offset = off < 0 || i < startIdx ? 'before the ADD' : i === startIdx ? 'start' : offsetText(off, coarse(s) || coarse(start));
    }
    let gap = '';
    if (s.at !== undefined && prevTimed?.at !== undefined) gap = durationText(Math.max(0, s.at - prevTimed.at), coarse(s) || coarse(prevTimed));
    if (s.at !== undefined) prevTimed = s;
    const label = s.step ?? parts.text;
    const detail = s.step && parts.text && parts.text !== s.step ? parts.text : undefined;
    return {
      offset,
      gap,
      label,
      detail,
      fields: parts.fields,
      json: parts.json,
      level: s.level ? (LEVEL[s.level.toLowerCase()] ?? s.level.toLowerCase()) : s.error ? 'error' : undefined,
      component: s.component,
      plugin: !!s.plugin,
      // A whole-second time printed with six zero digits would claim a precision the log does not have.
      clock: s.clock && coarse(s) ? s.clock.replace(/\.0+$/, '') : s.clock,
      inAdd: t.addStart !== undefined && t.addEnd !== undefined ? i >= t.addStart && i <= t.addEnd : true,
    };
  });
}

/** The longest gap in words: how long (about, when whole seconds), between what, and whose log. */
export function longestGapText(t: SandboxTimeline): string | undefined {
  const g = t.longestGap;
  if (!g) return undefined;
  const where = g.plugin ? `, in the plugin’s own log${t.plugin ? ` (${t.plugin})` : ''}` : '';
  return `Longest gap ${durationText(g.ms, !!g.approximate)} between “${g.from}” and “${g.to}”${where}`;
}

/** The wait after the ADD in words, when it is longer than the ADD: the time went outside the plugin. */
export function afterAddText(t: SandboxTimeline): string | undefined {
  const a = afterAdd(t);
  if (!a) return undefined;
  return `Then ${durationText(a.ms, a.approximate)} after the ADD ended until “${a.to.label}” (${a.to.component}): the pod waited outside the CNI plugin`;
}
