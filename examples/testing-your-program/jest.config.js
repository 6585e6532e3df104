/**
 * The example run on its own (`npm install`, then `npm test`): ts-jest compiles the tests with this folder's
 * tsconfig.json. Each command of the local engine starts the provider's plugin, so a test takes seconds, and minutes
 * on a loaded CI machine.
 */
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/*.test.ts"],
  testTimeout: 300000,
  transform: {
    // 151002: ts-jest's notice that it compiles tsconfig's `"module": "node16"` as CommonJS (what this folder is);
    // node16 is the module setting TypeScript 5 and 6 both accept.
    "^.+\\.ts$": ["ts-jest", { diagnostics: { ignoreCodes: [151002] } }],
  },
};
