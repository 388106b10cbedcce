import { defineConfig } from 'vite';

/** The dashboard's own directory, whatever directory `vite build --config dashboard/vite.config.ts` runs from. */
const root = decodeURIComponent(new URL('.', import.meta.url).pathname);

export default defineConfig({
  root,
  base: '/dashboard/',
  // Vite 8 transforms TSX with Oxc: React's automatic runtime, no React import needed in components.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: `${root}dist`,
    emptyOutDir: true,
    sourcemap: false,
    // The polyfill is bundled into the entry, but nothing here needs it: every target browser has modulepreload.
    modulePreload: { polyfill: false },
  },
});
