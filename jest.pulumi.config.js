/**
 * The suite that runs through the real Pulumi CLI (`npm run test:pulumi`): test/cli, on the compiled code in dist/.
 * It needs the CLI that `npm run pulumi:install` builds (or a `pulumi` on PATH); the README's `npm test` leaves it out.
 */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/dist/test/cli"],
  testMatch: ["**/*.test.js"],
  testTimeout: 600000,
  maxWorkers: 2,
};
