// Known error messages in kubelet/containerd/CNI logs, and slow CNI ADDs from the sandbox timelines.
import type { Finding } from '../inspect.ts';
import type { Check } from './types.ts';
import { KNOWN_ERRORS } from './known-errors.ts';
import { buildTimelines, formatMs } from '../timeline/index.ts';

/** An ADD slower than this is reported (the deep dive's 5 s was the problem worth hunting). */
export const SLOW_ADD_MS = 3000;

export const logsCheck: Check = {
  id: 'logs',
  ids: [...KNOWN_ERRORS.map((k) => k.id), 'cni-add-slow'],
  title: 'Component logs',
  platforms: 'any',
  assumes: 'the messages of kubelet, containerd and the CNI plugins mean the same on every node',
  run(ctx) {
    const out: Finding[] = [];
    const logs = ctx.m.logs ?? [];
    if (!logs.length) return out;
    for (const k of KNOWN_ERRORS) {
      const hits = logs.flatMap((f) => f.events.filter((e) => k.test.test(e.text)).map((e) => ({ f, e })));
      if (!hits.length) continue;
      // One known error should not also be reported as the generic ADD failure.
      if (k.id === 'log-cni-add-failed') {
        const specific = KNOWN_ERRORS.filter((x) => x.id !== k.id);
        const rest = hits.filter(({ e }) => !specific.some((x) => x.test.test(e.text)));
        if (!rest.length) continue;
        hits.splice(0, hits.length, ...rest);
      }
      const pods = [...new Set(hits.map(({ e }) => (e.pod ? `${e.pod.namespace ? e.pod.namespace + '/' : ''}${e.pod.name}` : '')).filter(Boolean))];
      out.push({
        id: k.id,
        severity: 'error',
        area: 'logs',
        title: `${k.title} (${hits.length} line${hits.length > 1 ? 's' : ''}${pods.length ? `, ${pods.slice(0, 3).join(', ')}${pods.length > 3 ? ' …' : ''}` : ''})`,
        explanation: `${k.cause} First seen in ${hits[0].f.file}:${hits[0].e.line}${hits.length > 1 ? `, last in ${hits[hits.length - 1].f.file}:${hits[hits.length - 1].e.line}` : ''}.`,
        fix: k.fix,
        objects: pods.length ? pods : [...new Set(hits.flatMap(({ e }) => e.ids))].slice(0, 10),
        evidence: [hits[0], ...(hits.length > 1 ? [hits[hits.length - 1]] : [])].map(({ f, e }) => ({ file: f.file, line: e.line, text: e.text.length > 500 ? e.text.slice(0, 500) + '…' : e.text })),
      });
    }
    for (const t of buildTimelines(logs)) {
      if (t.add === undefined || t.add < SLOW_ADD_MS || !t.longestGap) continue;
      const g = t.longestGap;
      const from = t.steps[g.fromIndex];
      const to = t.steps[g.toIndex];
      const who = t.pod ? `${t.pod.namespace ? t.pod.namespace + '/' : ''}${t.pod.name}` : t.sandboxId.slice(0, 12);
      out.push({
        id: 'cni-add-slow',
        severity: 'warning',
        area: 'logs',
        title: `CNI ADD for ${who} took ${formatMs(t.add)}; ${formatMs(g.ms)} between "${g.from}" and "${g.to}"`,
        explanation: `The logs show ${t.steps.length} steps for sandbox ${t.sandboxId.slice(0, 12)}…; the ADD took ${formatMs(t.add)}${t.total !== undefined && t.total > t.add ? ` (${formatMs(t.total)} to the last sandbox step)` : ''}. The longest gap, ${formatMs(g.ms)}, is between "${g.from}" (${from.file}:${from.line}) and "${g.to}" (${to.file}:${to.line}): that is where the time goes. The pod's network is not ready until ADD returns, so the pod starts late (and may fail readiness probes).`,
        fix: 'Look at what the plugin does between these two steps. In the Windows CNI deep dive the gap between "Configuring IP address" and "Adding OVS port" came from PowerShell `Get-NetAdapter` calls used to wait for the container vNIC; raise the agent\'s log level (klog -v) around that call, or profile it (go pprof).',
        objects: [t.sandboxId, ...(t.pod ? [who] : [])],
        evidence: [from, to].map((s) => ({ file: s.file, line: s.line, text: s.text.length > 500 ? s.text.slice(0, 500) + '…' : s.text })),
      });
    }
    return out;
  },
};
