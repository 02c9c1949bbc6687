import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { buildInfo } from './build-info.vite.ts';
import { i18nCatalogs } from './i18n-catalogs.vite.ts';
import { precompress } from './precompress.vite.ts';
import { shellChunks } from './shell-chunks.vite.ts';

const chunks = shellChunks();

export default defineConfig({
  plugins: [tailwindcss(), i18nCatalogs(), reactRouter(), buildInfo(), precompress(), chunks.plugin],
  build: {
    // Source maps only on request (WEB_SOURCEMAP=1), to read a profile of the built shop.
    sourcemap: process.env.WEB_SOURCEMAP === '1',
    // Every page's first load in a few files instead of ~35: on a phone's connection each
    // request costs a round trip, and the many small chunks of the shell (header, footer,
    // cart and session stores, shared rules) were most of Lighthouse's first paint
    // (performance 88-91 -> 94-95). Route modules and what only they import (the 3D
    // viewer, account tabs, checkout), and what loads on first use (menus, dialogs), load
    // apart from it (shell-chunks.vite.ts, decision 0030).
    rolldownOptions: {
      output: {
        codeSplitting: { groups: chunks.groups },
      },
    },
  },
});
