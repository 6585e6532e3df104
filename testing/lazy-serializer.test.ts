/**
 * lazy-serializer.ts: with it preloaded, a process that loads what a plugin loads (@pulumi/pulumi's runtime and this
 * package's provider code) loads neither TypeScript nor arborist, and the serializer and computeCodePaths still work
 * when used.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { lazyModule } from "./lazy-serializer";

const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** Runs `script` in a new Node.js process in the repository (with the preload when asked); its stdout as JSON. */
function inNode(script: string, preload: boolean, cwd = REPO_ROOT): Record<string, unknown> {
  const args = [...(preload ? ["--require", path.join(__dirname, "lazy-serializer.js")] : []), "-e", script];
  // stderr kept apart: arborist's dependencies print deprecation warnings
  const stdio: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];
  return JSON.parse(execFileSync(process.execPath, args, { cwd, encoding: "utf8", stdio }));
}

const LOADED = `const loaded = (part) => Object.keys(require.cache).some((file) => file.includes(part));`;

it("a plugin's modules load without TypeScript and arborist; the serializer loads them when it runs", () => {
  const script = `${LOADED}
    require("@pulumi/pulumi/cmd/dynamic-provider/config");
    const runtime = require("@pulumi/pulumi/runtime");
    require("pulumi-neon-dynamic/provider/branch/impl");
    const atStart = { typescript: loaded("/node_modules/typescript/"), arborist: loaded("/@npmcli/arborist/") };
    runtime.serializeFunction(() => 42).then((serialized) => {
      console.log(JSON.stringify({
        atStart,
        text: serialized.text.includes("42"),
        afterSerialize: loaded("/node_modules/typescript/"),
        computeCodePaths: typeof runtime.computeCodePaths,
      }));
    });`;
  expect(inNode(script, true)).toEqual({
    atStart: { typescript: false, arborist: false },
    text: true,
    afterSerialize: true,
    computeCodePaths: "function",
  });
  // Without the preload, both load at the runtime's first require (what the preload saves).
  expect(inNode(script, false)).toMatchObject({ atStart: { typescript: true, arborist: true } });
});

it("computeCodePaths, handed out before its module loaded, runs the real one", () => {
  // In a directory of its own with no dependencies, so that arborist has little to walk.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lazy-serializer-"));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "empty", dependencies: {} }));
  fs.writeFileSync(path.join(dir, "a.txt"), "a");
  const runtime = JSON.stringify(require.resolve("@pulumi/pulumi/runtime"));
  const script = `const runtime = require(${runtime});
    runtime.computeCodePaths({ extraIncludePaths: ["a.txt"] }).then(
      (paths) => console.log(JSON.stringify({ paths: [...paths.keys()] })),
      (error) => console.log(JSON.stringify({ error: String(error) })),
    );`;
  try {
    expect(inNode(script, true, dir)).toEqual({ paths: ["a.txt"] });
    expect(inNode(script, false, dir)).toEqual({ paths: ["a.txt"] });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe("lazyModule", () => {
  it("loads on first touch, once, and forwards reads, `in`, keys and descriptors", () => {
    let loads = 0;
    const real = { a: 1, f: (x: number) => x + 1 };
    Object.defineProperty(real, "__esModule", { value: true }); // non-configurable, as tsc's CommonJS output has it
    const lazy = lazyModule(() => (loads++, real)) as typeof real & { __esModule: boolean };
    expect(loads).toBe(0);
    expect(lazy.a).toBe(1);
    expect(lazy.f(1)).toBe(2);
    expect("a" in lazy).toBe(true);
    expect(Object.keys(lazy)).toEqual(["a", "f"]);
    expect(lazy.__esModule).toBe(true);
    expect({ ...lazy }).toEqual({ a: 1, f: real.f });
    expect(loads).toBe(1);
  });

  it("hands out a named function as a forwarder without loading, which loads and calls the real one", () => {
    let loads = 0;
    const lazy = lazyModule(() => (loads++, { double: (x: number) => 2 * x }), ["double"]) as {
      double: (x: number) => number;
    };
    const double = lazy.double;
    expect(loads).toBe(0);
    expect(double(21)).toBe(42);
    expect(loads).toBe(1);
  });
});
