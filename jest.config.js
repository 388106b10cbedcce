/** Tests talk to real PostgreSQL, Redis, PGlite and HTTP servers on loopback. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  globalTeardown: '<rootDir>/test/support/globalTeardown.ts',
  testTimeout: 30000,
  maxWorkers: 2,
};
