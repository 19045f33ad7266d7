// Builds per-sandbox CNI ADD timelines from containerd (RunPodSandbox → begin cni setup → cni result),
// CNI agent logs (Antrea "Received CmdAdd request" → "CmdAdd … succeeded", Azure CNI "Processing ADD
// command" → "ADD command completed", Calico, win-bridge/win-overlay) and kubelet's sandbox lines.
// A line belongs to a sandbox when it names its ID (or the 8-hex prefix Azure CNI puts in endpoint names).
import type { LogEvent, LogFile } from '../../parsers/logs/index.ts';
import type { SandboxTimeline, TimelineStep } from './types.ts';

const START = /Received CmdAdd request|Processing ADD command|begin cni setup|Calico CNI .*ADD|CmdAdd|RunPodSandbox for|cmdAdd|ADD command/i;
const SUCCESS = /CmdAdd .*succeeded|ADD command completed.*err:<nil>|cni result|returns sandbox id|Created PodSandbox|Wrote updated endpoint|Calico CNI .*ADD.*(succeed|complete)/i;
const FAIL = /failed|error|err:(?!<nil>)/i;
/** Lines that end a CNI ADD (success or the plugin's failure), as opposed to the sandbox around it. */
const ADD_END = /CmdAdd .*succeeded|ADD command completed|cni result|failed \(add\)|failed to setup network|CmdAdd .*failed/i;

interface Tagged {
  ev: LogEvent;
  file: LogFile;
}

function label(msg: string): string {
  let s = msg
    .replace(/\b[0-9a-f]{64}\b/g, '…')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '…')
    .replace(/^"|"$/g, '');
  const cut = s.search(/ (cni_args|with args|result=|container=|podsandboxid=|&Pod|\{)/);
  if (cut > 10) s = s.slice(0, cut);
  return s.length > 90 ? s.slice(0, 87) + '…' : s.trim();
}

function clock(tod: number): string {
  const h = Math.floor(tod / 3_600_000);
  const mi = Math.floor((tod % 3_600_000) / 60_000);
  const s = (tod % 60_000) / 1000;
  return `${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:${s.toFixed(6).padStart(9, '0')}`;
}

export function buildTimelines(logs: LogFile[]): SandboxTimeline[] {
  const all: Tagged[] = logs.flatMap((f) => f.events.map((ev) => ({ ev, file: f })));
  const byId = new Map<string, Tagged[]>();
  const pods = new Map<string, { namespace?: string; name: string }>();
  // Sandboxes are the IDs that appear on a CNI ADD start line.
  for (const t of all) {
    if (!START.test(t.ev.msg) && !START.test(t.ev.text)) continue;
    for (const id of t.ev.ids) if (!byId.has(id)) byId.set(id, []);
  }
  // containerd names the pod on `RunPodSandbox for &PodSandboxMetadata{…}` and the ID only later: join by pod.
  const idByPod = new Map<string, string>();
  for (const t of all) {
    if (t.ev.ids.length !== 1 || !t.ev.pod) continue;
    const id = t.ev.ids[0];
    if (byId.has(id)) {
      pods.set(id, pods.get(id) ?? t.ev.pod);
      idByPod.set(podKey(t.ev.pod), id);
    }
  }
  for (const t of all) {
    if (/generated id for sandbox name "([^"]+)"/.test(t.ev.text) && t.ev.ids.length === 1 && byId.has(t.ev.ids[0])) {
      const m = /generated id for sandbox name \\?"([\w.-]+?)_([\w.-]+?)_[0-9a-f-]{36}_\d+/.exec(t.ev.text);
      if (m) {
        const p = { namespace: m[2], name: m[1] };
        pods.set(t.ev.ids[0], pods.get(t.ev.ids[0]) ?? p);
        idByPod.set(podKey(p), t.ev.ids[0]);
      }
    }
  }
  const prefixes = new Map<string, string>();
  for (const id of byId.keys()) prefixes.set(id.slice(0, 8), id);
  for (const t of all) {
    const ids = new Set<string>();
    for (const id of t.ev.ids) if (byId.has(id)) ids.add(id);
    if (!ids.size) {
      const short = /\b([0-9a-f]{8})-eth\d\b/.exec(t.ev.text)?.[1];
      if (short && prefixes.has(short)) ids.add(prefixes.get(short)!);
    }
    if (!ids.size && t.ev.pod) {
      const id = idByPod.get(podKey(t.ev.pod)) ?? [...idByPod.entries()].find(([k]) => k.endsWith(`/${t.ev.pod!.name}`))?.[1];
      if (id && /RunPodSandbox|ADD command|CmdAdd|sandbox/i.test(t.ev.text)) ids.add(id);
    }
    for (const id of ids) byId.get(id)!.push(t);
  }
  const out: SandboxTimeline[] = [];
  for (const [id, tagged] of byId) {
    if (!tagged.length) continue;
    const precisions = new Set(tagged.map((t) => t.ev.time?.precision).filter(Boolean));
    const todOnly = precisions.size > 1;
    const timeOf = (t: Tagged) => (t.ev.time ? (todOnly ? t.ev.time.tod : t.ev.time.ms) : undefined);
    const sorted = tagged
      .map((t, i) => ({ t, i }))
      .sort((a, b) => {
        const x = timeOf(a.t);
        const y = timeOf(b.t);
        return x !== undefined && y !== undefined && x !== y ? x - y : a.t.file === b.t.file ? a.t.ev.line - b.t.ev.line : a.i - b.i;
      })
      .map((x) => x.t);
    // Keep one line per (file, line) — a line naming the ID twice must not count twice.
    const seen = new Set<string>();
    const uniq = sorted.filter((t) => {
      const k = `${t.file.file}:${t.ev.line}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    const t0 = uniq.map(timeOf).find((x) => x !== undefined);
    let prev: number | undefined;
    const steps: TimelineStep[] = uniq.map((t) => {
      const at = timeOf(t);
      const step: TimelineStep = {
        at: at !== undefined && t0 !== undefined ? at - t0 : undefined,
        gap: at !== undefined && prev !== undefined ? at - prev : undefined,
        label: label(t.ev.msg),
        component: t.file.component,
        file: t.file.file,
        line: t.ev.line,
        text: t.ev.text,
        clock: t.ev.time ? clock(t.ev.time.tod) : undefined,
        error: t.ev.level === 'error' || (FAIL.test(t.ev.msg) && !SUCCESS.test(t.ev.msg) && !/err:<nil>/.test(t.ev.msg)),
      };
      if (at !== undefined) prev = at;
      return step;
    });
    const failed = steps.some((s) => s.error);
    const ok = uniq.some((t) => SUCCESS.test(t.ev.msg) || SUCCESS.test(t.ev.text));
    let addEnd: number | undefined;
    steps.forEach((s, i) => {
      if (ADD_END.test(s.text)) addEnd = i;
    });
    const stop = addEnd ?? steps.length - 1;
    let longest: SandboxTimeline['longestGap'];
    for (let i = 1; i <= stop; i++) {
      const g = steps[i].gap;
      if (g !== undefined && (!longest || g > longest.ms)) longest = { ms: g, from: steps[i - 1].label, to: steps[i].label, fromIndex: i - 1, toIndex: i };
    }
    const last = [...steps].reverse().find((s) => s.at !== undefined);
    out.push({
      sandboxId: id,
      pod: pods.get(id) ?? uniq.find((t) => t.ev.pod)?.ev.pod,
      steps,
      total: last?.at,
      add: addEnd !== undefined ? steps[addEnd].at : last?.at,
      addEnd,
      outcome: failed ? 'failed' : ok ? 'succeeded' : 'unknown',
      longestGap: longest,
      timeOfDayOnly: todOnly || undefined,
    });
  }
  return out.sort((a, b) => (b.total ?? -1) - (a.total ?? -1));
}

function podKey(p: { namespace?: string; name: string }): string {
  return `${p.namespace ?? ''}/${p.name}`;
}

/** `2.495 s` / `73 ms`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(3)} s` : `${Math.round(ms * 10) / 10} ms`;
}
