import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// The pure layers (parsers/, analysis/) must run in a browser worker, in Node and in tests alike,
// so they may not reach for Node, the DOM, React or Electron. Their tsconfig (lib ES2022, types [])
// catches globals; this rule catches imports.
const pureImportBan = {
  patterns: [
    { group: ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'stream', 'zlib', 'url', 'util', 'buffer', 'events', 'worker_threads'], message: 'parsers/ and analysis/ are pure TypeScript: no Node APIs.' },
    { group: ['react', 'react-dom', 'react/*', '@xyflow/*', 'zustand', 'zustand/*'], message: 'parsers/ and analysis/ are pure TypeScript: no React.' },
    { group: ['electron', 'electron/*'], message: 'parsers/ and analysis/ are pure TypeScript: no Electron.' },
    { group: ['**/electron/**', '**/renderer/**', '**/cli/**'], message: 'parsers/ and analysis/ may not depend on the shells above them.' },
    { group: ['yauzl'], message: 'Reading zips is a Node service (services).' },
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
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
