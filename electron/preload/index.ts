// The preload of the hnsight window. It runs sandboxed (contextIsolation, sandbox), so it can only
// require 'electron'; tools/build-electron.mjs bundles it into one CJS file. It exposes one global,
// window.hnsight: the HnsightApi of contract/api.ts —
//   one function per method, each an ipcRenderer.invoke on `hnsight:<method>` (main checks the
//   sender, the backend validates the arguments) answering the contract's reply envelope;
//   openFile(file): a dropped File's path (webUtils, since a sandboxed renderer's File has no
//   `path`) opened with openDropped — the one way to it: the page's own openDropped refuses, so the
//   page cannot have the main process open a path it made up;
//   localPaths(files) and openCluster({ paths }): several dropped or picked Files opened as a
//   cluster — openCluster sends only paths localPaths took from real Files, the same way;
//   subscribe(listener): the backend's job events; onCommand(cb): the menu's commands.
// Nothing else of Electron or IPC reaches the page.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { ApiEvent, HnsightApi } from '../../contract/index.ts';
import { ApiError, unwrap } from '../../contract/envelope.ts';
import { EVENT_CHANNEL } from '../../contract/events.ts';
import { PRELOAD_METHODS } from './methods.ts';

const COMMAND_CHANNEL = 'hnsight:command';

/** Optional data sent with a command (`open-path` carries `{ path }`, `paste` the clipboard's `{ text }`). */
export interface CommandPayload {
  path?: string;
  text?: string;
}
export type CommandListener = (command: string, payload?: CommandPayload) => void;

function invoker(method: string) {
  return async (req: unknown): Promise<unknown> => unwrap(method, await ipcRenderer.invoke('hnsight:' + method, req ?? {}));
}

// Commands can arrive before the page subscribes (a path from a second instance while loading):
// keep the last few and replay them to the first subscriber.
const listeners = new Set<CommandListener>();
const early: [string, CommandPayload | undefined][] = [];

function sanitizePayload(p: unknown): CommandPayload | undefined {
  if (!p || typeof p !== 'object') return undefined;
  const { path, text } = p as { path?: unknown; text?: unknown };
  if (typeof path === 'string') return { path };
  return typeof text === 'string' ? { text } : undefined;
}

ipcRenderer.on(COMMAND_CHANNEL, (_event: IpcRendererEvent, command: unknown, payload: unknown) => {
  if (typeof command !== 'string') return;
  const p = sanitizePayload(payload);
  if (listeners.size === 0) {
    early.push([command, p]);
    if (early.length > 16) early.shift();
    return;
  }
  for (const l of listeners) l(command, p);
});

function onCommand(cb: CommandListener): () => void {
  if (typeof cb !== 'function') throw new TypeError('onCommand needs a function');
  listeners.add(cb);
  if (listeners.size === 1 && early.length) {
    const pending = early.splice(0);
    queueMicrotask(() => {
      for (const [c, p] of pending) cb(c, p);
    });
  }
  return () => {
    listeners.delete(cb);
  };
}

const eventListeners = new Set<(e: ApiEvent) => void>();
ipcRenderer.on(EVENT_CHANNEL, (_event: IpcRendererEvent, e: unknown) => {
  if (!e || typeof e !== 'object') return;
  for (const l of eventListeners) l(e as ApiEvent);
});

// The IPC channel never disconnects, so `onConnected` (contract/api.ts) is never called again.
function subscribe(listener: (e: ApiEvent) => void): () => void {
  if (typeof listener !== 'function') throw new TypeError('subscribe needs a function');
  eventListeners.add(listener);
  return () => {
    eventListeners.delete(listener);
  };
}

// Paths localPaths took from Files the user dropped or picked: the only ones openCluster may send.
const fromFiles = new Set<string>();

const api: Record<string, unknown> = {
  onCommand,
  subscribe,
  openFile: async (file: File) => unwrap('openDropped', await ipcRenderer.invoke('hnsight:openDropped', { path: webUtils.getPathForFile(file) })),
  localPaths: async (files: File[]) => {
    const paths = files.map((f) => webUtils.getPathForFile(f));
    for (const p of paths) if (p) fromFiles.add(p);
    return paths;
  },
};
for (const m of PRELOAD_METHODS) api[m] = invoker(m);
// The main process opens as "dropped" whatever path it is sent; only openFile above sends one, taken
// from a File the user dropped (a File the page makes up has no path). The page cannot name its own.
api.openDropped = async () => {
  throw new ApiError('refused: a dropped file is opened with openFile(file)', 'refused');
};

// The main process grants the paths of openCluster({ paths }) as the user's choice; only those of
// real Files (localPaths above) pass, so the page cannot name its own.
const openCluster = api.openCluster as (req: unknown) => Promise<unknown>;
api.openCluster = async (req: { paths?: unknown } | undefined) => {
  const paths = req?.paths;
  if (paths !== undefined && !(Array.isArray(paths) && paths.every((p) => typeof p === 'string' && fromFiles.has(p)))) {
    throw new ApiError('refused: openCluster opens the paths of files you dropped or picked (localPaths), not paths the page names', 'refused');
  }
  return openCluster(req);
};

contextBridge.exposeInMainWorld('hnsight', api as HnsightApi);
