// What the renderer calls: one function per method of the contract, plus the event channel, the
// opening of a file the user dropped or picked in the page, and the desktop menu's commands.
// Implemented by the Electron preload (IPC) and by the browser-mode client (HTTP + Server-Sent
// Events); the renderer never knows which one it has.
import type { Method, Request } from './schemas.ts';
import type { Response } from './replies.ts';
import type { ApiEventListener } from './events.ts';

export type ApiMethods = { [M in Method]: (req: Request<M>) => Promise<Response<M>> };

export type HnsightApi = ApiMethods & {
  /**
   * Opens a file the user dropped on the page: in the desktop app by its path (openDropped), in
   * browser mode by uploading its bytes to the server (POST /upload, see uploadSchema).
   */
  openFile(file: File): Promise<{ jobId: string }>;
  /**
   * Where several files the user dropped or picked together can be read by the backend, to open them
   * as a cluster (openCluster { paths }): their own paths in the desktop app, uploaded copies
   * (POST /upload?keep=1) in browser mode.
   */
  localPaths(files: File[]): Promise<string[]>;
  /**
   * Follows the backend's job events until the returned function is called. `onConnected` is called
   * whenever the event channel is (re)connected — at once over IPC, on every (re)connection of the
   * event stream in browser mode — so a follower can fetch the state it may have missed.
   */
  subscribe(listener: ApiEventListener, onConnected?: () => void): () => void;
  /**
   * Menu commands pushed by the Electron main process ('open-folder', 'open-zip', 'open-path' with
   * { path }, 'paste' with the clipboard's { text }, 'export', 'find', 'fit-graph', 'toggle-dark-mode',
   * 'connect'). Browser mode never calls back.
   */
  onCommand(cb: (command: string, payload?: { path?: string; text?: string }) => void): () => void;
};
