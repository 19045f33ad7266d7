// After a load: what the bundle is, which network plugin and cloud built the node (and how sure
// hnsight is of it), what was read (each file as what it was recognised as, with what it gave), how
// many of each object, what did not join, and — once — which core inputs are missing and what that
// prevents. Counts that are null mean "the file for it is missing", not zero — shown as a
// dash with a reason.
import { AlertTriangle, CheckCircle2, FileWarning, FileQuestion } from 'lucide-react';
import type { BundleSummary, FileSummary } from '../../../analysis/view-models/types.ts';
import { fileKindWords } from '../../../analysis/view-models/file-kind-words.ts';
import type { InspectCounts } from '../../../analysis/inspect.ts';
import { Dialog } from '../components/Dialog.tsx';
import { SourceLink } from '../components/ExcerptDialog.tsx';
import { useApp } from '../store/app-store.ts';
import { formatCount } from '../lib/format.ts';
import { severityCounts } from '../findings/model.ts';
import { PlatformDetails } from './PlatformDetails.tsx';

const COUNT_LABELS: { key: keyof InspectCounts; label: string; source: string }[] = [
  { key: 'networks', label: 'HNS networks', source: 'network.txt' },
  { key: 'localEndpoints', label: 'Local endpoints', source: 'endpoint.txt' },
  { key: 'remoteEndpoints', label: 'Remote endpoints', source: 'endpoint.txt' },
  { key: 'loadBalancers', label: 'Load balancers', source: 'policy.txt' },
  { key: 'compartments', label: 'Compartments', source: 'ip.txt' },
  { key: 'adapters', label: 'Adapters', source: 'ip.txt' },
  { key: 'vfpPorts', label: 'VFP ports', source: 'ports.txt / vfpOutput.txt' },
  { key: 'vfpLayers', label: 'VFP layers', source: 'vfpOutput.txt' },
  { key: 'vfpRules', label: 'VFP rules', source: 'vfpOutput.txt' },
  { key: 'ipv4Routes', label: 'IPv4 routes', source: 'routes.txt' },
];

/** Files listed in the summary; the rest are in Files & issues. */
const READ_SHOWN = 8;

function yieldWords(f: FileSummary): string {
  return Object.entries(f.yields ?? {})
    .map(([what, n]) => `${what} ${n.toLocaleString('en-US')}`)
    .join(' · ');
}

/** The files read, each as what it was recognised as and what it gave (pastes show up here as files). */
function ReadFiles({ bundle, onMore }: { bundle: BundleSummary; onMore(): void }) {
  const read = bundle.files.filter((f) => f.used);
  if (!read.length) return null;
  return (
    <div className="summary-read" data-testid="summary-read">
      <h3>Read from</h3>
      <ul>
        {read.slice(0, READ_SHOWN).map((f) => (
          <li key={f.name} data-testid="summary-file" data-kind={f.kind}>
            <span className="mono summary-read-name" title={f.name}>
              {f.name}
            </span>
            <span className="summary-read-kind">{fileKindWords(f.kind, f.used)}</span>
            <span className="muted summary-read-what" title={[f.format, yieldWords(f)].filter(Boolean).join(' — ')}>
              {[f.format, yieldWords(f)].filter(Boolean).join(' — ')}
            </span>
          </li>
        ))}
      </ul>
      {read.length > READ_SHOWN && (
        <button type="button" className="btn small" onClick={onMore}>
          …and {read.length - READ_SHOWN} more in Files &amp; issues
        </button>
      )}
    </div>
  );
}

/** What the bundle lacks and what that prevents, said once (analysis/missing.ts). */
function MissingInputs({ bundle }: { bundle: BundleSummary }) {
  const missing = bundle.missing ?? [];
  if (!missing.length) return null;
  return (
    <div className="summary-issues summary-missing" data-testid="summary-missing">
      <h3>
        <FileQuestion size={15} aria-hidden className="warn-text" /> Not in this bundle, and what that prevents
      </h3>
      <ul>
        {missing.map((m) => (
          <li key={m.what}>
            <strong>{m.what}</strong> <span className="muted">({m.files.join(', ')})</span> — without it: {m.prevents.join('; ')}.
          </li>
        ))}
      </ul>
    </div>
  );
}

function SummaryBody({ bundle }: { bundle: BundleSummary }) {
  const setView = useApp((s) => s.setView);
  const close = useApp((s) => s.setSummaryOpen);
  const broken = bundle.files.filter((f) => f.errors > 0);
  const findings = useApp((s) => s.findings);
  const setPanel = useApp((s) => s.setPanel);
  const fc = severityCounts(findings);
  return (
    <div className="summary" data-testid="summary">
      <dl className="summary-facts">
        <div>
          <dt>Node</dt>
          <dd data-testid="summary-host">{bundle.hostName ?? 'unknown (no host name in the bundle)'}</dd>
        </div>
        <div>
          <dt>Windows build</dt>
          <dd>{bundle.windowsBuild ?? '—'}</dd>
        </div>
        <div>
          <dt>HNS schema</dt>
          <dd>{bundle.schemaVersion ? (bundle.schemaVersion === 'mixed' ? 'mixed v1 / v2' : `v${bundle.schemaVersion}`) : '—'}</dd>
        </div>
        <div>
          <dt>vfpOutput</dt>
          <dd>{bundle.vfpGeneration ?? '—'}</dd>
        </div>
        <div>
          <dt>Networks</dt>
          <dd>{bundle.networkTypes.join(', ') || '—'}</dd>
        </div>
        <div>
          <dt>Collector</dt>
          <dd>{bundle.collector ?? '—'}</dd>
        </div>
        <div>
          <dt>Network plugin</dt>
          <dd data-testid="summary-plugin">{bundle.platform ? `${bundle.platform.label}${bundle.platform.cloud ? ` on ${bundle.platform.cloud}` : ''}` : '—'}</dd>
        </div>
        <div>
          <dt>Kubernetes node</dt>
          <dd data-testid="summary-k8s-node" title={bundle.k8sNodeName ? undefined : 'the bundle has no kubectl snapshot naming this node'}>
            {bundle.k8sNodeName ?? '—'}
          </dd>
        </div>
      </dl>
      {bundle.platform && <PlatformDetails platform={bundle.platform} />}
      <div className="summary-files">
        <span className="badge ok">{bundle.filesRead} read</span>
        <span className="badge">{bundle.filesListed} listed only</span>
        <span className={`badge ${bundle.filesBroken ? 'error' : ''}`}>{bundle.filesBroken} broken</span>
        <span className="muted">
          {bundle.sourceKind} · loaded in {(bundle.loadMs / 1000).toFixed(bundle.loadMs < 10_000 ? 2 : 0)} s
        </span>
      </div>
      <div className="summary-findings" data-testid="summary-findings">
        <span className="summary-findings-label">Findings</span>
        {!findings ? (
          <span className="muted">
            <span className="spinner" aria-hidden /> running the checks…
          </span>
        ) : (
          <>
            <span className={`badge ${fc.error ? 'error' : ''}`}>{fc.error} error{fc.error === 1 ? '' : 's'}</span>
            <span className={`badge ${fc.warning ? 'warning' : ''}`}>{fc.warning} warning{fc.warning === 1 ? '' : 's'}</span>
            <span className="badge info">{fc.info} info</span>
            {fc.undecided > 0 && <span className="muted">{fc.undecided} could not decide</span>}
            <button
              type="button"
              className="btn small summary-findings-open"
              onClick={() => {
                close(false);
                setPanel('findings');
              }}
              data-testid="summary-open-findings"
            >
              {fc.error + fc.warning ? 'Show the findings' : 'Show the checks'}
            </button>
          </>
        )}
      </div>
      <ReadFiles
        bundle={bundle}
        onMore={() => {
          close(false);
          setView('files');
        }}
      />
      <div className="count-grid">
        {COUNT_LABELS.map((c) => {
          const v = bundle.counts[c.key];
          return (
            <div key={c.key} className={`count-cell ${v === null ? 'missing' : ''}`} title={v === null ? `${c.source} is not in this bundle` : `from ${c.source}`}>
              <div className="count-value">{formatCount(v)}</div>
              <div className="count-label">{c.label}</div>
              {v === null && <div className="count-missing">no {c.source.split(' ')[0]}</div>}
            </div>
          );
        })}
      </div>
      {broken.length > 0 && (
        <div className="summary-issues">
          <h3>
            <FileWarning size={15} aria-hidden /> Files that could not be fully read
          </h3>
          <ul>
            {broken.slice(0, 6).map((f) => {
              const first = f.issues.find((i) => i.severity === 'error') ?? f.issues[0];
              return (
                <li key={f.name}>
                  <span className="mono">{f.name}</span> — {f.errors} error{f.errors === 1 ? '' : 's'}
                  {first && (
                    <>
                      : {first.message} <SourceLink file={f.name} line={first.line} />
                    </>
                  )}
                </li>
              );
            })}
          </ul>
          <button
            type="button"
            className="btn small"
            onClick={() => {
              close(false);
              setView('files');
            }}
          >
            Open Files &amp; issues
          </button>
        </div>
      )}
      <MissingInputs bundle={bundle} />
      {bundle.unmatched.length > 0 ? (
        <div className="summary-issues">
          <h3>
            <AlertTriangle size={15} aria-hidden className="warn-text" /> {bundle.unmatched.length} failed join{bundle.unmatched.length === 1 ? '' : 's'}
          </h3>
          <ul>
            {bundle.unmatched.slice(0, 6).map((u, i) => (
              <li key={i}>
                <span className="badge warning">{u.kind}</span> {u.message} {u.src && <SourceLink file={u.src.file} line={u.src.line} />}
              </li>
            ))}
            {bundle.unmatched.length > 6 && <li className="muted">…and {bundle.unmatched.length - 6} more (Files &amp; issues)</li>}
          </ul>
        </div>
      ) : (
        <p className="ok-line">
          <CheckCircle2 size={15} aria-hidden /> Every endpoint, port, adapter and load balancer joined up.
        </p>
      )}
    </div>
  );
}

export function SummaryDialog() {
  const bundle = useApp((s) => s.bundle);
  const open = useApp((s) => s.summaryOpen);
  const setOpen = useApp((s) => s.setSummaryOpen);
  if (!bundle || !open) return null;
  return (
    <Dialog label="Bundle summary" onClose={() => setOpen(false)} className="summary-dialog" testId="summary-dialog">
      <div className="dialog-head">
        <h2>Bundle loaded</h2>
        <span className="mono muted ellipsis" title={bundle.location}>
          {bundle.location}
        </span>
      </div>
      <SummaryBody bundle={bundle} />
      <div className="dialog-actions">
        <button type="button" className="btn primary" onClick={() => setOpen(false)} data-autofocus="" data-testid="summary-close">
          Explore the node
        </button>
      </div>
    </Dialog>
  );
}
