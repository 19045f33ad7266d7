// The request schemas of the API contract: one zod schema per method, and the shapes they share
// (a flow, a note, the notes file, a collection target). Every request type is inferred from its
// schema here; where the pure layers already own a shape (Flow, Notes), the schema is checked
// against it at compile time so the two cannot drift.
import { z } from 'zod';
import type { Flow } from '../analysis/walk/types.ts';
import type { Notes } from '../analysis/report/notes.ts';
import { NOTES_LIMITS as NL, PASTE_MAX_BYTES } from './limits.ts';

const id = z.string().min(1).max(128).regex(/^[A-Za-z0-9_.:-]+$/);
const localPath = z.string().min(1).max(4096);
// A walk's addresses: IPv4 or IPv6 (dual-stack Services are walked on both families).
const ip = z.union([z.ipv4(), z.ipv6()]);
const port = z.number().int().min(1).max(65535);

export const objectRef = z.object({
  type: z.enum(['network', 'endpoint', 'loadbalancer', 'namespace', 'compartment', 'adapter', 'port', 'route', 'remote-subnet', 'file', 'node']),
  id: z.string().min(1).max(512),
}).strict();

// A host name or address as typed: no spaces, no user info, nothing a shell or URL would reinterpret.
const hostName = z.string().min(1).max(255).regex(/^[A-Za-z0-9._:%[\]-]+$/, 'must be a host name or an IP address');
const userName = z.string().min(1).max(256).regex(/^[^\s:@/]+$|^[^\s:/]+@[^\s:/@]+$/, 'must be a user name (DOMAIN\\user, user or user@domain)');

/** Where to collect from; the shapes of LiveTarget (services/live/service.ts), without secrets. */
export const collectTarget = z.discriminatedUnion('transport', [
  z.object({
    transport: z.literal('winrm'),
    // http(s)://host[:port][/path]; no user info (the user is a field of its own, the password never in a URL).
    url: z.string().min(1).max(2048).regex(/^https?:\/\/[^\s/@?#]+(\/[^\s@?#]*)?$/i, 'must be http://HOST[:5985] or https://HOST[:5986], without a user or password in it'),
    user: userName,
    auth: z.enum(['ntlm', 'basic']).optional(),
    insecureSkipTlsVerify: z.boolean().optional(),
  }).strict(),
  z.object({
    transport: z.literal('ssh'),
    host: hostName,
    port: port.optional(),
    user: userName,
    privateKeyFile: localPath.optional(),
    knownHostsFile: localPath.optional(),
    acceptNewHostKey: z.boolean().optional(),
  }).strict(),
  z.object({
    transport: z.literal('kubectl'),
    node: z.string().min(1).max(253).regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/i, 'must be a Kubernetes node name'),
    kubeconfig: localPath.optional(),
    context: z.string().min(1).max(256).optional(),
    namespace: z.string().min(1).max(63).regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a Kubernetes namespace name').optional(),
  }).strict(),
]);
export type CollectTarget = z.infer<typeof collectTarget>;

/** A packet walk to run. The same shape as analysis/walk's Flow (checked below). */
export const flowSchema = z.object({
  srcIp: ip,
  dstIp: ip,
  dstPort: port.optional(),
  srcPort: port.optional(),
  proto: z.enum(['tcp', 'udp', 'icmp']),
  dip: ip.optional(),
}).strict();

export const noteSchema = z.object({
  id: z.string().min(1).max(NL.noteIdChars),
  target: z.object({ kind: z.enum(['hop', 'finding', 'object', 'report']), ref: z.string().min(1).max(NL.refChars) }).strict(),
  text: z.string().max(NL.noteChars),
  createdAt: z.string().max(NL.timeChars),
  updatedAt: z.string().max(NL.timeChars),
}).strict();

/** The notes file (README "Notes file"): what saveNotes takes and getNotes returns. */
export const notesSchema = z.object({
  schema: z.literal(1),
  bundle: z.object({ hash: z.string().max(128), location: z.string().max(4096), hostName: z.string().max(256).optional() }).strict(),
  title: z.string().max(NL.titleChars),
  summary: z.string().max(NL.summaryChars),
  notes: z.array(noteSchema).max(NL.notes),
  traces: z.array(flowSchema).max(NL.traces),
  revision: z.number().int().min(0),
}).strict();

// Compile-time: the schemas and the pure layers' types describe the same shapes, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _flowSame: Same<z.infer<typeof flowSchema>, Flow> = true;
const _notesSame: Same<z.infer<typeof notesSchema>, Notes> = true;
void _flowSame;
void _notesSame;

/** What a window sends to saveNotes: the notes it edited (bundle, schema and revision are the backend's). */
const notesInput = notesSchema.partial({ schema: true, bundle: true, revision: true });

/** A file the browser uploads (its bytes follow as the body of POST /upload). */
export const uploadSchema = z.object({
  name: z.string().min(1).max(255),
  size: z.number().int().min(0),
  // keep=1: saved for a cluster opened from several files (the reply is its { path }), not opened alone.
  keep: z.boolean().optional(),
}).strict();

/**
 * A pasted text. The schema bounds its characters (never more than its UTF-8 bytes); the handler
 * measures the bytes against PASTE_MAX_BYTES.
 */
const pastedText = z.string().min(1, 'the paste is empty').max(PASTE_MAX_BYTES, 'a paste holds at most 64 MiB of text: save it as a file and open the file instead');
/** What a paste is called in the bundle (its "file" name): a name, no folders. */
const pasteName = z.string().min(1).max(200).refine((s) => !/[\\/]/.test(s) && ![...s].some((c) => c.charCodeAt(0) < 32), 'must be a name without folders or control characters');

/** Request schemas, one per method. `.strict()` refuses unknown keys. */
export const requests = {
  // The app and its bundles.
  info: z.object({}).strict(),
  openBundle: z.object({ path: localPath }).strict(),
  /** A file the user dropped on the window (the desktop app knows its path). */
  openDropped: z.object({ path: localPath }).strict(),
  openDemo: z.object({ name: z.enum(['l2bridge-node', 'overlay-node']) }).strict(),
  pickBundle: z.object({ kind: z.enum(['folder', 'zip']) }).strict(),
  getJob: z.object({ jobId: id }).strict(),
  cancelLoad: z.object({ jobId: id }).strict(),
  listRecent: z.object({}).strict(),
  /**
   * With `client` (a window's id), only that window lets the bundle go; it closes when no window that
   * attached (attachBundle) still holds it. Without, it closes now.
   */
  closeBundle: z.object({ bundleId: id, client: id.optional() }).strict(),
  listOpen: z.object({}).strict(),
  attachBundle: z.object({ bundleId: id, client: id }).strict(),
  getStep: z.object({ bundleId: id, step: z.enum(['findings', 'search', 'reach', 'services']) }).strict(),
  getTopology: z.object({ bundleId: id, expandLoadBalancers: z.boolean().optional() }).strict(),
  getInventory: z.object({ bundleId: id }).strict(),
  search: z.object({ bundleId: id, query: z.string().max(256), limit: z.number().int().min(1).max(500).optional() }).strict(),
  inspect: z.object({ bundleId: id, ref: objectRef }).strict(),
  getExcerpt: z.object({ bundleId: id, file: z.string().min(1).max(1024), line: z.number().int().min(0).max(1e9), context: z.number().int().min(0).max(200).optional() }).strict(),
  // Pasted outputs. addPaste loads the text as a node of its own, or — with bundleId — joined with
  // what that node was read from (a new node replaces it); recognisePaste says what a text would be
  // read as, without adding it (with bundleId: also whether it looks like another node's than that one).
  addPaste: z.object({ text: pastedText, bundleId: id.optional(), name: pasteName.optional() }).strict(),
  recognisePaste: z.object({ text: pastedText, name: pasteName.optional(), bundleId: id.optional() }).strict(),
  // Packet walks. `reply: true` also walks the answer (the result's `reply`, a walk of its own).
  walk: flowSchema.extend({ bundleId: id, reply: z.boolean().optional() }).strict(),
  // Several nodes of one cluster (a folder with one bundle per node): opened together, a walk goes
  // from node to node.
  // A folder of bundles (`path`), or the bundles themselves (`paths`: files dropped or picked together).
  openCluster: z
    .object({ path: localPath.optional(), paths: z.array(localPath).min(2).max(40).optional() })
    .strict()
    .refine((r) => !!r.path !== !!r.paths, { message: 'give either a folder of bundles (path) or the bundles (paths)' }),
  getClusterGraph: z.object({ clusterId: id }).strict(),
  walkAcross: flowSchema.extend({ clusterId: id, reply: z.boolean().optional() }).strict(),
  walkPresets: z.object({ bundleId: id }).strict(),
  // Findings and the CNI timeline.
  getFindings: z.object({ bundleId: id }).strict(),
  getTimelines: z.object({ bundleId: id }).strict(),
  // Reachability: every local pod and the host against pods, Services, remote pod subnets, the node and
  // the outside (analysis/reach). A step of the bundle run in a worker; cancelReach stops it.
  // reachMatrix answers what is worked out so far (from cell `from` on) and starts the worker the
  // first time; reachCompute asks for more cells (source × destination indexes), before the rest.
  reachMatrix: z.object({ bundleId: id, from: z.number().int().min(0).max(1e9).optional() }).strict(),
  reachCompute: z.object({ bundleId: id, sources: z.array(z.number().int().min(0).max(1e6)).min(1).max(20_000), destinations: z.array(z.number().int().min(0).max(1e6)).min(1).max(20_000) }).strict(),
  cancelReach: z.object({ bundleId: id }).strict(),
  // Each Service port of the kubectl snapshot and whether this node realises it: inspect's `services`
  // with the Services table's columns (analysis/view-models/services-table.ts).
  getServices: z.object({ bundleId: id }).strict(),
  // The reachability part of a comparison (openDiff's job): the classes whose outcome changed, and
  // the walk of a packet on either side.
  reachDiff: z.object({ jobId: id }).strict(),
  cancelReachDiff: z.object({ jobId: id }).strict(),
  walkCompared: flowSchema.extend({ jobId: id, side: z.enum(['a', 'b']) }).strict(),
  // Live collection. The password travels only in startCollect, is held in memory for that job and is
  // never part of a reply, an error, a log line or a file (see requestSecrets).
  startCollect: z.object({
    target: collectTarget,
    password: z.string().max(1024).optional(),
    /** true: remember the password (desktop app, OS-encrypted) once it has worked; false: forget a remembered one. */
    remember: z.boolean().optional(),
    outDir: localPath.optional(),
  }).strict(),
  getCollectJob: z.object({ jobId: id }).strict(),
  cancelCollect: z.object({ jobId: id }).strict(),
  listSavedTargets: z.object({}).strict(),
  forgetTarget: z.object({ key: z.string().min(1).max(2048), passwordOnly: z.boolean().optional() }).strict(),
  /**
   * A kubeconfig, SSH private key or known_hosts file chosen in the desktop app's native open dialog:
   * startCollect then reads it (and a kubeconfig chosen so may run its exec plugin). Refused in browser
   * mode, which has no native dialog (grants.ts).
   */
  pickCredentialFile: z.object({ kind: z.enum(['kubeconfig', 'identity', 'known-hosts']) }).strict(),
  // Notes.
  getNotes: z.object({ bundleId: id }).strict(),
  /** Refused (error "stale: …") when baseRevision is not the stored revision: another window saved first. */
  saveNotes: z.object({ bundleId: id, notes: notesInput, baseRevision: z.number().int().min(0) }).strict(),
  // Export.
  pickSavePath: z.object({ defaultName: z.string().min(1).max(255).regex(/^[\w .-]+$/), extension: z.enum(['html', 'md', 'json', 'pdf']) }).strict(),
  exportReport: z.object({
    bundleId: id,
    format: z.enum(['html', 'md', 'json', 'pdf']),
    traces: z.array(flowSchema).max(50),
    redact: z.boolean(),
    /**
     * Where to write: only a path pickSavePath answered (the desktop app's save dialog); its extension
     * must fit the format. Without it the text, or the PDF's bytes, come back for a download.
     */
    outPath: localPath.optional(),
  }).strict(),
  // Comparing two bundles.
  openDiff: z.object({ pathA: localPath, pathB: localPath }).strict(),
  getDiff: z.object({ jobId: id }).strict(),
} as const;

export type Method = keyof typeof requests;
export type Request<M extends Method> = z.infer<(typeof requests)[M]>;
export type Upload = z.infer<typeof uploadSchema>;
