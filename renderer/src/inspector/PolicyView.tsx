// A VFP port's policy: layers (in evaluation order) → groups → rules. Layers and groups collapse; a
// group shows its first 200 rules until asked for all (ports can hold thousands); a filter narrows to
// matching rules. A rule picked in search is opened, scrolled to and highlighted.
import { useEffect, useMemo, useRef, useState } from 'react';
import { ChevronDown, ChevronRight, Search, ShieldAlert } from 'lucide-react';
import type { PortPolicyView, VfpGroupView } from '../../../analysis/view-models/types.ts';
import { useApp } from '../store/app-store.ts';
import { SourceLink } from '../components/ExcerptDialog.tsx';
import { RuleRow } from './RuleRow.tsx';
import { filterPolicy, layerKey, layerRuleCount, locateRule, orderedLayers, RULE_PAGE } from './policy-model.ts';
import { plural } from '../lib/format.ts';

/** "Priority-based match" → "priority", "Longest prefix match on Destination IP" → "LPM dst IP"; full text in the tooltip. */
function shortMatch(m: string): string {
  if (/priority/i.test(m)) return 'priority';
  if (/longest prefix/i.test(m)) return `LPM${/destination/i.test(m) ? ' dst' : /source/i.test(m) ? ' src' : ''}${/ip/i.test(m) ? ' IP' : ''}`;
  return m;
}

function without(s: Set<string>, k: string): Set<string> {
  const n = new Set(s);
  n.delete(k);
  return n;
}

function GroupBlock({ g, gk, open, onToggle, showAll, onShowAll, focusName }: { g: VfpGroupView; gk: string; open: boolean; onToggle(): void; showAll: boolean; onShowAll(): void; focusName?: string }) {
  const rules = showAll ? g.rules : g.rules.slice(0, RULE_PAGE);
  return (
    <div className="vfp-group" data-group={gk}>
      <button type="button" className="vfp-group-head" onClick={onToggle} aria-expanded={open}>
        {open ? <ChevronDown size={13} aria-hidden /> : <ChevronRight size={13} aria-hidden />}
        <span className="mono vfp-name ellipsis" title={g.name}>
          {g.name}
        </span>
        <span className={`dir dir-${g.direction.toLowerCase()}`}>{g.direction}</span>
        <span className="muted">{g.ipVersion}</span>
        <span className="muted match" title={g.matchType}>
          {shortMatch(g.matchType)}
        </span>
        <span className="muted count">
          prio {g.priority ?? '–'} · {g.rules.length.toLocaleString('en-US')} rule{g.rules.length === 1 ? '' : 's'}
        </span>
      </button>
      {open && (
        <>
          {g.conditions.length > 0 && (
            <div className="group-conds mono">
              group if {g.conditions.map((c) => `${c.key} ${c.value}`).join(' · ')}
            </div>
          )}
          <ul className="rules">
            {rules.map((r, i) => (
              <RuleRow key={`${r.src.line}:${i}`} rule={r} focused={r.name === focusName} />
            ))}
          </ul>
          {!showAll && g.rules.length > RULE_PAGE && (
            <button type="button" className="btn small show-all" onClick={onShowAll}>
              Show all {plural(g.rules.length, 'rule')} ({(g.rules.length - RULE_PAGE).toLocaleString('en-US')} more)
            </button>
          )}
        </>
      )}
    </div>
  );
}

export function PolicyView({ policy }: { policy: PortPolicyView }) {
  const ruleFocus = useApp((s) => s.ruleFocus);
  const [filter, setFilter] = useState('');
  const layers = useMemo(() => orderedLayers(policy), [policy]);
  const shown = useMemo(() => filterPolicy(layers, filter), [layers, filter]);
  const big = policy.ruleCount > 400;
  // Open/closed state per layer and group key; big ports start closed so the panel stays light.
  const [closed, setClosed] = useState<Set<string>>(() => new Set());
  const [opened, setOpened] = useState<Set<string>>(() => new Set());
  const [showAll, setShowAll] = useState<Set<string>>(() => new Set());
  const root = useRef<HTMLDivElement>(null);
  const filtering = !!filter.trim();

  const isOpen = (k: string) => (filtering ? !closed.has(k) : big ? opened.has(k) : !closed.has(k));
  const toggle = (k: string) => {
    if (isOpen(k)) {
      setClosed((s) => new Set(s).add(k));
      setOpened((s) => without(s, k));
    } else {
      setOpened((s) => new Set(s).add(k));
      setClosed((s) => without(s, k));
    }
  };

  // Open the way to the rule a search hit named, then scroll to it.
  useEffect(() => {
    if (!ruleFocus) return;
    setFilter('');
    const loc = locateRule(layers, ruleFocus);
    if (!loc) return;
    const li = layers.findIndex((l) => l.id === loc.layer);
    const lk = layerKey(layers[li], li);
    const gi = layers[li].groups.findIndex((g) => g.id === loc.group);
    const gk = `${lk}/${gi}`;
    setOpened((s) => new Set(s).add(lk).add(gk));
    setClosed((s) => without(without(s, lk), gk));
    if (loc.index >= RULE_PAGE) setShowAll((s) => new Set(s).add(gk));
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const el = root.current?.querySelector<HTMLElement>(`li.rule[data-rule="${CSS.escape(loc.rule.name)}"]`);
        el?.scrollIntoView({ block: 'center' });
      }),
    );
  }, [ruleFocus, layers]);

  return (
    <section className="insp-section policy" ref={root} data-testid="policy">
      <div className="policy-head">
        <h3>VFP policy</h3>
        <span className="muted">
          {layers.length} layer{layers.length === 1 ? '' : 's'} · {plural(policy.ruleCount, 'rule')}
        </span>
        {policy.blocked && (
          <span className="badge error">
            <ShieldAlert size={11} aria-hidden /> port blocked
          </span>
        )}
        <SourceLink file={policy.src.file} line={policy.src.line} />
      </div>
      <div className="filter-box">
        <Search size={14} aria-hidden />
        <input className="input" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Filter rules: name, IP, port, type…" aria-label="Filter this port's rules" data-testid="rule-filter" />
      </div>
      {Object.keys(policy.portState).length > 0 && (
        <details className="port-state">
          <summary>Port state</summary>
          <dl className="mono">
            {Object.entries(policy.portState).map(([k, v]) => (
              <div key={k} className={k === 'Blocked' && v.toUpperCase() === 'TRUE' ? 'error-text' : ''}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      {shown.length === 0 && <div className="empty-note">{filtering ? `No rule matches “${filter}”.` : 'This port has no layers in the bundle.'}</div>}
      {shown.map((l) => {
        const li = layers.findIndex((x) => x.id === l.id && x.name === l.name);
        const lk = layerKey(l, li);
        const open = isOpen(lk);
        return (
          <div className="vfp-layer" key={lk}>
            <button type="button" className="vfp-layer-head" onClick={() => toggle(lk)} aria-expanded={open}>
              {open ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
              <span className="mono vfp-name ellipsis" title={l.name}>
                {l.name}
              </span>
              {l.flags.map((f) => (
                <span key={f} className="rule-flag">
                  {f}
                </span>
              ))}
              <span className="muted count">
                prio {l.priority ?? '–'} · {l.groups.length} group{l.groups.length === 1 ? '' : 's'} · {plural(layerRuleCount(l), 'rule')}
              </span>
            </button>
            {open &&
              l.groups.map((g) => {
                const gi = layers[li]?.groups.findIndex((x) => x.id === g.id && x.name === g.name) ?? 0;
                const gk = `${lk}/${gi}`;
                return (
                  <GroupBlock
                    key={gk}
                    g={g}
                    gk={gk}
                    open={isOpen(gk)}
                    onToggle={() => toggle(gk)}
                    showAll={showAll.has(gk)}
                    onShowAll={() => setShowAll((s) => new Set(s).add(gk))}
                    focusName={ruleFocus?.name}
                  />
                );
              })}
          </div>
        );
      })}
    </section>
  );
}
