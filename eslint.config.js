import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

// Layers (ARCHITECTURE.md "Layers"): data flows one way, parsers → analysis → contract → services →
// shells (electron/, cli/, renderer/). Each layer's imports are fenced here; the pure layers' tsconfig
// (lib ES2022, types []) also catches Node and DOM globals.
// Node built-ins: `node:*` by pattern; bare names by exact module name (a pattern would also match a
// folder of ours such as parsers/net/).
const NODE = ['node:*'];
const NODE_BARE = ['fs', 'fs/promises', 'path', 'os', 'child_process', 'crypto', 'stream', 'zlib', 'url', 'util', 'buffer', 'events', 'worker_threads', 'http', 'https', 'net', 'tls'];
const bare = (message) => NODE_BARE.map((name) => ({ name, message }));
const REACT = ['react', 'react-dom', 'react/*', 'react-dom/*', '@xyflow/*', 'zustand', 'zustand/*', 'lucide-react', '@tanstack/*', 'elkjs', 'elkjs/*'];
const ELECTRON = ['electron', 'electron/*'];
const shells = (except = []) => ['**/electron/**', '**/renderer/**', '**/cli/**'].filter((g) => !except.includes(g));

const pureImportBan = {
  paths: bare('parsers/ and analysis/ are pure TypeScript: no Node APIs.'),
  patterns: [
    { group: NODE, message: 'parsers/ and analysis/ are pure TypeScript: no Node APIs.' },
    { group: REACT, message: 'parsers/ and analysis/ are pure TypeScript: no React.' },
    { group: ELECTRON, message: 'parsers/ and analysis/ are pure TypeScript: no Electron.' },
    { group: [...shells(), '**/services/**', '**/contract/**'], message: 'parsers/ and analysis/ may not depend on the layers above them.' },
    { group: ['yauzl', 'ssh2', '@kubernetes/*'], message: 'I/O belongs to services/.' },
  ],
};
const contractImportBan = {
  paths: bare('contract/ is shared with the renderer and the sandboxed preload: no Node APIs.'),
  patterns: [
    { group: NODE, message: 'contract/ is shared with the renderer and the sandboxed preload: no Node APIs.' },
    { group: [...REACT, ...ELECTRON], message: 'contract/ describes the API; it does not use React or Electron.' },
    { group: [...shells(), '**/services/**'], message: 'contract/ sits below the services and the shells that implement and call it.' },
  ],
};
const servicesImportBan = {
  patterns: [
    { group: [...REACT, ...ELECTRON], message: 'services/ are plain Node: no React, no Electron (the desktop shell adapts them).' },
    { group: shells(), message: 'services/ may not depend on a shell (electron/, cli/, renderer/).' },
  ],
};
const rendererImportBan = {
  paths: bare('The renderer runs in a sandboxed page: no Node APIs.'),
  patterns: [
    { group: [...NODE, ...ELECTRON, 'yauzl', 'ssh2', '@kubernetes/*'], message: 'The renderer runs in a sandboxed page: no Node, no Electron; it reaches the backend only through the contract.' },
    { group: [...shells(['**/renderer/**']), '**/services/**'], message: 'The renderer reaches services only through the contract (contract/api.ts).' },
  ],
};
const electronImportBan = {
  patterns: [
    { group: [...REACT], message: 'The Electron shell does not render React itself.' },
    { group: ['**/renderer/**', '**/cli/**'], message: 'The desktop shell may not depend on another shell.' },
  ],
};
const cliImportBan = {
  patterns: [
    { group: [...REACT, ...ELECTRON], message: 'The CLI runs under plain Node.' },
    { group: ['**/renderer/**', '**/electron/**'], message: 'The CLI may not depend on another shell.' },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'out', 'release', 'coverage', '.cache', 'test/fixtures/**', 'assets/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['parsers/**/*.ts', 'analysis/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': ['error', pureImportBan],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'window', 'document', 'require', '__dirname', 'setTimeout', 'fetch'],
    },
  },
  {
    files: ['contract/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': ['error', contractImportBan],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'window', 'document', 'require', '__dirname', 'fetch'],
    },
  },
  { files: ['services/**/*.ts'], rules: { 'no-restricted-imports': ['error', servicesImportBan] } },
  { files: ['electron/**/*.ts'], rules: { 'no-restricted-imports': ['error', electronImportBan] } },
  { files: ['cli/**/*.ts'], rules: { 'no-restricted-imports': ['error', cliImportBan] } },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', rendererImportBan] },
  },
  // Where promises cross the event loop (servers, the CLI, IPC, React effects): a promise nobody
  // awaits or catches is an unhandled rejection that ends `serve`; a promise passed where a callback
  // returning nothing is expected loses its errors. Type-aware, so only on these layers.
  {
    files: ['services/**/*.ts', 'cli/**/*.ts', 'electron/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { project: './tsconfig.lint.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  // The renderer's hooks (21 custom ones): the rules of hooks and complete effect dependencies, errors
  // both — a missing dependency is a stale closure, the bug this rule exists for.
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
