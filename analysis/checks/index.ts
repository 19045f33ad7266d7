// The checks catalogue (README.md here lists each id with what it looks at). `runChecks` runs every
// check on its own: one that throws on an odd model becomes an info finding, never a crash.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { Finding } from '../inspect.ts';
import type { Check } from './types.ts';
import { checkContext } from './context.ts';
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

export function runChecks(m: NodeModel, checks: Check[] = CHECKS): Finding[] {
  const out: Finding[] = [];
  let ctx;
  try {
    ctx = checkContext(m);
  } catch (e) {
    return [internal('checks', e)];
  }
  for (const c of checks) {
    try {
      for (const f of c.run(ctx)) out.push({ ...f, evidence: f.evidence.filter((e) => e.file !== '') });
    } catch (e) {
      out.push(internal(c.id, e));
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

export type { Check } from './types.ts';
export { checkContext } from './context.ts';
export { KNOWN_ERRORS } from './known-errors.ts';
export { loadedConfigs } from './cni.ts';
