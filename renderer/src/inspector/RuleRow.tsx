// One VFP rule: priority, name, type and flags on the first line; conditions, rule data and
// counters below; its file:line on the right.
import { memo } from 'react';
import type { VfpRuleView } from '../../../analysis/view-models/types.ts';
import { SourceLink } from '../components/ExcerptDialog.tsx';

const TYPE_CLASS: Record<string, string> = { block: 'error', allow: 'ok', lbnat: 'info', nat: 'info', encap: 'info', routeencap: 'info' };

export const RuleRow = memo(function RuleRow({ rule, focused }: { rule: VfpRuleView; focused: boolean }) {
  const c = rule.counters;
  const hasCounters = c && Object.values(c).some((v) => v !== undefined);
  return (
    <li className={`rule ${focused ? 'focused' : ''}`} data-rule={rule.name} data-testid="rule">
      <div className="rule-line">
        <span className="rule-prio mono" title="Priority">
          {rule.priority ?? '–'}
        </span>
        <span className="rule-name mono" title={rule.name}>
          {rule.name || rule.id || '(unnamed)'}
        </span>
      </div>
      <div className="rule-meta">
        <span className={`badge ${TYPE_CLASS[rule.type] ?? ''}`}>{rule.type}</span>
        {rule.flags.map((f) => (
          <span key={f} className="rule-flag">
            {f}
          </span>
        ))}
        <SourceLink file={rule.src.file} line={rule.src.line} className="rule-src" />
      </div>
      {rule.conditions.length > 0 && (
        <div className="rule-sub">
          <span className="rule-sub-k">if</span>
          <span className="mono">
            {rule.conditions.map((k, i) => (
              <span key={i} className="cond">
                {k.key} <b>{k.value}</b>
              </span>
            ))}
          </span>
        </div>
      )}
      {rule.data.length > 0 && (
        <div className="rule-sub">
          <span className="rule-sub-k">do</span>
          <span className="mono rule-data">
            {rule.data.map((d, i) => (
              <span key={i}>{d}</span>
            ))}
          </span>
        </div>
      )}
      {hasCounters && (
        <div className="rule-sub">
          <span className="rule-sub-k">hits</span>
          <span className="mono rule-counters">
            {c!.matched !== undefined && <span className={c!.matched ? 'hot' : ''}>matched {c!.matched.toLocaleString('en-US')}</span>}
            {c!.dropped !== undefined && <span className={c!.dropped ? 'error-text' : ''}>dropped {c!.dropped.toLocaleString('en-US')}</span>}
            {c!.pending !== undefined && c!.pending > 0 && <span>pending {c!.pending.toLocaleString('en-US')}</span>}
            {c!.droppedFlows !== undefined && c!.droppedFlows > 0 && <span className="error-text">dropped flows {c!.droppedFlows.toLocaleString('en-US')}</span>}
          </span>
        </div>
      )}
    </li>
  );
});
