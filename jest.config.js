/**
 * Tests run on the compiled CommonJS in dist/, the same code a user's `pulumi up` loads: serialized dynamic
 * providers must be produced from real compiled modules, not from a transform jest applies in memory.
 */
// The plugins the local engine starts load @pulumi/pulumi's closure serializer (TypeScript, arborist) on first use,
// which a plugin never comes to: a plugin's CPU 1.75 s -> 0.70 s, and the suites start two plugins per `up`
// (testing/lazy-serializer.ts; docs/development.md has the figures). Off for users unless they set it.
process.env.PULUMI_NEON_TESTING_LAZY_SERIALIZER ??= "1";

module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/dist"],
  testMatch: ["**/*.test.js"],
  // No transform: dist/ is tsc's CommonJS, run as Node runs it. jest's default, babel-jest, reprinted every file of
  // dist/ (a serialized provider's text was babel's, not what a user's plugin loads): 4.5 s of CPU for the files a
  // plugin test loads on an empty cache (CI's), and 0.1 s a file with the cache (dist/client and dist/provider's 42
  // files: 3.5 to 5 s less CPU). Nothing here needs babel's hoisting of jest.mock.
  transform: {},
  // test/cli runs through the real Pulumi CLI: npm run test:pulumi (jest.pulumi.config.js).
  testPathIgnorePatterns: ["/dist/test/cli/"],
  // A bound on a hang, not a speed target (those are bench/'s): a plugin start and a command take several times longer
  // on a machine whose cores are busy with other work, and the suite must pass there too (issue 23, item 9).
  testTimeout: 300_000,
  maxWorkers: 2,
  // A worker whose heap grew past this after a test file is replaced by a fresh one before the next file: each file
  // loads @pulumi/pulumi and grpc anew into jest's module registry, and a worker kept them all. Measured on
  // 2026-11-29 after 81 files: a heap of 0.8 GB in a worker of 5.1 GB RSS (jest checks the heap, not the RSS), and
  // the 10.3 GB worker of issue 23, item 9 was the same growth over the whole suite.
  workerIdleMemoryLimit: "512MB",
};
