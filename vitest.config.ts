import { defineConfig } from 'vitest/config';

// The same integration suite runs twice: on SQLite and on the PostgreSQL server at
// 127.0.0.1:5432 (database `test`, one schema per test file). Browser tests run once.
export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  test: {
    // The JSON report lets .ci/run print one plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // multi-instance, soak and nginx-cache: production on PostgreSQL (several instances on one
      // database), so they run once, there.
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: [
            'test/operations/multi-instance.test.ts',
            'test/operations/soak.test.ts',
            'test/platform/webhooks-cluster.test.ts',
            'test/enrolment/asaas-cluster.test.ts',
            'test/enrolment/enrolment-cluster.test.ts',
            'test/http/nginx-cache.test.ts',
          ],
          env: { TEST_DB: 'sqlite' },
        },
      },
      { extends: true, test: { name: 'postgres', include: ['test/**/*.test.ts'], env: { TEST_DB: 'postgres' } } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          env: { TEST_DB: 'sqlite' },
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 60_000,
        },
      },
    ],
  },
});
