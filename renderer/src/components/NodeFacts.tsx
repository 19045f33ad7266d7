// The node's name and the facts that decide how to read its bundle: Windows build, HNS schema,
// vfpctrl output generation, collector, network types. Clicking the name reopens the summary.
import type { BundleSummary } from '../../../analysis/view-models/types.ts';
import { useApp } from '../store/app-store.ts';
import { Server } from 'lucide-react';

export function NodeFacts({ bundle }: { bundle: BundleSummary }) {
  const setSummaryOpen = useApp((s) => s.setSummaryOpen);
  const name = bundle.hostName ?? bundle.location.split(/[\\/]/).filter(Boolean).pop() ?? bundle.location;
  const facts: { k: string; v: string; title: string }[] = [];
  if (bundle.windowsBuild) facts.push({ k: 'build', v: bundle.windowsBuild, title: 'Windows build' });
  if (bundle.schemaVersion) facts.push({ k: 'HNS', v: bundle.schemaVersion === 'mixed' ? 'mixed v1/v2' : `schema v${bundle.schemaVersion}`, title: 'HNS schema version' });
  if (bundle.vfpGeneration) facts.push({ k: 'vfpctrl', v: bundle.vfpGeneration, title: 'vfpctrl output generation (/list-rule before 2023-04, /get-rule-counter since)' });
  if (bundle.networkTypes.length) facts.push({ k: 'net', v: bundle.networkTypes.join(', '), title: 'HNS network types' });
  if (bundle.collector) facts.push({ k: 'by', v: bundle.collector, title: 'Collector that wrote the bundle' });
  return (
    <div className="node-facts" data-testid="node-facts">
      <button type="button" className="node-name" onClick={() => setSummaryOpen(true)} title={[bundle.location, ...facts.map((f) => `${f.title}: ${f.v}`), 'Show the bundle summary'].join('\n')}>
        <Server size={15} aria-hidden />
        <span className="ellipsis">{name}</span>
      </button>
      <div className="fact-chips">
        {facts.map((f) => (
          <span key={f.k} className="chip" title={`${f.title}: ${f.v}`}>
            <span className="muted">{f.k}</span> <b className="ellipsis">{f.v}</b>
          </span>
        ))}
      </div>
    </div>
  );
}
