// The worker's map of parsed generated files (test/support/parsed-files.ts) gives what a fresh parse
// gives, and what it shares cannot be changed by a test: a node assembled from shared files has the
// same files, findings and walks as one parsed afresh, after another node's checks and walks ran on
// the same shared files.
import { describe, expect, it } from 'vitest';
import { bundleFiles, buildNode, type NodeSpec } from '../../../tools/gen/index.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import type { ParsedFile } from '../../../parsers/bundle/parsed-file.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { walkPresets } from '../../../analysis/walk/presets.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { deepFreeze, parsedFilesHits, parseText } from '../../support/parsed-files.ts';

const SPEC: NodeSpec = { seed: 7, hostName: 'win-node-0', network: 'l2bridge', schema: 2, pods: 6, services: 8, remoteNodes: 2, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340', platform: 'flannel-host-gw', faults: ['blocked-port'] };
const enc = new TextEncoder();
const texts = bundleFiles(buildNode(SPEC), { encoding: 'utf8', eol: 'crlf', extras: true }).map((f) => [f.path, [...f.content()].join('')] as const);
const model = (files: ParsedFile[]) => assembleModel(files, { location: 'mem:x', kind: 'folder', root: '' });

/** What a test reads of a node: its findings, and every preset walked with its reply. */
function observed(files: ParsedFile[]) {
  const m = model(files);
  const walks = walkPresets(m).map((p) => walkFlow(m, p.flow, { explain: true, reply: true }));
  return JSON.stringify({ findings: runChecks(m), walks, files: m.files, endpoints: m.endpoints, ports: m.ports });
}

describe('generated files parsed once per worker', () => {
  it('a node from shared files reads as one parsed afresh, also after the shared files were used', () => {
    const hits = parsedFilesHits();
    // First through the map (parsed, frozen, kept), used by checks and walks; then again (every file a hit).
    const first = observed(texts.map(([p, t]) => parseText(p, t)));
    const again = texts.map(([p, t]) => parseText(p, t));
    expect(parsedFilesHits() - hits).toBeGreaterThanOrEqual(texts.length);
    const fresh = texts.map(([p, t]) => parseBundleFile(p, enc.encode(t)));
    expect(again).toEqual(fresh);
    expect(observed(again)).toBe(observed(fresh));
    expect(first).toBe(observed(fresh));
  });

  it('a file of another name or text is parsed, not taken from the map', () => {
    const [p, t] = texts.find(([name]) => name === 'endpoint.txt')!;
    const a = parseText(p, t);
    const b = parseText(p, t.replace(/"10\.244\.\d+\.(\d+)"/, '"10.99.0.$1"'));
    expect(JSON.stringify(b.content)).not.toBe(JSON.stringify(a.content));
    expect(JSON.stringify(b.content)).toContain('10.99.0.');
    expect(parseText('copy-of-endpoint.txt', t).name).toBe('copy-of-endpoint.txt');
  });

  it('what is shared is frozen, and each caller gets its own list of issues', () => {
    const [p, t] = texts.find(([name]) => name === 'endpoint.txt')!;
    const a = parseText(p, t);
    const b = parseText(p, t);
    expect(a.content).toBe(b.content);
    expect(Object.isFrozen(a.content)).toBe(true);
    expect(() => {
      (a.content as { type: string }).type = 'none';
    }).toThrow(TypeError);
    a.issues.push({ file: p, line: 1, severity: 'info', message: 'appended by one caller' });
    expect(b.issues.some((i) => i.message === 'appended by one caller')).toBe(false);
    expect(parseText(p, t).issues.some((i) => i.message === 'appended by one caller')).toBe(false);
    // Class instances (the VFP index, its bytes) are left alone: they fill caches of their own.
    const idx = new Map([['k', { n: 1 }]]);
    deepFreeze({ idx });
    expect(Object.isFrozen(idx.get('k'))).toBe(true);
  });
});
