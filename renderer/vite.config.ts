import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The renderer is built into renderer/dist, which the engine serves at its API
// address (server/http/renderer-files.ts). Relative asset URLs let Electron load
// the same build from disk later.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    setupFiles: ['src/test-setup.ts'],
  },
});
