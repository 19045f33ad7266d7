// One log line as the timeline needs it: time (with its resolution), level, message, key/value
// fields, process id and the sandbox IDs it names. The line itself is read once, by parsers/logs
// (every format the CNI plugins write: zap JSON of azure-vnet and azure-cns, logrus JSON of
// sdnbridge/sdnoverlay/nat, vpc-bridge's seelog, Calico's text with key="value" tails, klog,
// containerd's logrus text and its tty form); this only gives the timeline its shape. Sources per
// format: parsers/logs/line-formats.ts.
import type { LogEvent, LogFile, LogFormat } from '../../parsers/logs/index.ts';

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
  /** Which line format the log reader recognised (it tells the writer when the file name does not). */
  format: LogFormat;
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
  const t = ev.time;
  const time: LineTime | undefined = t && { ms: t.ms, resolution: t.resolution, dated: t.precision === 'full', noYear: t.precision === 'monthday', todOnly: t.precision === 'time' };
  const fields = { ...(ev.fields ?? {}) };
  const out: TimedLine = { file: file.file, component: file.component, line: ev.line, text, time, level: ev.level, message: ev.message, fields, pid: ev.pid, ids: ev.ids, pod: ev.pod, seq, format: ev.format };
  if (!out.pod) {
    const ns = fields.Namespace ?? fields.namespace;
    const pod = fields.Pod ?? fields.pod;
    const nsName = pod ? /^([\w.-]+)\/([\w.-]+)$/.exec(pod) : null;
    if (pod && !pod.includes('/') && !pod.startsWith('{')) out.pod = { namespace: ns, name: pod };
    else if (nsName?.[2]) out.pod = { namespace: nsName[1], name: nsName[2] };
  }
  return out;
}
