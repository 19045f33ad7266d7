// The checks catalogue (README.md here lists each id with what it looks at). `runChecks` runs every
// check on its own: one that throws on an odd model becomes an info finding, never a crash; one that
// spends its budget of work (budget.ts) is reported "not evaluated: over budget".
import type { NodeModel } from '../../parsers/model/types.ts';
import type { Finding } from '../inspect.ts';
import type { Check } from './types.ts';
import { checkContext } from './context.ts';
import { DEFAULT_BUDGET, OverBudgetError, seconds, WorkBudget, withBudget, type BudgetOptions } from './budget.ts';
import { outboundNatCheck } from './outboundnat.ts';
import { gatewayCheck } from './gateway.ts';
import { remoteSubnetsCheck } from './remote-subnets.ts';
import { lbHnsCheck } from './lb-hns.ts';
import { lbVfpCheck } from './lb-vfp.ts';
import { dnsCheck } from './dns.ts';
import { endpointsCheck } from './endpoints.ts';
import { apipaCheck, blockedPortCheck, ephemeralPortsCheck } from './node.ts';
import { driftCheck } from './drift.ts';
import { cniCheck } from './cni.ts';
import { k8sCheck } from './k8s.ts';
import { logsCheck } from './logs.ts';

export const CHECKS: Check[] = [
  outboundNatCheck,
  gatewayCheck,
  remoteSubnetsCheck,
  lbHnsCheck,
  lbVfpCheck,
  dnsCheck,
  endpointsCheck,
  blockedPortCheck,
  ephemeralPortsCheck,
  apipaCheck,
  driftCheck,
  cniCheck,
  k8sCheck,
  logsCheck,
];

const ORDER = { error: 0, warning: 1, info: 2 } as const;

export function runChecks(m: NodeModel, checks: Check[] = CHECKS, budget: BudgetOptions = DEFAULT_BUDGET): Finding[] {
  const out: Finding[] = [];
  let ctx;
  try {
    ctx = checkContext(m);
  } catch (e) {
    return [internal('checks', e)];
  }
  for (const c of checks) {
    try {
      for (const f of withBudget(new WorkBudget(budget), () => c.run(ctx))) out.push({ ...f, evidence: f.evidence.filter((e) => e.file !== '') });
    } catch (e) {
      out.push(e instanceof OverBudgetError ? overBudget(c, e) : internal(c.id, e));
    }
  }
  return out.sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
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
export { DEFAULT_BUDGET, type BudgetOptions } from './budget.ts';
export { checkContext } from './context.ts';
export { KNOWN_ERRORS } from './known-errors.ts';
export { loadedConfigs } from './cni.ts';
