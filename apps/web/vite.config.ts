import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { buildInfo } from './build-info.vite.ts';
import { precompress } from './precompress.vite.ts';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), buildInfo(), precompress()],
  server: {
    // `npm run dev` serves pages here and forwards API and media calls to the API server.
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
});
