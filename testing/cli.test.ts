import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { findPulumiCli } from "./cli";

/** A directory with `bin/pulumi` (executable or not) and nothing else. */
function installRoot(executable = true): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-root-"));
  fs.mkdirSync(path.join(root, "bin"));
  fs.writeFileSync(path.join(root, "bin", "pulumi"), "#!/bin/sh\n", { mode: executable ? 0o755 : 0o644 });
  return root;
}

describe("findPulumiCli", () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));
  const make = (executable = true) => {
    const root = installRoot(executable);
    roots.push(root);
    return root;
  };

  it("takes PULUMI_CLI_ROOT as the only place to look when it is set", () => {
    const root = make();
    const other = make();
    expect(findPulumiCli({ PULUMI_CLI_ROOT: root, PATH: path.join(other, "bin") })).toBe(root);
    expect(findPulumiCli({ PULUMI_CLI_ROOT: make(false), PATH: path.join(other, "bin") })).toBeUndefined();
  });

  it('reads PULUMI_CLI_ROOT="" as "no CLI", even with one on PATH', () => {
    expect(findPulumiCli({ PULUMI_CLI_ROOT: "", PATH: path.join(make(), "bin") })).toBeUndefined();
  });

  it("finds a pulumi on PATH when there is no build: its install root is the directory above", () => {
    const root = make();
    const found = findPulumiCli({ PATH: ["/nonexistent", path.join(root, "bin")].join(path.delimiter) });
    // The repository's own build (npm run pulumi:install) comes first when there is one.
    expect([
      root,
      path.resolve(__dirname, "../..", ".pulumi-cli"),
      path.resolve(__dirname, "..", ".pulumi-cli"),
    ]).toContain(found);
  });
});
