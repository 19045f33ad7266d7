// The preload of the hnsight window. It runs sandboxed (contextIsolation, sandbox), so it can only
// require 'electron'; tools/build-electron.mjs bundles it into one CJS file. It exposes two globals:
//   window.hnsight       — the HnsightApi of contract/api.ts: one function per method, each
//                          an ipcRenderer.invoke on `hnsight:<method>` (main checks the sender and
//                          validates the arguments), plus onCommand for menu commands;
//   window.hnsightFiles  — pathForFile(file): the filesystem path of a dropped File (webUtils), since
//                          a sandboxed renderer's File has no `path`.
// Nothing else of Electron or IPC reaches the page.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { HnsightApi } from '../../contract/api.ts';
import { PRELOAD_METHODS } from './methods.ts';

const COMMAND_CHANNEL = 'hnsight:command';

/** Optional data sent with a command (e.g. `open-path` carries `{ path }`). */
export interface CommandPayload {
  path?: string;
}
export type CommandListener = (command: string, payload?: CommandPayload) => void;

type Reply = { value: unknown } | { error: string };

function invoker(method: string) {
  return async (req: unknown): Promise<unknown> => {
    const reply = (await ipcRenderer.invoke('hnsight:' + method, req ?? {})) as Reply | undefined;
    if (!reply || typeof reply !== 'object') throw new Error(`${method}: no reply from the main process`);
    if ('error' in reply) throw new Error(reply.error);
    return reply.value;
  };
}

// Commands can arrive before the page subscribes (a path from a second instance while loading):
// keep the last few and replay them to the first subscriber.
const listeners = new Set<CommandListener>();
const early: [string, CommandPayload | undefined][] = [];

function sanitizePayload(p: unknown): CommandPayload | undefined {
  if (!p || typeof p !== 'object') return undefined;
  const path = (p as { path?: unknown }).path;
  return typeof path === 'string' ? { path } : undefined;
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

const api: Record<string, unknown> = { onCommand };
for (const m of PRELOAD_METHODS) api[m] = invoker(m);

contextBridge.exposeInMainWorld('hnsight', api as HnsightApi);
contextBridge.exposeInMainWorld('hnsightFiles', {
  pathForFile: (file: File): string => webUtils.getPathForFile(file),
});
