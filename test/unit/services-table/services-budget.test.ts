// Service rows over the analysis budget (issue #26): inspect (text and --json) and the report say the
// Services were not worked out, in the checks' "not evaluated: over budget" wording, instead of showing
// no Service at all (which reads as "the snapshot has none"). A tiny budget forces it.
import { describe, expect, it } from 'vitest';
import { buildPlatform } from '../platforms/helpers.ts';
import { inspectDocument } from '../../../analysis/inspect.ts';
import { buildReport } from '../../../analysis/report/build.ts';
import { renderMarkdown } from '../../../analysis/report/markdown.ts';
import { renderHtml } from '../../../analysis/report/html.ts';
import { formatServicesText } from '../../../cli/format/services-text.ts';

const tiny = { maxSteps: 10 };
const wrap = (t: string, indent: number) => [' '.repeat(indent) + t];

describe('Service rows over the analysis budget', () => {
  // A fresh node each time: what a node has worked out once is kept with it and costs nothing again.
  const fresh = () => buildPlatform('flannel-host-gw', { services: 20, seed: 3 }).model;

  it('inspect --json: no rows, and a field scripts can read saying why', () => {
    const doc = inspectDocument(fresh(), [], tiny);
    expect(doc.services).toEqual([]);
    expect(doc.servicesNotEvaluated?.reason).toBe('over budget');
    expect(doc.servicesNotEvaluated?.message).toMatch(/^Services: not evaluated: over budget: more than 10 steps of work/);
    // Within the default budget the rows are there and nothing is said.
    const whole = inspectDocument(fresh());
    expect(whole.services.length).toBeGreaterThan(0);
    expect(whole.servicesNotEvaluated).toBeUndefined();
  });

  it('inspect text: the sentence, not an absent section', () => {
    const text = formatServicesText(inspectDocument(fresh(), [], tiny), { verbose: false }, wrap).join('\n');
    expect(text).toContain('Services: not evaluated: over budget');
  });

  it('the report (Markdown and HTML) says it under its Services heading', () => {
    // No checks first: they would have worked the rows out already (kept with the node).
    const doc = buildReport(fresh(), { serviceBudget: tiny, findings: [] });
    expect(doc.services).toEqual([]);
    expect(doc.servicesNotEvaluated).toMatch(/not evaluated: over budget/);
    const md = renderMarkdown(doc);
    expect(md.slice(md.indexOf('## Services on this node'))).toContain('Services: not evaluated: over budget');
    expect(renderHtml(doc)).toMatch(/<h2 id="services">Services on this node<\/h2><p class="svc-unknown">Services: not evaluated: over budget|Services on this node<\/h2>\s*<p class="svc-unknown">Services: not evaluated/);
    expect(buildReport(fresh()).servicesNotEvaluated).toBeUndefined();
  });
});
