// The paste domain of the backend: a text is previewed as what it would be read as; pastes build up
// one node (each addPaste with the node's id loads a new node from all of its texts); a paste added
// to a bundle opened from disk joins that bundle; evidence excerpts and notes of a pasted node come
// from the texts in memory; and what is too big, blank or misnamed is refused in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Backend } from '../../../services/backend/backend.ts';
import { ApiError, PASTE_MAX_BYTES, type LoadJob } from '../../../contract/index.ts';
import type { BundleSummary } from '../../../analysis/view-models/types.ts';
import { demoPastes, demoDir, type DemoPastes } from '../../helpers/demo-pastes.ts';

let dir: string;
let backend: Backend;
let demo: DemoPastes;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hnsight-paste-'));
  backend = new Backend({ mode: 'browser', dataDir: dir });
  demo = await demoPastes();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loaded(reply: { jobId: string }): Promise<BundleSummary> {
  const job: LoadJob = await backend.waitForLoad(reply.jobId);
  expect(job.error).toBeUndefined();
  expect(job.state).toBe('done');
  return job.summary!;
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe('recognisePaste', () => {
  it('says what a pasted endpoint list is read as, how sure, why, and what it yields', async () => {
    const p = await backend.invoke('recognisePaste', { text: demo.pastes[0].text });
    expect(p).toMatchObject({ kind: 'endpoint', kindWords: 'HNS endpoints', usable: true, errors: 0 });
    expect(p.yields).toEqual({ endpoints: 2 });
    expect(p.confidence).toBeGreaterThanOrEqual(0.75);
    expect(p.format).toMatch(/ConvertTo-Json/);
    expect(p.reason).toMatch(/line \d+/);
    expect(p.bytes).toBe(new TextEncoder().encode(demo.pastes[0].text).length);
  });

  it('reads a quoted vfpctrl dump as VFP rules and says the quote marks were taken off', async () => {
    const p = await backend.invoke('recognisePaste', { text: demo.pastes[2].text });
    expect(p).toMatchObject({ kind: 'vfp', kindWords: 'VFP rules', usable: true });
    expect(p.yields['VFP ports']).toBe(1);
    expect(p.yields.rules).toBeGreaterThan(10);
    expect(p.issues.some((i) => i.severity === 'info' && /quote marks removed/.test(i.message))).toBe(true);
  });

  it('names what a text nothing recognises came closest to, with a warning', async () => {
    const p = await backend.invoke('recognisePaste', { text: 'Hello,\nthe pods on node 7 cannot reach the API server since Tuesday.\n' });
    expect(p).toMatchObject({ kind: 'unknown', kindWords: 'not recognised', usable: false, yields: {} });
    expect(p.warnings).toBe(1);
    expect(p.issues[0].message).toMatch(/Hello,/);
  });

  it('reads the text under the name given (a name that agrees with the content)', async () => {
    const p = await backend.invoke('recognisePaste', { text: demo.pastes[1].text, name: 'vfpOutput.txt' });
    expect(p).toMatchObject({ name: 'vfpOutput.txt', kind: 'vfp' });
  });
});

describe('addPaste', () => {
  it('three pastes build up one node: each joins the texts before it, the endpoints join their ports, and the two pods walk', async () => {
    const [p1, p2, p3] = demo.pastes;
    const s1 = await loaded(await backend.invoke('addPaste', { text: p1.text }));
    expect(s1.location).toBe('pasted text');
    expect(s1.files.map((f) => [f.name, f.kind])).toEqual([['paste 1.txt', 'endpoint']]);
    expect(s1.counts.endpoints).toBe(2);
    expect(s1.counts.vfpRules).toBeNull();
    const s2 = await loaded(await backend.invoke('addPaste', { text: p2.text, bundleId: s1.id }));
    expect(s2.id).not.toBe(s1.id);
    const s3 = await loaded(await backend.invoke('addPaste', { text: p3.text, bundleId: s2.id, name: 'port of pod b.txt' }));
    expect(s3.location).toBe('3 pasted texts');
    expect(s3.files.map((f) => [f.name, f.kind])).toEqual([['paste 1.txt', 'endpoint'], ['paste 2.txt', 'vfp'], ['port of pod b.txt', 'vfp']]);
    expect(s3.files.every((f) => f.used)).toBe(true);
    expect(s3.counts.endpoints).toBe(2);
    expect(s3.counts.vfpPorts).toBe(2);
    expect(s3.unmatched).toEqual([]);
    expect(s3.missing?.map((m) => m.what)).toEqual(['HNS networks', 'HNS load balancers', 'the IP configuration of the compartments', "the node's routing table"]);
    // The earlier nodes are still open until the app closes them: adding did not change them.
    expect((await backend.invoke('getInventory', { bundleId: s1.id })).find((t) => t.key === 'endpoints')!.rows).toHaveLength(2);

    const w = await backend.invoke('walk', { bundleId: s3.id, srcIp: demo.a.ip!, dstIp: demo.b.ip!, dstPort: 80, proto: 'tcp' });
    // No ipconfig among the pastes: the walk crosses every rule but cannot tell that the vNIC receives it.
    expect(w.verdict).toBe('unknown');
    expect(w.reason).toMatch(/ipconfig \/allcompartments \/all/);
    expect([...new Set(w.hops.filter((h) => h.kind === 'vfp').map((h) => h.evidence?.file))]).toEqual(['paste 2.txt', 'port of pod b.txt']);

    // Evidence is read back from the texts in memory: the endpoint paste (kept as text) and the quoted dump.
    const ex = await backend.invoke('getExcerpt', { bundleId: s3.id, file: 'paste 1.txt', line: 1, context: 1 });
    expect(ex.lines[0]).toBe('PS C:\\> Get-HnsEndpoint | ConvertTo-Json -Depth 10');
    const rule = w.hops.find((h) => h.kind === 'vfp' && h.evidence?.file === 'port of pod b.txt')!.evidence!;
    const ex3 = await backend.invoke('getExcerpt', { bundleId: s3.id, file: rule.file, line: rule.line, context: 0 });
    expect(ex3.lines[0]).toMatch(/RULE\s*:/);

    // Pasted nodes are not in the recent list: there is nothing to open again.
    expect(await backend.invoke('listRecent', {})).toEqual([]);
  });

  it('keeps the notes of a pasted node in the data folder, under a hash of its texts', async () => {
    const a = await loaded(await backend.invoke('addPaste', { text: demo.pastes[0].text }));
    const b = await loaded(await backend.invoke('addPaste', { text: demo.pastes[1].text }));
    const na = await backend.invoke('getNotes', { bundleId: a.id });
    const nb = await backend.invoke('getNotes', { bundleId: b.id });
    expect(na.bundle.hash).not.toBe(nb.bundle.hash);
    expect(na.bundle.location).toBe('pasted text');
    expect(await backend.invoke('saveNotes', { bundleId: a.id, notes: { ...na, title: 'ticket 4711' }, baseRevision: 0 })).toEqual({ revision: 1 });
    expect(await readdir(path.join(dir, 'notes'))).toContain(`${na.bundle.hash.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
    // The same text pasted again is the same node for its notes.
    const again = await loaded(await backend.invoke('addPaste', { text: demo.pastes[0].text }));
    expect((await backend.invoke('getNotes', { bundleId: again.id })).title).toBe('ticket 4711');
    // Nothing was looked for or written beside a "location" that is no path.
    expect(existsSync(path.resolve('pasted text.hnsight-notes.json'))).toBe(false);
  });

  it('adds a paste to a bundle opened from disk: its files and the paste, read as one node', async () => {
    const demoNode = await loaded(await backend.invoke('openDemo', { name: 'l2bridge-node' }));
    const ep = demo.full.endpoints!.find((e) => e.id === demo.a.id)!;
    const s = await loaded(await backend.invoke('addPaste', { text: `${JSON.stringify(ep.raw, null, 2)}\n`, bundleId: demoNode.id, name: 'endpoint.txt' }));
    expect(s.location).toBe(`${demoDir} + a pasted text`);
    expect(s.files.length).toBe(demoNode.files.length + 1);
    // The bundle has its own endpoint.txt: the paste is renamed, read, and said to add nothing new.
    const pasted = s.files.find((f) => f.name === 'endpoint (2).txt')!;
    expect(pasted.kind).toBe('endpoint');
    expect(s.counts).toEqual(demoNode.counts);
    const ex = await backend.invoke('getExcerpt', { bundleId: s.id, file: 'endpoint (2).txt', line: 1, context: 0 });
    expect(ex.lines[0]).toBe('{');
    const ex2 = await backend.invoke('getExcerpt', { bundleId: s.id, file: 'endpoint.txt', line: 3, context: 0 });
    expect(ex2.lines).toHaveLength(1);
  });

  it('refuses, in words: too big, blank, an unknown node, a name with folders', async () => {
    // Within the schema's character bound but over 64 MiB as UTF-8: the handler measures bytes.
    const wide = 'é'.repeat(PASTE_MAX_BYTES / 2 + 1);
    const big = await refusal(backend.invoke('addPaste', { text: wide }));
    expect(big.kind).toBe('refused');
    expect(big.message).toBe('The text is 64.1 MiB, more than the 64 MiB a paste holds. Save it as a file and open the file instead.');
    expect((await refusal(backend.invoke('recognisePaste', { text: wide }))).kind).toBe('refused');
    const tooLong = await refusal(backend.invoke('addPaste', { text: 'x'.repeat(PASTE_MAX_BYTES + 1) }));
    expect(tooLong.kind).toBe('invalid');
    expect(tooLong.message).toMatch(/at most 64 MiB/);
    const blank = await refusal(backend.invoke('addPaste', { text: ' \n\t\n' }));
    expect(blank).toMatchObject({ kind: 'invalid' });
    expect(blank.message).toMatch(/blank/);
    expect((await refusal(backend.invoke('addPaste', { text: '' }))).message).toMatch(/empty/);
    expect((await refusal(backend.invoke('addPaste', { text: 'x', bundleId: 'b-999' }))).kind).toBe('not-found');
    const named = await refusal(backend.invoke('addPaste', { text: 'x', name: '../../etc/passwd' }));
    expect(named.kind).toBe('invalid');
    expect(named.message).toMatch(/without folders/);
  });
});
