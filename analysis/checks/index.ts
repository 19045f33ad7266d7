// The checks catalogue (README.md here lists each id with what it looks at). `runChecks` runs every
// check on its own: one that throws on an odd model becomes an info finding, never a crash; one that
// spends its budget of work (budget.ts) is reported "not evaluated: over budget".
import type { NodeModel } from '../../parsers/model/types.ts';
import { platformName } from '../platform/name.ts';
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { checkContext } from './context.ts';
import { DEFAULT_BUDGET, OverBudgetError, seconds, WorkBudget, withBudget, type BudgetOptions } from '../budget.ts';
import { detectPlatform, type Platform, type SkippedCheck } from '../platform/index.ts';
import { outboundNatCheck } from './outboundnat.ts';
import { gatewayCheck } from './gateway.ts';
import { remoteSubnetsCheck } from './remote-subnets.ts';
import { lbHnsCheck } from './lb-hns.ts';
import { lbVfpCheck } from './lb-vfp.ts';
import { dsrRulesCheck } from './dsr-rules.ts';
import { dnsCheck } from './dns.ts';
import { endpointsCheck } from './endpoints.ts';
import { apipaCheck, blockedPortCheck, ephemeralPortsCheck } from './node.ts';
import { driftCheck } from './drift.ts';
import { cniCheck } from './cni.ts';
import { k8sCheck } from './k8s.ts';
import { k8sServicesCheck } from './k8s-services.ts';
import { internalTrafficPolicyCheck } from './internal-traffic-policy.ts';
import { portCapacityCheck } from './port-capacity.ts';
import { k8sNodesCheck } from './k8s-nodes.ts';
import { calicoDefaultDenyCheck, duplicatePodIpCheck } from './cni-leftovers.ts';
import { networkPolicyCheck } from './network-policy.ts';
import { logsCheck } from './logs.ts';
import { plural } from '../../parsers/text/quantities.ts';

export const CHECKS: Check[] = [
  outboundNatCheck,
  gatewayCheck,
  remoteSubnetsCheck,
  lbHnsCheck,
  lbVfpCheck,
  dsrRulesCheck,
  dnsCheck,
  endpointsCheck,
  blockedPortCheck,
  ephemeralPortsCheck,
  portCapacityCheck,
  apipaCheck,
  driftCheck,
  cniCheck,
  k8sCheck,
  k8sServicesCheck,
  internalTrafficPolicyCheck,
  k8sNodesCheck,
  calicoDefaultDenyCheck,
  duplicatePodIpCheck,
  networkPolicyCheck,
  logsCheck,
];

const ORDER = { error: 0, warning: 1, info: 2 } as const;

/** Which checks run on this node's plugin, which do not (and why), which only warn. */
export function checkApplicability(m: NodeModel, checks: Check[] = CHECKS): { run: Check[]; skipped: SkippedCheck[]; hedged: Check[]; platform: Platform } {
  const platform = detectPlatform(m);
  const run: Check[] = [];
  const skipped: SkippedCheck[] = [];
  const hedged: Check[] = [];
  for (const c of checks) {
    if (c.platforms === 'any') {
      run.push(c);
    } else if (platform.plugin === 'unknown') {
      skipped.push({ id: c.id, title: c.title, reason: `the network plugin that built this node is not known, and the check relies on its facts (${c.assumes})` });
    } else if (!c.platforms.includes(platform.plugin)) {
      skipped.push({ id: c.id, title: c.title, reason: `does not apply to ${platform.label}: it assumes ${c.assumes}` });
    } else {
      run.push(c);
      if (platform.confidence === 'low') hedged.push(c);
    }
  }
  return { run, skipped, hedged, platform };
}

/** How far runChecks is: `done` of `total` checks finished, `check` the title of the one running now. */
export interface ChecksProgress {
  done: number;
  total: number;
  check?: string;
}

/** Each check runs with a budget of its own (`budget`); `onProgress` hears before each check and once at the end. */
export function runChecks(m: NodeModel, checks: Check[] = CHECKS, budget: BudgetOptions = DEFAULT_BUDGET, opts: { onProgress?: (p: ChecksProgress) => void } = {}): Finding[] {
  const out: Finding[] = [];
  let ctx;
  let plan;
  try {
    ctx = checkContext(m);
    plan = checkApplicability(m, checks);
  } catch (e) {
    return [internal('checks', e)];
  }
  const { platform } = plan;
  const unsure = `hnsight is not sure this node runs ${platform.label} (${platform.conflicts.length ? `the bundle also points to ${[...new Set(platform.conflicts.map((c) => c.says))].slice(0, 2).join('; ')}` : 'only weak evidence names it'}), and this check relies on that plugin's facts, so it reports a warning, not an error.`;
  for (const [i, c] of plan.run.entries()) {
    opts.onProgress?.({ done: i, total: plan.run.length, check: c.title });
    const hedge = plan.hedged.includes(c);
    try {
      for (const f of withBudget(new WorkBudget(budget), () => c.run(ctx))) {
        const g = c.reads?.length ? ctx.hedge({ ...f, evidence: f.evidence.filter((e) => e.file !== '') }, ...c.reads) : { ...f, evidence: f.evidence.filter((e) => e.file !== '') };
        out.push(hedge && g.severity === 'error' ? { ...g, severity: 'warning', undecided: true, explanation: `${g.explanation} ${unsure}` } : g);
      }
    } catch (e) {
      out.push(e instanceof OverBudgetError ? overBudget(c, e) : internal(c.id, e));
    }
  }
  opts.onProgress?.({ done: plan.run.length, total: plan.run.length });
  if (plan.skipped.length) out.push(skippedFinding(platform, plan.skipped));
  return out.sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
}

function skippedFinding(p: Platform, skipped: SkippedCheck[]): Finding {
  const known = p.plugin !== 'unknown';
  return {
    id: 'checks-not-applicable',
    severity: 'info',
    area: 'node',
    undecided: !known || undefined,
    title: known ? `${plural(skipped.length, 'check')} ${skipped.length === 1 ? 'does' : 'do'} not apply to ${p.label}` : `${plural(skipped.length, 'check')} skipped: the network plugin is not known`,
    explanation: known
      ? `This node runs ${platformName(p)} (${p.confidence} confidence: ${p.evidence.filter((e) => e.plugins.length).slice(0, 2).map((e) => e.says).join('; ')}). These checks rely on another plugin's facts and were not run: ${skipped.map((s) => `${s.title} — ${s.reason}`).join('; ')}.`
      : `hnsight found nothing in the bundle that names a known network plugin (Flannel, Azure CNI, EKS vpc-bridge, Calico, Antrea, OVN-Kubernetes, nat): no HNS network or endpoint named the way a plugin names them, no CNI config, no kube-proxy setting naming the pod network, and no log written by a plugin.${p.evidence.some((e) => e.plugins.length) ? ` The bundle only narrows it down: ${[...new Set(p.evidence.filter((e) => e.plugins.length).map((e) => e.says))].slice(0, 2).join('; ')}.` : ''} Checks that depend on the plugin's gateway, routing or SNAT conventions were not run: ${skipped.map((s) => s.title).join(', ')}.`,
    fix: known ? 'None needed.' : 'Add the CNI config (C:\\etc\\cni\\net.d or the plugin\'s netconf folder) or the full network.txt to the bundle so hnsight can tell the plugin.',
    objects: skipped.map((s) => s.id),
    evidence: p.evidence.filter((e) => e.file).slice(0, 3).map((e) => ({ file: e.file, line: e.line, text: e.text })),
  };
}

function internal(id: string, e: unknown): Finding {
  return {
    id: 'check-failed',
    severity: 'info',
    area: 'node',
    undecided: true,
    title: `Check ${id} could not run on this bundle`,
    explanation: `The check stopped on something in the model it did not expect (${e instanceof Error ? e.message : String(e)}); its findings are missing. Please report it with the bundle.`,
    fix: 'None needed for the node; this is an hnsight limitation.',
    objects: [id],
    evidence: [],
  };
}

function overBudget(c: Check, e: OverBudgetError): Finding {
  return {
    id: 'check-over-budget',
    severity: 'info',
    area: 'node',
    undecided: true,
    title: `${c.title}: not evaluated (over budget)`,
    explanation: `The check stopped after ${e.over === 'steps' ? `${e.limit.toLocaleString('en-US')} steps` : `${seconds(e.limit)} s`} of work on this bundle, which holds far more objects or combinations than a node has; its findings are missing.`,
    fix: 'None needed for the node. If the bundle is genuine, inspect the objects this check covers by hand, and report it with the bundle.',
    objects: [c.id],
    evidence: [],
  };
}

export type { Check } from './types.ts';
export { DEFAULT_BUDGET, type BudgetOptions } from '../budget.ts';
export { checkContext } from './context.ts';
export { KNOWN_ERRORS } from './known-errors.ts';
export { loadedConfigs } from './cni.ts';
