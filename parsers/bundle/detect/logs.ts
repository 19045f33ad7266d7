// Log text of any component the log reader knows (parsers/logs/line-formats.ts): the share of lines
// that are log lines decides, the component comes from the words they use.
import { readLogLine } from '../../logs/line-formats.ts';
import { componentFromContent } from '../../logs/components.ts';
import type { LogFormat } from '../../logs/types.ts';
import { at, clamp, nonBlankLines, type Detection, type Sample } from './types.ts';

const FORMAT_NAMES: Record<LogFormat, string> = {
  klog: 'klog', cri: 'klog/logrus in the CRI log format', logrus: 'logrus', zap: 'zap JSON', calico: 'Calico', azure: 'Azure CNI', iso: 'timestamped',
  'event-table': 'Windows event log (Get-WinEvent table)', 'kubectl-events': 'kubectl describe events', 'kubectl-get-events': 'kubectl get events',
  'e2e-events': 'Kubernetes e2e event dump', powershell: 'PowerShell console output', text: 'text',
};

export function detectLog(s: Sample): Detection | null {
  const sample = nonBlankLines(s).slice(0, 300);
  if (sample.length === 0) return null;
  const counts = new Map<LogFormat, number>();
  let matched = 0;
  let covered = 0;
  let first = -1;
  for (const [i, line] of sample) {
    const r = readLogLine(line.length > 4000 ? line.slice(0, 4000) : line);
    if (!r) {
      // After a log line, indented or bracket lines continue it (go-spew dumps, hexdumps, wraps);
      // a `{` or `[` at the start of a line opens a document of its own (JSON printed after a log line).
      if (/^[[{]/.test(line)) break;
      if (first >= 0 && /^(\s|[)}\]])/.test(line)) covered++;
      continue;
    }
    matched++;
    covered++;
    if (first < 0) first = i;
    counts.set(r.format, (counts.get(r.format) ?? 0) + 1);
  }
  const headers = sample.filter(([, l]) => /^\s*(TimeCreated\s+Id\s+LevelDisplayName|Type\s+Reason\s+Age\s+From\s+Message|LAST SEEN\s+TYPE\s+REASON|Events:\s*$)/.test(l)).length;
  const [top] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (matched === 0 || !top) return null;
  const [format] = top;
  const share = covered / sample.length;
  const weak = format === 'powershell' || format === 'iso';
  const score = clamp((weak ? 0.2 : 0.45) + share * 0.45 + Math.min(0.15, (matched - 1) * 0.05) + (headers ? 0.2 : 0));
  const component = format === 'event-table' ? 'eventlog' : /events/.test(format) ? 'events' : componentFromContent(sample.map(([, l]) => l));
  return {
    kind: 'log',
    format: `${FORMAT_NAMES[format]}${component !== 'other' && component !== 'events' && component !== 'eventlog' ? ` (${component})` : ''}`,
    score,
    reason: `${matched} of the first ${sample.length} lines are ${FORMAT_NAMES[format]} lines, from ${at(first)}`,
  };
}
