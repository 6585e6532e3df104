/**
 * The example run on its own (`npm install`, then `npm test`): ts-jest compiles the tests with this folder's
 * tsconfig.json. Each command of the local engine starts the provider's plugin, so a test takes seconds.
 */
module.exports = {
  preset: "ts-jest",
  testEnvironment: "node",
  testMatch: ["<rootDir>/*.test.ts"],
  testTimeout: 60000,
};
