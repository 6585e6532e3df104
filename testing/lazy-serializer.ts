/**
 * Preloaded (`node --require`) into the plugin processes the local engine starts when
 * `PULUMI_NEON_TESTING_LAZY_SERIALIZER=1` (plugin.ts): @pulumi/pulumi's closure serializer loads on its first use
 * instead of at the plugin's start.
 *
 * Why: `@pulumi/pulumi/runtime` loads, at its first `require`, what serializes a program's closures: TypeScript's
 * compiler (`runtime/closure/parseFunction` through `typescript-shim`) and npm's arborist (`runtime/closure/codePaths`).
 * A dynamic-provider plugin deserializes its provider (`require-from-string`) and never serializes one, yet it paid
 * both at every start: 1.8 of the 2.6 s from spawn to the plugin's port (measured 2026-11-29 at load 7; 0.7 to 0.95 s
 * with this preload). The local engine starts a plugin per deployment, two per `up`, so the suites spent most of their
 * time there: test/plugin/branch's "updating a branch" tests started 31 plugins, which took 54 of their 66 CPU
 * seconds (1.75 s each); with this preload 22 of 31 (0.70 s each).
 *
 * What is deferred is loaded, unchanged, the first time anything touches it (a property read, `in`, a key listing),
 * so a plugin that did serialize would get the real modules. Only the two requests below, from @pulumi/pulumi's own
 * files, are deferred; `typescript` only when it resolves (else the shim falls back to its vendored copy, as without
 * this preload). Off by default: the plugin then starts exactly as the engine starts it. jest.config.js turns it on
 * for this repository's suites.
 */
import * as path from "path";

/* eslint-disable @typescript-eslint/no-explicit-any */
const Module: any = require("module");

interface Deferred {
  /** The request, as written in the requiring file. */
  request: string;
  /** The requiring file, under @pulumi/pulumi. */
  from: string;
  /** Exports read at load time (`exports.f = mod.f`) that are functions: handed out as forwarders until loaded. */
  functions: string[];
}

const DEFERRED: Deferred[] = [
  // runtime/closure/parseFunction.js: `const ts = require("../../typescript-shim")`, used only inside functions.
  { request: "typescript", from: path.join("@pulumi", "pulumi", "typescript-shim.js"), functions: [] },
  // runtime/index.js: `exports.computeCodePaths = codePaths_1.computeCodePaths` (codePaths loads arborist).
  {
    request: "./closure/codePaths",
    from: path.join("@pulumi", "pulumi", "runtime", "index.js"),
    functions: ["computeCodePaths"],
  },
];

/** A stand-in for a module's exports that loads the module on first touch and forwards everything to it. */
export function lazyModule(load: () => object, functions: string[] = []): object {
  let loaded: any;
  const real = () => (loaded ??= load());
  const forwarders = new Map(
    functions.map((name) => [
      name,
      function (this: unknown, ...args: unknown[]) {
        return real()[name].apply(this, args);
      },
    ]),
  );
  return new Proxy(
    {},
    {
      get: (_, key) =>
        loaded === undefined && forwarders.has(key as string) ? forwarders.get(key as string) : real()[key],
      has: (_, key) => key in real(),
      ownKeys: () => Reflect.ownKeys(real()),
      // Reported configurable: a Proxy may not report a non-configurable property its (empty) target lacks.
      getOwnPropertyDescriptor: (_, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
        return descriptor && { ...descriptor, configurable: true };
      },
      set: (_, key, value) => Reflect.set(real(), key, value),
      defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
      deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
      getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    },
  );
}

/** Installs the deferral into this process's module loader. */
export function install(): void {
  const load = Module._load;
  Module._load = function (request: string, parent: { filename?: string } | undefined, isMain: boolean) {
    const from = parent?.filename ?? "";
    const deferred = DEFERRED.find((d) => d.request === request && from.endsWith(path.sep + d.from));
    if (!deferred || !resolves(request, parent)) return load.call(this, request, parent, isMain);
    return lazyModule(() => load.call(this, request, parent, isMain), deferred.functions);
  };
}

function resolves(request: string, parent: unknown): boolean {
  try {
    Module._resolveFilename(request, parent, false);
    return true;
  } catch {
    return false;
  }
}

// Preloaded (`--require <this file>`) it installs itself; imported (its test), it only exports.
if (process.execArgv.some((arg) => path.resolve(arg) === __filename)) install();
