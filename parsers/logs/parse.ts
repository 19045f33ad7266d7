// Reads kubelet/kube-proxy (klog), containerd (logrus key=value), Azure CNI (`2025/03/14 07:14:01
// [pid] [cni-net] …`), Antrea/flannel (klog, sometimes with the level letter and date cut off as in
// the seeds), Calico (`2023-04-06 10:15:26.814 [INFO][pid] file.go 12: …`) logs. Only lines about CNI,
// sandboxes, HNS or errors are kept, each with its time, IDs and pod.
import { IssueSink, type ParseResult } from '../types.ts';
import type { LogComponent, LogEvent, LogFile, LogTime } from './types.ts';

const MAX_EVENTS = 50_000;
const RELEVANT = /cni|cmdadd|cmddel|sandbox|add command|del command|\b[0-9a-f]{64}\b|hns|hcn|endpoint|network ?plugin|networkready|failed|error|\bE\d{4}\b|level=(error|warn)|ovs port|ip address|subnet added/i;

export function componentFromName(file: string): LogComponent | undefined {
  const b = (file.split(/[\\/]/).pop() ?? '').toLowerCase();
  if (/kubelet/.test(b)) return 'kubelet';
  if (/kube-?proxy/.test(b)) return 'kube-proxy';
  if (/containerd/.test(b)) return 'containerd';
  if (/azure-vnet|azure-cns|azurecni/.test(b)) return 'azure-cni';
  if (/antrea/.test(b)) return 'antrea';
  if (/calico|felix/.test(b)) return 'calico';
  if (/flannel/.test(b)) return 'flannel';
  if (/win-bridge|win-overlay|sdnbridge|sdnoverlay|\bcni\b|cni\.log/.test(b)) return 'cni';
  return undefined;
}

function componentFromContent(sample: string): LogComponent {
  if (/\[cni-net\]|\[azure-vnet\]|\[net\] /.test(sample)) return 'azure-cni';
  if (/Received CmdAdd request|antrea/i.test(sample)) return 'antrea';
  if (/Calico CNI|\[INFO\]\[\d+\]|calico/i.test(sample)) return 'calico';
  if (/level=\w+ msg=/.test(sample) && /RunPodSandbox|cni setup|containerd/.test(sample)) return 'containerd';
  if (/route_network_windows|flannel/i.test(sample)) return 'flannel';
  if (/kuberuntime|pod_workers|kubelet/i.test(sample)) return 'kubelet';
  if (/proxier|kube-proxy|winkernel/i.test(sample)) return 'kube-proxy';
  return 'other';
}

function tod(h: string, m: string, s: string, frac?: string): number {
  const f = frac ? Number(`0.${frac}`) * 1000 : 0;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + f;
}

/** The time at the start of a line (or in logrus's `time="…"`), as precise as the line says. */
export function parseLogTime(line: string): { time?: LogTime; rest: string; level?: string; pid?: number } {
  let m: RegExpExecArray | null;
  // logrus: time="2023-04-06T10:15:26.814722Z" level=debug msg="…"
  if ((m = /\btime="(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?([^"]*)"/.exec(line))) {
    const t = tod(m[4], m[5], m[6], m[7]);
    const lv = /\blevel=(\w+)/.exec(line)?.[1]?.toLowerCase();
    return { time: { ms: Date.UTC(+m[1], +m[2] - 1, +m[3]) + t, tod: t, precision: 'full' }, rest: line, level: lv };
  }
  // ISO / Calico / azure: 2023-04-06T10:15:26.814Z, 2023-04-06 10:15:26.814, 2025/03/14 07:14:01
  if ((m = /^\s*(\d{4})[-/](\d\d)[-/](\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?\S*\s*(.*)$/.exec(line))) {
    const t = tod(m[4], m[5], m[6], m[7]);
    let rest = m[8];
    let level: string | undefined;
    let pid: number | undefined;
    const cal = /^\[(\w+)\]\[(\d+)\]\s*(.*)$/.exec(rest);
    if (cal) {
      level = cal[1].toLowerCase();
      pid = Number(cal[2]);
      rest = cal[3];
    } else {
      const az = /^\[(\d+)\]\s*(.*)$/.exec(rest);
      if (az) {
        pid = Number(az[1]);
        rest = az[2];
      }
      const lv = /^(INFO|DEBUG|WARN(?:ING)?|ERROR|FATAL)\b:?\s*(.*)$/i.exec(rest);
      if (lv) {
        level = lv[1].toLowerCase();
        rest = lv[2];
      }
    }
    if (!level && /\blevel=(\w+)/.test(rest)) level = /\blevel=(\w+)/.exec(rest)![1].toLowerCase();
    return { time: { ms: Date.UTC(+m[1], +m[2] - 1, +m[3]) + t, tod: t, precision: 'full' }, rest, level, pid };
  }
  // klog: I0314 07:12:55.002117    3964 file.go:487] msg — also the seed's damaged `0430 13:11:12.523893 4580 file.go:511 msg`
  if ((m = /^\s*([IWEF])?(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?\s+(\d+)\s+([\w.-]+:\d+)\]?\s*(.*)$/.exec(line))) {
    const t = tod(m[4], m[5], m[6], m[7]);
    const level = m[1] ? ({ I: 'info', W: 'warning', E: 'error', F: 'fatal' } as Record<string, string>)[m[1]] : undefined;
    return { time: { ms: Date.UTC(2000, +m[2] - 1, +m[3]) + t, tod: t, precision: 'monthday' }, rest: m[10], level, pid: Number(m[8]) };
  }
  // klog with the date cut off (the deep dive's excerpt): 10:15:26.814722    3620 server.go:425] msg
  if ((m = /^\s*(\d\d):(\d\d):(\d\d)(?:\.(\d+))?\s+(?:(\d+)\s+([\w.-]+:\d+)\]?\s*)?(.*)$/.exec(line))) {
    const t = tod(m[1], m[2], m[3], m[4]);
    return { time: { ms: t, tod: t, precision: 'time' }, rest: m[7], pid: m[5] ? Number(m[5]) : undefined };
  }
  const lv = /\blevel=(\w+)/.exec(line)?.[1]?.toLowerCase();
  return { rest: line, level: lv };
}

/** The pod a line names, in any of the spellings the runtimes and plugins use. */
export function podOf(line: string): { namespace?: string; name: string } | undefined {
  let m: RegExpExecArray | null;
  const ns = /K8S_POD_NAMESPACE=([\w.-]+)/.exec(line)?.[1];
  if ((m = /K8S_POD_NAME=([\w.-]+)/.exec(line))) return { namespace: ns, name: m[1] };
  if ((m = /PodSandboxMetadata\{Name:([\w.-]+),(?:Uid:[\w-]+,)?Namespace:([\w.-]+)/.exec(line))) return { namespace: m[2], name: m[1] };
  if ((m = /\bpod="([\w.-]+)\/([\w.-]+)"/.exec(line))) return { namespace: m[1], name: m[2] };
  if ((m = /for pod ([\w.-]+)/.exec(line))) return { name: m[1] };
  return undefined;
}

export function parseLogFile(text: string, file: string): ParseResult<LogFile> {
  const sink = new IssueSink(file);
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const component = componentFromName(file) ?? componentFromContent(lines.slice(0, 200).join('\n'));
  const out: LogFile = { file, component, events: [], lines: lines.length, src: sink.ref(1) };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/^\uFEFF/, '');
    if (!raw.trim() || !RELEVANT.test(raw)) continue;
    if (out.events.length >= MAX_EVENTS) {
      out.capped = true;
      sink.info(i + 1, `only the first ${MAX_EVENTS} CNI/sandbox/error lines were kept`);
      break;
    }
    const text = raw.length > 2000 ? raw.slice(0, 2000) + '…' : raw;
    const t = parseLogTime(text);
    const msgMatch = /\bmsg="((?:[^"\\]|\\.)*)"/.exec(t.rest);
    const msg = (msgMatch ? msgMatch[1].replace(/\\"/g, '"') : t.rest).trim();
    const ids = [...new Set((text.match(/\b[0-9a-f]{64}\b/g) ?? []))];
    const ev: LogEvent = { line: i + 1, text, time: t.time, level: t.level, msg, ids, pod: podOf(text), pid: t.pid };
    if (!ev.level && /^E\d{4} /.test(text)) ev.level = 'error';
    out.events.push(ev);
  }
  return { value: out, issues: sink.issues };
}
