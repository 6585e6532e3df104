/**
 * Issue 23, item 17: what a pipeline must match to find the provider's warnings in the real CLI's event stream (and in
 * `pulumi preview --json`, which carries the same diagnostics). A dynamic provider's plugin is given the engine's
 * address, but no method of the dynamic-provider interface is told the URN of the resource it serves, so a warning
 * cannot be logged as one of the resource: it is a line `warning: …` on the plugin's stderr, which the engine relays
 * as a diagnostic of severity "info#err" with no URN (pulumi/pulumi plugin.go newPlugin). docs/troubleshooting.md says
 * this; the test keeps it true.
 */
import { resizableReplica } from "../plugin/world";
import { cliWorld, CliWorld, ok } from "./cli-world";

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world.stop());

interface DiagnosticEvent {
  severity: string;
  message: string;
  urn?: string;
}

it('a restart warning is a diagnostic of severity info#err, without URN, whose message starts with `warning: Compute "<name>"`', async () => {
  const { program, resize } = resizableReplica(world);
  const stack = world.stack(program);
  try {
    ok(await stack.up({ skipPreview: true }));
    resize(2);
    ok(await stack.preview());
    const diagnostics = (stack.lastEvents?.events ?? [])
      .map((event) => (event as { diagnosticEvent?: DiagnosticEvent }).diagnosticEvent)
      .filter((d): d is DiagnosticEvent => d !== undefined && /will restart/.test(d.message));
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0].severity).toBe("info#err");
    expect(diagnostics[0].urn ?? "").toBe("");
    expect(diagnostics[0].message).toMatch(/^warning: Compute "db" \(ep-[\w-]+\) will restart if it is running: /);
    ok(await stack.destroy({ skipPreview: true }));
  } finally {
    await stack.dispose();
  }
});
