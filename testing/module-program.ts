/**
 * A Pulumi program written as a module (an `index.ts` whose top level declares resources and whose exports are the
 * stack outputs), made into a program the local engine can run again and again: each run loads the module afresh,
 * as each `pulumi up` starts a new language host. The program's own files load again; `@pulumi/pulumi` stays the one
 * instance the engine drives, so the program's registrations reach it.
 */
import * as path from "path";
import { Program } from "./program";

/** `file`: the program's compiled entry (or its directory, with an index.js). */
export function moduleProgram(file: string): Program {
  const entry = require.resolve(path.resolve(file));
  return () => ({ ...(typeof jest !== "undefined" ? loadInJest(entry) : loadInNode(entry)) });
}

/** Under jest, whose module registry ignores require.cache: an isolated registry sharing @pulumi/pulumi. */
function loadInJest(entry: string): Record<string, unknown> {
  const pulumi = require("@pulumi/pulumi");
  let loaded: Record<string, unknown> = {};
  jest.isolateModules(() => {
    jest.doMock("@pulumi/pulumi", () => pulumi);
    loaded = require(entry);
  });
  return loaded;
}

/** Under plain Node: the program's own files (not its packages) dropped from the cache, then required. */
function loadInNode(entry: string): Record<string, unknown> {
  const root = path.dirname(entry);
  for (const cached of Object.keys(require.cache)) {
    if (cached.startsWith(root + path.sep) && !cached.includes(`${path.sep}node_modules${path.sep}`)) {
      delete require.cache[cached];
    }
  }
  return require(entry) as Record<string, unknown>;
}
