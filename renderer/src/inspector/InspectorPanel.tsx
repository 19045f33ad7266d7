// The inspector: what the selected object is, its fields (copyable, linked), the objects it joins
// to, problems with it, its VFP policy and the raw JSON it came from, each traceable to file:line.
import { ArrowLeft, AlertTriangle, AlertOctagon, Info, MousePointerClick, Footprints } from 'lucide-react';
import { parseAddress } from '../../../parsers/net/address.ts';
import type { InspectorField, ObjectRef } from '../../../analysis/view-models/types.ts';
import { useApp } from '../store/app-store.ts';
import { CopyButton } from '../components/CopyChip.tsx';
import { SourceLink } from '../components/ExcerptDialog.tsx';
import { PolicyView } from './PolicyView.tsx';
import { RawJson } from './RawJson.tsx';
import { NoteBadge, NotesFor } from '../notes/NotesFor.tsx';
import { objectTarget } from '../notes/model.ts';

const TYPE_LABEL: Record<ObjectRef['type'], string> = {
  network: 'HNS network',
  endpoint: 'HNS endpoint',
  loadbalancer: 'Load balancer',
  namespace: 'Namespace',
  compartment: 'Compartment',
  adapter: 'Adapter',
  port: 'VFP port',
  route: 'Route',
  'remote-subnet': 'Remote subnet',
  file: 'File',
  node: 'Node',
};

function FieldRow({ f }: { f: InspectorField }) {
  const select = useApp((s) => s.select);
  const link = f.link;
  return (
    <div className="field">
      <dt>{f.label}</dt>
      <dd className={f.mono ? 'mono' : ''}>
        {link ? (
          <button type="button" className="link" onClick={() => void select(link, { focusGraph: true })} title={`Go to ${TYPE_LABEL[link.type]} ${link.id}`}>
            {f.value}
          </button>
        ) : (
          <span className="field-value">{f.value}</span>
        )}
        {(f.mono || f.copy) && f.value && <CopyButton value={f.copy ?? f.value} label={f.label} />}
      </dd>
    </div>
  );
}

const NOTE_ICON = { error: AlertOctagon, warning: AlertTriangle, info: Info };

export function InspectorPanel() {
  const view = useApp((s) => s.inspector);
  const loading = useApp((s) => s.inspectorLoading);
  const error = useApp((s) => s.inspectorError);
  const selected = useApp((s) => s.selected);
  const back = useApp((s) => s.back);
  const goBack = useApp((s) => s.goBack);
  const select = useApp((s) => s.select);
  const walkFrom = useApp((s) => s.walkFrom);
  const noteRef = view ? objectTarget(view.ref).ref : '';
  const noteCount = useApp((s) => (noteRef ? (s.notes?.notes.filter((n) => n.target.ref === noteRef).length ?? 0) : 0));
  // A local pod can be walked from: its IP is the title (or the IP field).
  const walkIp =
    view?.ref.type === 'endpoint' && !view.fields.some((f) => f.label === 'Remote' && f.value === 'yes')
      ? (parseAddress(view.title)?.ip ?? parseAddress(view.fields.find((f) => /^ip/i.test(f.label))?.value ?? '')?.ip)
      : undefined;

  return (
    <div className="insp-wrap" data-testid="inspector">
      <div className="insp-bar">
        <button type="button" className="btn ghost small icon" onClick={goBack} disabled={!back.length} aria-label="Back to the previous object" title="Back">
          <ArrowLeft size={15} aria-hidden />
        </button>
        <span className="insp-type">{selected ? TYPE_LABEL[selected.type] : 'Inspector'}</span>
        {loading && <span className="spinner" aria-label="Loading" />}
      </div>
      <div className="insp-body scroll">
        {!selected && (
          <div className="empty-note insp-empty">
            <MousePointerClick size={22} aria-hidden />
            <strong>Nothing selected</strong>
            Click a node in the graph, a row in the inventory, or search (Ctrl+K) for a pod IP, MAC, VIP, GUID or rule name.
          </div>
        )}
        {error && <div className="empty-note error-text">{error}</div>}
        {view && (
          <>
            <header className="insp-head">
              <h2 className="insp-title" data-testid="inspector-title">
                {view.title}
                <NoteBadge count={noteCount} />
              </h2>
              {view.subtitle && <div className="muted">{view.subtitle}</div>}
              <div className="insp-head-actions">
                {view.src && <SourceLink file={view.src.file} line={view.src.line} className="insp-src" />}
                {walkIp && (
                  <button type="button" className="btn small" onClick={() => walkFrom(walkIp)} data-testid="walk-from-here" title={`Walk a packet from ${walkIp}`}>
                    <Footprints size={13} aria-hidden /> Walk from here
                  </button>
                )}
              </div>
            </header>
            <NotesFor target={objectTarget(view.ref)} what={`this ${TYPE_LABEL[view.ref.type].toLowerCase()}`} className="insp-notes" />
            {view.notes.length > 0 && (
              <ul className="notes">
                {view.notes.map((n, i) => {
                  const Icon = NOTE_ICON[n.severity];
                  return (
                    <li key={i} className={`note ${n.severity}`}>
                      <Icon size={14} aria-hidden />
                      <span>{n.message}</span>
                      {n.src && <SourceLink file={n.src.file} line={n.src.line} />}
                    </li>
                  );
                })}
              </ul>
            )}
            <section className="insp-section">
              <dl className="fields">
                {view.fields.map((f, i) => (
                  <FieldRow key={`${f.label}:${i}`} f={f} />
                ))}
              </dl>
            </section>
            {view.related.length > 0 && (
              <section className="insp-section">
                <h3>Related</h3>
                <ul className="related">
                  {view.related.map((r, i) => (
                    <li key={i}>
                      <span className="muted rel-label">{r.label}</span>
                      <button type="button" className="link ellipsis" onClick={() => void select(r.ref, { focusGraph: true })} title={r.text}>
                        {r.text}
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {view.policy && <PolicyView key={`${view.ref.type}:${view.ref.id}`} policy={view.policy} />}
            {view.raw && <RawJson text={view.raw} />}
          </>
        )}
      </div>
    </div>
  );
}
