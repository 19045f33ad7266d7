// "OutBoundNAT ExceptionList entry … on 8 pod endpoint(s)" listed 5 evidence lines and said nothing of
// the other 3 (issue #23): the check now cites every endpoint it names (bounded), and the findings
// panel shows the first lines and "N more" (renderer/src/findings/model.ts evidenceShown).
import { describe, expect, it } from 'vitest';
import { build } from '../walk/helpers.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { EVIDENCE_SHOWN, evidenceShown } from '../../../renderer/src/findings/model.ts';

describe('evidence: every endpoint a finding counts is cited', () => {
  for (const pods of [3, 8, 12]) {
    it(`the exception typo on ${pods} pods cites each of them`, () => {
      const { model } = build({ pods, faults: ['exception-list-typo'] });
      const f = runChecks(model).find((x) => x.id === 'outboundnat-exception-typo')!;
      const n = Number(/on (\d+) pod endpoint/.exec(f.title)![1]);
      expect(n).toBeGreaterThan(0);
      expect(f.evidence).toHaveLength(n);
      expect(new Set(f.evidence.map((e) => `${e.file}:${e.line}`)).size).toBe(n);
    });
  }
});

describe('evidenceShown', () => {
  it('shows the first lines and counts the rest, everything once expanded; never hides a single line', () => {
    for (let len = 0; len < 40; len++) {
      const lines = Array.from({ length: len }, (_, i) => i);
      const closed = evidenceShown(lines, false);
      expect(closed.shown.length + closed.more).toBe(len);
      expect(closed.shown).toEqual(lines.slice(0, closed.shown.length));
      if (len <= EVIDENCE_SHOWN + 1) expect(closed.more).toBe(0);
      else expect(closed.shown).toHaveLength(EVIDENCE_SHOWN);
      expect(evidenceShown(lines, true)).toEqual({ shown: lines, more: 0 });
    }
  });
});
