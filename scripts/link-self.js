#!/usr/bin/env node
/**
 * Makes the package resolvable by its own name from anywhere under the repository
 * (node_modules/pulumi-neon-dynamic -> ..), the way a user's program resolves it once installed.
 *
 * Why: the serialized dynamic provider loads its implementation with require("pulumi-neon-dynamic/...")
 * at call time, from the program's directory. The examples and the plugin tests run from directories
 * inside this repository, so the package must resolve by name there, exactly as it would for a user.
 */
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const { name } = require(path.join(root, "package.json"));
const link = path.join(root, "node_modules", name);

fs.mkdirSync(path.dirname(link), { recursive: true });
try {
  if (fs.readlinkSync(link) === "..") process.exit(0);
  fs.unlinkSync(link);
} catch {
  // absent, or not a link: replaced below
}
fs.symlinkSync("..", link, "dir");
