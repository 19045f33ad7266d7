// One entry point from a JSON value to the normalised HNS object of its kind, shared by the HNS
// file parsers and hnsdiag's `-d` output. Depth-truncated members are reported once per object.

import type { IssueSink } from '../types.ts';
import type { HnsEndpoint, HnsKind, HnsLoadBalancer, HnsNamespace, HnsNetwork } from './types.ts';
import { isObj, Lossy } from './access.ts';
import { classifyHnsObject, policyListWithoutElb } from './classify.ts';
import { normaliseEndpoint } from './endpoint.ts';
import { normaliseLoadBalancer } from './load-balancer.ts';
import { normaliseNamespace } from './namespace.ts';
import { normaliseNetwork } from './network.ts';

export type NormalisedHns =
  | { kind: 'network'; value: HnsNetwork }
  | { kind: 'endpoint'; value: HnsEndpoint }
  | { kind: 'loadbalancer'; value: HnsLoadBalancer }
  | { kind: 'namespace'; value: HnsNamespace }
  | { kind: 'unknown'; value: unknown };

/**
 * Classifies `value` by shape and normalises it. `fallbackKind` is used when the shape says nothing
 * (a file whose name tells the kind, an hnsdiag section header) and the value is an object.
 */
/** How the object was printed: what a missing value means depends on it. */
export type HnsOrigin = 'json' | 'list' | 'fragment';

export function normaliseHnsObject(value: unknown, line: number, sink: IssueSink, fallbackKind?: HnsKind, origin: HnsOrigin = 'json'): NormalisedHns {
  let kind = classifyHnsObject(value);
  const noElb = policyListWithoutElb(value);
  if (noElb) {
    // Not taken for a load balancer even in policy.txt: it has no frontend and no backends to balance.
    sink.info(line, `a policy list without an ELB policy (${noElb.join(', ')}): not a load balancer, not counted`);
    return { kind: 'unknown', value };
  }
  if (kind === 'unknown' && fallbackKind && isObj(value)) kind = fallbackKind;
  if (!isObj(value) || kind === 'unknown') return { kind: 'unknown', value };
  const lossy = new Lossy();
  const src = sink.ref(line);
  let out: NormalisedHns;
  switch (kind) {
    case 'network':
      out = { kind, value: normaliseNetwork(value, src, lossy) };
      break;
    case 'endpoint':
      out = { kind, value: normaliseEndpoint(value, src, lossy) };
      break;
    case 'loadbalancer':
      out = { kind, value: normaliseLoadBalancer(value, src, lossy) };
      break;
    case 'namespace':
      out = { kind, value: normaliseNamespace(value, src, lossy) };
      break;
  }
  if (out.value.id === '') sink.warn(line, origin === 'fragment' ? `HNS ${kind} without its ID: the pasted text starts after it` : `HNS ${kind} has no ID`);
  if (lossy.truncated.length > 0) {
    const why = origin === 'list'
      ? 'not printed by PowerShell\'s list view (System.Object[], read as empty; ConvertTo-Json -Depth 10 shows them)'
      : 'cut by ConvertTo-Json -Depth (read as empty)';
    sink.warn(line, `HNS ${kind} ${out.value.id}: values ${why}: ${lossy.truncated.join(', ')}`);
  }
  if (lossy.refused.length > 0) sink.warn(line, `HNS ${kind} ${out.value.id}: numbers not read: ${lossy.refused.join('; ')}`);
  return out;
}
