// The DSR load balancer's healthy twin both DSR tests build (test/unit/checks/dsr-rules.test.ts,
// test/unit/services-table/services-dsr.test.ts), written once: the hand-written overlay bundle
// with walk scenario b12's edits (the LB_DSR rule keeps the VIP; the backend's NAT_ rule) plus the
// ALLOW_NAT_ rule. The rules a local backend needs are microsoft/SDN
// Kubernetes/windows/debug/networkmonitor/networkhealth.ps1, DSRLoadBalancerPolicyVfpRules:
// NAT_…_<VIP>_<port>_<proto> in SLB_NAT_LAYER / SLB_GROUP_NAT_IPv4_IN and ALLOW_NAT_…_<VIP>_<port>_<proto>
// in SLB_GROUP_NAT_IPv4_OUT.
import path from 'node:path';
import { readFileSync } from 'node:fs';

export const DSR_BASE = path.resolve('test/fixtures/foreign/ws2022-overlay-2024');
export const DSR_BACKEND_PORT = '5790C9AE-58CE-4CAF-A623-B8671B602673';

/** One text edit of a bundle file: replace `find` (searched from `at`), or insert after it. */
export interface Edit {
  file: string;
  at?: string | string[];
  find: string | string[];
  replace?: string | string[];
  insertAfter?: string | string[];
}
export const editText = (v: string | string[]) => (Array.isArray(v) ? v.join('\n') : v);
const b12 = JSON.parse(readFileSync(path.resolve('test/fixtures/walk-scenarios/scenarios/b12-dsr-backend-nat.json'), 'utf8')) as { edits: Edit[] };

const ALLOW_NAT: Edit = {
  file: 'vfpOutput.txt',
  at: ['Policy for port : ', DSR_BACKEND_PORT],
  find: ['  GROUP : SLB_GROUP_NAT_IPv4_OUT', '      Friendly name : SLB_GROUP_NAT_IPv4_OUT', '      Priority : 300', '      Direction : OUT', '      Type : IPv4', '        Conditions:', '            <none>', '      Match type : Longest prefix match on Destination IP', '', ''],
  insertAfter: ['    RULE : ALLOW_NAT_B1393_10.98.201.5_9182_6', '        Friendly name : ALLOW_NAT_B1393_10.98.201.5_9182_6', '        Priority : 100', '        Flags : 1 terminating', '        Type : allow', '        Conditions:', '            Protocols : 6', '            Source IP : 10.244.2.12', '            Source ports : 9182', '        FlagsEx : 0 ', '', ''],
};

/** Applies one edit; throws when its text is not there (a fixture changed under the test). */
export function applyEdit(body: string, e: Edit): string {
  const from = e.at ? body.indexOf(editText(e.at)) : 0;
  const i = body.indexOf(editText(e.find), Math.max(0, from));
  if (from < 0 || i < 0) throw new Error(`edit not applicable: ${editText(e.find).slice(0, 60)}`);
  const end = i + editText(e.find).length;
  return e.replace !== undefined ? body.slice(0, i) + editText(e.replace) + body.slice(end) : body.slice(0, end) + editText(e.insertAfter!) + body.slice(end);
}

/** The twin's edits (and `extra`); `drop` leaves out the rule of that name. */
export function dsrTwinEdits(drop?: 'NAT_B1393' | 'ALLOW_NAT_B1393', extra: Edit[] = []): Edit[] {
  return [...b12.edits, ALLOW_NAT, ...extra].filter((e) => !(drop && editText(e.insertAfter ?? '').includes(`RULE : ${drop}_`)));
}

/** A file's text with the edits that concern it applied. */
export const editFile = (edits: Edit[], file: string, body: string) => edits.filter((e) => e.file === file).reduce(applyEdit, body);
