// The summary's account of which network plugin and cloud built the node (analysis/platform): how
// sure hnsight is, the bundle lines that say so (each file:line opens the excerpt), what points
// elsewhere, the checks that did not run here and why, and the facts the checks rely on with their
// sources. Folded by default so the summary stays readable at 1280×800.
import { Cpu } from 'lucide-react';
import type { PlatformSummary } from '../../../analysis/inspect.ts';
import { SourceLink } from '../components/ExcerptDialog.tsx';
import { cloudSuffix } from '../../../analysis/platform/name.ts';

const CONFIDENCE: Record<PlatformSummary['confidence'], string> = {
  high: 'sure: independent kinds of evidence agree',
  medium: 'fairly sure: one strong kind of evidence, nothing against it',
  low: 'not sure: only weak hints, or hints that disagree',
};

type Evidence = PlatformSummary['evidence'][number];

function EvidenceList({ list, testId }: { list: readonly Evidence[]; testId: string }) {
  return (
    <ul className="platform-evidence" data-testid={testId}>
      {list.map((e, i) => (
        <li key={`${e.file}:${e.line}:${i}`} data-testid="platform-evidence-line">
          <span className="pe-says">{e.says}</span>
          <span className="pe-where">
            {e.line > 0 ? <SourceLink file={e.file} line={e.line} /> : <span className="mono muted">{e.file}</span>}
            {e.text && e.text !== e.file && (
              <span className="mono pe-text" title={e.text}>
                {e.text}
              </span>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function PlatformDetails({ platform }: { platform: PlatformSummary }) {
  const unknown = platform.plugin === 'unknown';
  const skipped = platform.checks?.skipped ?? [];
  const hedged = platform.checks?.hedged ?? [];
  return (
    <details className="platform-details" data-testid="summary-platform">
      <summary>
        <Cpu size={14} aria-hidden />
        <span>
          <strong data-testid="platform-label">{platform.label}</strong>
          {cloudSuffix(platform.label, platform.cloud)}
          {!unknown && (
            <span className={`badge ${platform.confidence === 'high' ? 'ok' : platform.confidence === 'medium' ? 'info' : 'warning'} platform-confidence`} title={CONFIDENCE[platform.confidence]}>
              {platform.confidence} confidence
            </span>
          )}
        </span>
        <span className="muted platform-counts">
          {platform.evidence.length} line{platform.evidence.length === 1 ? '' : 's'} say so
          {platform.conflicts.length > 0 && `, ${platform.conflicts.length} point${platform.conflicts.length === 1 ? 's' : ''} elsewhere`}
          {skipped.length > 0 && ` · ${skipped.length} check${skipped.length === 1 ? '' : 's'} not run here`}
        </span>
      </summary>
      <div className="platform-body">
        <p className="muted platform-why">
          {unknown
            ? 'Nothing in the bundle names the network plugin, so the checks that rely on a plugin’s facts did not run.'
            : `hnsight is ${CONFIDENCE[platform.confidence]}.`}
          {platform.podNetwork && (
            <>
              {' '}
              Pods are on HNS network <span className="mono">{platform.podNetwork.name}</span> ({platform.podNetwork.type}).
            </>
          )}
        </p>
        {platform.evidence.length > 0 && (
          <section>
            <h4>What says so</h4>
            <EvidenceList list={platform.evidence} testId="platform-evidence" />
          </section>
        )}
        {platform.conflicts.length > 0 && (
          <section>
            <h4>What points elsewhere</h4>
            <EvidenceList list={platform.conflicts} testId="platform-conflicts" />
          </section>
        )}
        {skipped.length > 0 && (
          <section data-testid="platform-skipped">
            <h4>Checks that did not run here</h4>
            <ul className="platform-skipped">
              {skipped.map((s) => (
                <li key={s.id}>
                  <strong>{s.title}</strong> — {s.reason}
                </li>
              ))}
            </ul>
          </section>
        )}
        {hedged.length > 0 && (
          <p className="platform-hedged warn-text" data-testid="platform-hedged">
            Because hnsight is not sure of the plugin, {hedged.length} check{hedged.length === 1 ? '' : 's'} that rel{hedged.length === 1 ? 'ies' : 'y'} on its facts report{hedged.length === 1 ? 's' : ''} warnings, not errors.
          </p>
        )}
        {platform.facts.length > 0 && (
          <details className="platform-facts" data-testid="platform-facts">
            <summary>What the checks rely on for {platform.label}</summary>
            <dl>
              {platform.facts.map((f) => (
                <div key={f.topic}>
                  <dt>{f.topic}</dt>
                  <dd>
                    {f.fact}
                    <div className="muted platform-fact-source">source: {f.source}</div>
                  </dd>
                </div>
              ))}
            </dl>
          </details>
        )}
      </div>
    </details>
  );
}
