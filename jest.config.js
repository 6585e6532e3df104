/**
 * Tests run on the compiled CommonJS in dist/, the same code a user's `pulumi up` loads: serialized dynamic
 * providers must be produced from real compiled modules, not from a transform jest applies in memory.
 */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/dist"],
  testMatch: ["**/*.test.js"],
  // test/cli runs through the real Pulumi CLI: npm run test:pulumi (jest.pulumi.config.js).
  testPathIgnorePatterns: ["/dist/test/cli/"],
  testTimeout: 60000,
  maxWorkers: 2,
};
