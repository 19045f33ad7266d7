// The Electron main process: one window, the native menu, dialogs, and the IPC bridge to the backend.
// Thin by design — everything that reads bundles or answers the API lives in services
// (plain Node). Bundled by tools/build-electron.mjs into dist/electron/main.cjs, next to preload.cjs;
// the renderer build is dist/renderer/, loaded as app://hnsight/index.html (app-protocol.ts), not file://.
//
// Security baseline: sandboxed, context-isolated renderer without Node; every IPC call checks the
// sender and validates its arguments (ipc-handler.ts); navigation, new windows, webviews and remote
// requests are refused; permission requests denied (but sanitized clipboard writes from our page);
// only https: links leave the app, through the system browser.
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeTheme, protocol, safeStorage, screen, session, shell, type IpcMainInvokeEvent, type MessageBoxOptions, type OpenDialogOptions, type SaveDialogOptions, type WebContents } from 'electron';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Backend, type Dialogs } from '../../services/backend/backend.ts';
import { EVENT_CHANNEL, type Envelope, type RecentEntry, type Response } from '../../contract/index.ts';
import { bundleFromArgv } from './args.ts';
import { channelFor, COMMAND_CHANNEL, handleIpc, isAppIndexUrl, METHODS, type SenderInfo } from './ipc-handler.ts';
import { readJsonSync, writeJsonAtomic, writeJsonAtomicSync } from './json-file.ts';
import { SafeStorageSecretStore } from './secret-store.ts';
import { printHtmlToPdf } from './print-pdf.ts';
import { COMMANDS, menuTemplate, type Command } from './menu.ts';
import { isAllowedExternalUrl, isPermissionAllowed, REMOTE_URL_PATTERNS, windowOptions } from './security.ts';
import { guardProcess } from '../../services/process-guard.ts';
import { APP_INDEX_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES, serveAppRequest } from './app-protocol.ts';
import { parseWindowState, restoreBounds, WINDOW_STATE_FILE, type WindowState } from './window-state.ts';

// What the shell needs of the backend, checked structurally against services/backend/backend.ts.
interface ShellBackend {
  call(method: string, body: unknown): Promise<Envelope>;
  onEvent: Backend['onEvent'];
  /** A path the OS handed us (command line, Finder): the user's choice, so the page may open it. */
  allowOpen: Backend['allowOpen'];
  readonly recent: { clear(): Promise<void> };
}

// dist/electron/main.cjs → dist/renderer/index.html, dist/electron/preload.cjs
const distDir = path.resolve(__dirname, '..');
const INDEX_HTML = path.join(distDir, 'renderer', 'index.html');
const RENDERER_DIR = path.dirname(INDEX_HTML);
// The page loads from the app's own scheme, serving only RENDERER_DIR (app-protocol.ts), not file://.
const INDEX_URL = APP_INDEX_URL;
const PRELOAD = path.join(__dirname, 'preload.cjs');
const appRoot = path.resolve(distDir, '..');
// Packaged, the demo bundles and the README are extraResources (plain files beside app.asar, so the
// parser worker and the system's viewer can read them).
const README = app.isPackaged ? path.join(process.resourcesPath, 'README.md') : path.join(appRoot, 'README.md');
const DEMO_DIR = app.isPackaged ? path.join(process.resourcesPath, 'demo') : path.join(appRoot, 'assets', 'demo');
const isDev = !app.isPackaged;

let mainWindow: BrowserWindow | null = null;
let backend: ShellBackend | null = null;
let recent: RecentEntry[] = [];
/** A path the OS asked us to open (macOS open-file) before the window existed. */
let pendingOpen: string | undefined;

function log(message: string): void {
  process.stderr.write(message.endsWith('\n') ? message : message + '\n');
}

// One forgotten failure must not end the app and every bundle open in it (services/process-guard.ts).
guardProcess(log);
// Before the app is ready, as Electron requires: app:// is a standard, secure scheme.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);

// ---------------------------------------------------------------------------------------------
// Single instance: a second launch with a path opens it in the first window.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  app.on('second-instance', (_event, argv, workingDirectory) => {
    const p = bundleFromArgv(argv, { packaged: app.isPackaged, cwd: workingDirectory });
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
      if (p) openChosen(p);
    } else if (p) pendingOpen = p;
  });
  // macOS: a bundle dropped on the Dock icon or opened from Finder.
  app.on('open-file', (event, p) => {
    event.preventDefault();
    if (mainWindow) openChosen(p);
    else pendingOpen = p;
  });
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  app.whenReady().then(start, (e: unknown) => fatal(e));
}

function fatal(e: unknown): void {
  const msg = e instanceof Error ? e.message : String(e);
  log(`hnsight: ${e instanceof Error ? (e.stack ?? msg) : msg}`);
  dialog.showErrorBox('hnsight could not start', msg);
  app.exit(1);
}

async function start(): Promise<void> {
  if (process.platform === 'win32') app.setAppUserModelId('io.github.hnsight');
  if (!existsSync(INDEX_HTML)) {
    fatal(new Error(`The user interface is not built: ${INDEX_HTML} is missing. Run \`npm start\` (or the renderer build) first.`));
    return;
  }
  hardenSession();
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(request, RENDERER_DIR));
  const initialBundle = pendingOpen ?? bundleFromArgv(process.argv, { packaged: app.isPackaged, cwd: process.cwd() });
  pendingOpen = undefined;
  const userData = app.getPath('userData');
  // Remembered passwords (Connect to Node…): OS-encrypted ciphertext only, in userData/secrets.json.
  const secretStore = SafeStorageSecretStore.inDir(userData, safeStorage);
  backend = new Backend({ mode: 'electron', initialBundle, dataDir: userData, demoDir: DEMO_DIR, version: app.getVersion(), secretStore, renderPdf: printHtmlToPdf, dialogs, log }) satisfies ShellBackend;
  // Job events go to the window; a finished load also refreshes the recent-files menu (the backend
  // records a bundle as recent once it has loaded).
  backend.onEvent((e) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(EVENT_CHANNEL, e);
    if (e.type === 'load' && e.job.state === 'done') void refreshRecent();
  });
  registerIpc();
  await refreshRecent(true);
  createWindow();
}

// ---------------------------------------------------------------------------------------------
// Security: session and every webContents.

function hardenSession(): void {
  const ses = session.defaultSession;
  const isOwnPage = (url: string | undefined): boolean => isAppIndexUrl(url, INDEX_URL);
  ses.setPermissionRequestHandler((_wc, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl, isOwnPage));
  });
  ses.setPermissionCheckHandler((wc, permission) => isPermissionAllowed(permission, wc?.getURL(), isOwnPage));
  ses.setDevicePermissionHandler(() => false);
  ses.setDisplayMediaRequestHandler((_request, callback) => callback(null));
  // The app loads nothing remote. The page's CSP is index.html's meta tag and, now that the page comes
  // from app:// (app-protocol.ts), also the handler's response header.
  ses.webRequest.onBeforeRequest({ urls: REMOTE_URL_PATTERNS }, (_details, callback) => callback({ cancel: true }));
  // Exports made in the page (blob:/data: links) may be saved; nothing else is downloaded.
  ses.on('will-download', (event, item) => {
    const url = item.getURL();
    if (!url.startsWith('blob:') && !url.startsWith('data:')) event.preventDefault();
  });
}

function openExternalIfAllowed(url: string): void {
  if (isAllowedExternalUrl(url)) shell.openExternal(url).catch((e: unknown) => log(`hnsight: could not open ${url}: ${String(e)}`));
}

function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openExternalIfAllowed(url);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfAllowed(url);
    return { action: 'deny' };
  });
}

// ---------------------------------------------------------------------------------------------
// IPC: one channel per contract method.

function senderInfo(event: IpcMainInvokeEvent): SenderInfo {
  let url: string | undefined;
  let isMainFrame = false;
  try {
    const frame = event.senderFrame;
    url = frame?.url;
    isMainFrame = !!frame && frame.parent === null;
  } catch {
    // the frame is gone
  }
  return { url, isOurWindow: !!mainWindow && !mainWindow.isDestroyed() && event.sender === mainWindow.webContents, isMainFrame };
}

const dialogs: Dialogs = {
  // The native open dialog is the shell's; the renderer then calls openBundle with the path, which the
  // backend lets through because its pickBundle handler saw the dialog answer it (grants.ts).
  pickBundle: async ({ kind }): Promise<Response<'pickBundle'>> => {
    const win = mainWindow && !mainWindow.isDestroyed() ? mainWindow : undefined;
    const options: OpenDialogOptions =
      kind === 'folder'
        ? { title: 'Open a CollectLogs folder', properties: ['openDirectory'] }
        : {
            title: 'Open a CollectLogs zip',
            properties: ['openFile'],
            filters: [
              { name: 'Zip archives', extensions: ['zip'] },
              { name: 'All files', extensions: ['*'] },
            ],
          };
    const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return r.canceled || r.filePaths.length === 0 ? null : { path: r.filePaths[0] };
  },
  // A kubeconfig, SSH key or known_hosts file for Connect to node…: the backend records the answer as
  // the user's choice (Grants.allowCredential), so startCollect reads it. Only the path comes back.
  pickCredentialFile: async ({ kind }): Promise<Response<'pickCredentialFile'>> => {
    const win = mainWindow && !mainWindow.isDestroyed() ? mainWindow : undefined;
    const home = app.getPath('home');
    const options: OpenDialogOptions = {
      title: kind === 'kubeconfig' ? 'Choose a kubeconfig' : kind === 'identity' ? 'Choose an SSH private key' : 'Choose a known_hosts file',
      defaultPath: path.join(home, kind === 'kubeconfig' ? '.kube' : '.ssh'),
      // These files rarely have an extension, and live in hidden folders.
      properties: ['openFile', 'showHiddenFiles'],
    };
    const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return r.canceled || r.filePaths.length === 0 ? null : { path: r.filePaths[0] };
  },
  // Where to write an exported report (the PDF is written by the backend at that path).
  pickSavePath: async ({ defaultName, extension }): Promise<Response<'pickSavePath'>> => {
    const win = mainWindow && !mainWindow.isDestroyed() ? mainWindow : undefined;
    const name = defaultName.toLowerCase().endsWith(`.${extension}`) ? defaultName : `${defaultName}.${extension}`;
    const options: SaveDialogOptions = { title: 'Export the report', defaultPath: path.join(app.getPath('documents'), name), filters: [{ name: extension.toUpperCase(), extensions: [extension] }] };
    const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
    return r.canceled || !r.filePath ? null : { path: r.filePath };
  },
};

function registerIpc(): void {
  for (const method of METHODS) {
    ipcMain.handle(channelFor(method), (event, body: unknown) =>
      handleIpc(method, body, senderInfo(event), {
        backend: backend!,
        indexUrl: INDEX_URL,
        afterCall: (m, req) => {
          if (m === 'openBundle' || m === 'openDropped') app.addRecentDocument((req as { path: string }).path);
          else if (m === 'listRecent' || m === 'closeBundle') void refreshRecent();
        },
      }),
    );
  }
}

/** Opens a bundle the OS handed us: granted first (grants.ts), then the page is told to open it. */
function openChosen(p: string): void {
  backend?.allowOpen(p);
  sendCommand(COMMANDS.openPath, { path: p });
}

function sendCommand(command: Command, payload?: { path: string } | { text: string }): void {
  const win = mainWindow;
  if (!win || win.isDestroyed()) return;
  const send = () => {
    if (!win.isDestroyed()) win.webContents.send(COMMAND_CHANNEL, command, payload);
  };
  if (win.webContents.isLoading()) win.webContents.once('did-finish-load', send);
  else send();
}

// ---------------------------------------------------------------------------------------------
// Menu and recent bundles (the backend keeps the list in userData; the menu mirrors it).

async function refreshRecent(force = false): Promise<void> {
  if (!backend) return;
  let next: RecentEntry[];
  try {
    const reply = await backend.call('listRecent', {});
    if (!reply.ok) throw new Error(reply.error);
    next = reply.value as RecentEntry[];
  } catch (e) {
    log(`hnsight: could not read the recent list: ${String(e)}`);
    next = [];
  }
  if (!force && JSON.stringify(next) === JSON.stringify(recent)) return;
  recent = next;
  buildMenu();
}

function buildMenu(): void {
  const template = menuTemplate({
    isMac: process.platform === 'darwin',
    isDev,
    recent,
    liveCollection: true,
    send: sendCommand,
    // The user chose Paste Output… (or pressed its keys): that is the consent to read the clipboard,
    // which the page itself is not allowed to (security.ts refuses clipboard-read).
    readClipboard: () => clipboard.readText(),
    clearRecent: () => {
      app.clearRecentDocuments();
      backend?.recent.clear().then(
        () => refreshRecent(true),
        (e: unknown) => log(`hnsight: could not clear the recent list: ${String(e)}`),
      );
    },
    about: showAbout,
    openReadme: () => {
      if (existsSync(README)) void shell.openPath(README);
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function showAbout(): void {
  const v = process.versions;
  const options: MessageBoxOptions = {
    type: 'info',
    title: 'About hnsight',
    message: `hnsight ${app.getVersion()}`,
    detail: `Windows container networking (HNS, VFP, vSwitch) from CollectLogs bundles.\n\nElectron ${v.electron}\nChromium ${v.chrome}\nNode ${v.node}`,
    buttons: ['OK'],
  };
  if (mainWindow && !mainWindow.isDestroyed()) void dialog.showMessageBox(mainWindow, options);
  else void dialog.showMessageBox(options);
}

// ---------------------------------------------------------------------------------------------
// The window and its remembered state.

function windowStateFile(): string {
  return path.join(app.getPath('userData'), WINDOW_STATE_FILE);
}

function currentState(win: BrowserWindow): WindowState {
  return { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
}

function createWindow(): void {
  const saved = parseWindowState(readJsonSync(windowStateFile()));
  const restored = restoreBounds(
    saved,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...windowOptions({ preload: PRELOAD, bounds: restored.bounds, devTools: isDev }),
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#1e1e1e' : '#ffffff',
  });
  mainWindow = win;
  if (restored.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  let saveTimer: NodeJS.Timeout | undefined;
  const scheduleSave = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => {
      if (!win.isDestroyed()) writeJsonAtomic(windowStateFile(), currentState(win)).catch((e: unknown) => log(`hnsight: could not save the window state: ${String(e)}`));
    }, 500);
  };
  win.on('resize', scheduleSave);
  win.on('move', scheduleSave);
  win.on('maximize', scheduleSave);
  win.on('unmaximize', scheduleSave);
  win.on('close', () => {
    clearTimeout(saveTimer);
    try {
      writeJsonAtomicSync(windowStateFile(), currentState(win));
    } catch (e) {
      log(`hnsight: could not save the window state: ${String(e)}`);
    }
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  win.webContents.on('render-process-gone', (_e, details) => log(`hnsight: the window's renderer exited (${details.reason})`));

  win.loadURL(INDEX_URL).catch((e: unknown) => log(`hnsight: could not load ${INDEX_URL}: ${String(e)}`));
  if (pendingOpen) {
    const p = pendingOpen;
    pendingOpen = undefined;
    openChosen(p);
  }
}
