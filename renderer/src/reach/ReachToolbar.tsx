// The Reachability view's filters (everything, what is dropped, what is not symmetric, what a finding
// touches), the counts after the filter, and the legend of the cells' colours and glyphs.
import type { ReachFilter, ReachTone } from '../../../analysis/view-models/reach-view.ts';
import { GLYPH, LEGEND, LEGEND_MARKS } from '../../../analysis/view-models/reach-view.ts';

interface Props {
  filter: ReachFilter;
  setFilter(f: ReachFilter): void;
  touched: { key: string; title: string; severity: string; cells: number }[];
  counts: Record<ReachTone, number>;
  sources: number;
  destinations: number;
}

const CHOICES: { kind: 'all' | 'dropped' | 'asymmetric'; label: string }[] = [
  { kind: 'all', label: 'Everything' },
  { kind: 'dropped', label: 'What is dropped' },
  { kind: 'asymmetric', label: 'Reply fails (not symmetric)' },
];

export function ReachToolbar({ filter, setFilter, touched, counts, sources, destinations }: Props) {
  const shown = Object.entries(counts).filter(([t, n]) => n > 0 && t !== 'none');
  return (
    <div className="reach-toolbar">
      <h2 className="reach-title">Reachability</h2>
      <span className="muted reach-size">
        {sources} sources × {destinations} destinations
      </span>
      <div className="reach-filters" role="radiogroup" aria-label="Show">
        {CHOICES.map((c) => (
          <button key={c.kind} type="button" role="radio" aria-checked={filter.kind === c.kind} className={`chip ${filter.kind === c.kind ? 'on' : ''}`} onClick={() => setFilter({ kind: c.kind })} data-testid={`reach-filter-${c.kind}`}>
            {c.label}
          </button>
        ))}
        <label className="reach-finding-pick">
          <span>What a finding touches</span>
          <select
            value={filter.kind === 'finding' ? filter.key : ''}
            onChange={(e) => setFilter(e.target.value ? { kind: 'finding', key: e.target.value } : { kind: 'all' })}
            disabled={!touched.length}
            data-testid="reach-filter-finding"
          >
            <option value="">{touched.length ? 'Choose a finding…' : 'No finding on any path'}</option>
            {touched.map((f) => (
              <option key={f.key} value={f.key}>
                {f.severity}: {f.title} ({f.cells} cells)
              </option>
            ))}
          </select>
        </label>
      </div>
      <span className="reach-counts" data-testid="reach-counts" aria-live="polite">
        {shown.length ? shown.map(([t, n]) => `${n} ${LEGEND.find((l) => l.tone === t)!.label.split(' (')[0].toLowerCase()}`).join(' · ') : 'no cell'}
      </span>
    </div>
  );
}

export function ReachLegend() {
  return (
    <ul className="reach-legend" aria-label="Legend">
      {LEGEND.map((l) => (
        <li key={l.tone}>
          <span className={`reach-swatch reach-tone-${l.tone}`} aria-hidden>
            {GLYPH[l.tone]}
          </span>
          {l.label}
        </li>
      ))}
      {LEGEND_MARKS.map((m) => (
        <li key={m.mark} data-testid="reach-legend-inferred">
          <span className="reach-swatch reach-mark" aria-hidden>
            <span className="reach-inferred">{m.mark}</span>
          </span>
          {m.label}
        </li>
      ))}
    </ul>
  );
}
