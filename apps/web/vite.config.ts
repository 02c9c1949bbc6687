import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { buildInfo } from './build-info.vite.ts';
import { precompress } from './precompress.vite.ts';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), buildInfo(), precompress()],
  build: {
    // Every page's first load in a few files instead of ~35: on a phone's connection each
    // request costs a round trip, and the many small chunks of the shell (header, footer,
    // cart and session stores, shared rules) were most of Lighthouse's first paint
    // (performance 88-91 -> 94-95). Route modules and what only they import (the 3D
    // viewer, account tabs, checkout) still load with their route.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@radix-ui|zod|cookie|set-cookie-parser|turbo-stream|react-remove-scroll[^\\/]*|aria-hidden|use-callback-ref|use-sidecar|get-nonce|tslib|@floating-ui)[\\/]/,
            },
            {
              name: 'shell',
              test: /(apps[\\/]web[\\/]app[\\/](lib|components[\\/](layout|ui|cart|account[\\/](account-slots|session))|components[\\/]contact[\\/]support-email-link|components[\\/]home|components[\\/]catalogue[\\/](category-menu|search-bar|category-tree))|packages[\\/]shared[\\/]src)/,
            },
          ],
        },
      },
    },
  },
});
