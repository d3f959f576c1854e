import { defineConfig } from 'vitest/config';

// Time limits live here and only here; they are never raised to make a test pass.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
