import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Type tests (*.test-d.ts) run through tsc: a wrong field or event type must fail to compile.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    restoreMocks: true,
  },
});
