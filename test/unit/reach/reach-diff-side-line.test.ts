// The Compare list's line for one side of a change (sideLine): when both sides keep the verdict, the
// deciding rule and the reply, what differs comes first, so a line cut at its end still tells the two
// sides apart (review, session 11: both sides read "ambiguous by rule LB_DSR_…" and the new finding
// was past the cut). The full words (sideWords) stay for the title and the aria-label.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sideLine, sideWords } from '../../../analysis/view-models/reach-diff-view.ts';
import type { Side } from '../../../analysis/reach/diff.ts';

const RULE = 'LB_DSR_FCC02_10.0.1.5_10.1.0.10_80_8080_6';
const side = (over: Partial<Side>): Side => ({ verdict: 'ambiguous', decidingRule: RULE, reply: null, rewrites: [], nextHop: null, encap: null, findings: [], ...over });

describe('sideLine', () => {
  it('puts what differs first when verdict, rule and reply are the same', () => {
    const a = side({});
    const b = side({ findings: ['lb-stale-dip'] });
    expect(sideLine(a, b).startsWith('findings on the path: none')).toBe(true);
    expect(sideLine(b, a).startsWith('findings on the path: lb-stale-dip')).toBe(true);
  });

  it('is sideWords when the verdict, rule or reply differ, or nothing else does', () => {
    fc.assert(
      fc.property(fc.constantFrom('delivered', 'dropped', 'ambiguous'), fc.constantFrom(RULE, 'OTHER', null), fc.constantFrom(null, 'delivered', 'dropped'), fc.boolean(), (verdict, rule, reply, finding) => {
        const a = side({});
        const b = side({ verdict: verdict as Side['verdict'], decidingRule: rule, reply: reply as Side['reply'], findings: finding ? ['x'] : [] });
        const same = b.verdict === a.verdict && b.decidingRule === a.decidingRule && b.reply === a.reply;
        const first8 = (t: string) => t.slice(0, 40);
        // Both sides of a line never start with the same words unless the sides are equal.
        if (same && finding) expect(first8(sideLine(a, b))).not.toBe(first8(sideLine(b, a)));
        else expect(sideLine(b, a)).toBe(sideWords(b, a));
      }),
    );
  });
});
