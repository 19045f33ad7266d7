// The analysis clock's share: 30 s unless HNSIGHT_ANALYSIS_SECONDS says otherwise within reason.
import { describe, expect, it } from 'vitest';
import { analysisMs } from '../../../services/analysis-budget.ts';

describe('the analysis clock', () => {
  it('is 30 s by default and takes HNSIGHT_ANALYSIS_SECONDS when it is a positive number up to a day', () => {
    expect(analysisMs({})).toBe(30_000);
    expect(analysisMs({ HNSIGHT_ANALYSIS_SECONDS: '300' })).toBe(300_000);
    expect(analysisMs({ HNSIGHT_ANALYSIS_SECONDS: '0.5' })).toBe(500);
    for (const bad of ['', '0', '-5', 'abc', 'Infinity', '1e9', 'NaN']) expect(analysisMs({ HNSIGHT_ANALYSIS_SECONDS: bad }), bad).toBe(30_000);
  });
});
