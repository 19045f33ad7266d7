// The bundle summary shown after opening: node facts, counts, files and their issues.
import type { NodeModel } from '../../parsers/model/types.ts';
import { countObjects, platformSummary } from '../inspect.ts';
import { missingInputs } from '../missing.ts';
import { k8sNames } from '../k8s/index.ts';
import type { BundleSummary } from './types.ts';

export function buildSummary(m: NodeModel, id: string, loadMs: number): BundleSummary {
  const files = m.files.map((f) => ({
    name: f.name,
    size: f.size,
    kind: f.kind,
    encoding: f.encoding,
    lineEnding: f.lineEnding,
    used: f.used,
    note: f.note,
    errors: f.issues.filter((i) => i.severity === 'error').length,
    warnings: f.issues.filter((i) => i.severity === 'warning').length,
    issues: f.issues.slice(0, 200).map((i) => ({ line: i.line, severity: i.severity, message: i.message })),
    // A file hnsight only lists has no format worth saying, unless it was read for a fact and its name says what it is.
    ...(f.format !== undefined && (f.kind !== 'known' || (f.used && f.format !== 'listed, not read')) ? { format: f.format, confidence: f.confidence, reason: f.reason } : {}),
    ...(f.yields ? { yields: f.yields } : {}),
  }));
  return {
    id,
    location: m.source.location,
    sourceKind: m.source.kind,
    hostName: m.meta.hostName,
    windowsBuild: m.meta.windowsBuild,
    schemaVersion: m.meta.schemaVersion,
    vfpGeneration: m.meta.vfpGeneration,
    collector: m.meta.collector,
    networkTypes: [...new Set((m.networks ?? []).map((n) => n.type).filter(Boolean))],
    platform: platformSummary(m),
    k8sNodeName: k8sNames(m).thisNode?.name,
    counts: countObjects(m),
    files,
    filesRead: files.filter((f) => f.used).length,
    filesListed: files.filter((f) => !f.used).length,
    filesBroken: files.filter((f) => f.errors > 0).length,
    unmatched: m.joins.unmatched.slice(0, 500),
    missing: missingInputs(m),
    loadMs: Math.round(loadMs),
  };
}
