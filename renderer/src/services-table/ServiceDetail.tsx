// A Service port opened from the table: its state in a sentence, the lines that show it (the findings
// panel's evidence list, findings/EvidenceList.tsx: each opens the file viewer), and a walk from a
// local pod to its VIP:port (the walk panel beside the graph, its path lit, as a finding's "Walk this
// packet").
import { useEffect, useRef } from 'react';
import { Footprints, X } from 'lucide-react';
import type { ServiceTableRow } from '../../../analysis/view-models/services-table.ts';
import { backendsText, policyText } from '../../../analysis/view-models/services-table-view.ts';
import { appStore } from '../store/app-store.ts';
import { EvidenceList } from '../findings/EvidenceList.tsx';
import { flowText } from '../walk/model.ts';

export function ServiceDetail({ row, onClose }: { row: ServiceTableRow; onClose(): void }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('button.evidence-line, [data-testid="service-walk"]')?.focus();
  }, [row.key]);
  const walk = () => {
    if (!row.walk) return;
    const s = appStore.getState();
    s.setPanel('walk');
    void s.runWalk(row.walk, { focus: 'deciding' });
  };
  return (
    <section
      ref={ref}
      className={`svc-detail svc-tone-${row.tone}`}
      aria-label={`Service ${row.namespace}/${row.name} ${row.where}/${row.proto}`}
      data-testid="service-detail"
    >
      <header className="svc-detail-head">
        <h3>
          {row.namespace}/{row.name} <span className="mono">{row.where}/{row.proto}</span>
        </h3>
        <span className="svc-detail-state" data-testid="service-detail-state">
          {row.stateText}
        </span>
        <button type="button" className="btn ghost small" onClick={onClose} aria-label="Close (Esc)" title="Close (Esc)">
          <X size={14} aria-hidden />
        </button>
      </header>
      <p className="svc-detail-text">{row.detail}</p>
      <p className="muted svc-detail-facts">
        {row.type} · {backendsText(row)} · {policyText(row)}
      </p>
      {row.evidence.length > 0 && (
        <EvidenceList lines={row.evidence} testId="service-evidence" />
      )}
      {row.walk ? (
        <button type="button" className="btn small primary walk-this" onClick={walk} data-testid="service-walk">
          <Footprints size={13} aria-hidden /> Walk from a local pod <span className="mono">{flowText(row.walk)}</span>
        </button>
      ) : (
        <p className="muted">No walk: the bundle shows no local pod to send from{row.nodePort ? ', or no node address' : ''}.</p>
      )}
    </section>
  );
}
