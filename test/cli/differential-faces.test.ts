/**
 * The two faces of the provider compared on one program (issue 25, item 5): the package's dynamic classes (type
 * `pulumi-nodejs:dynamic/neon:<Type>`, served by Pulumi's pulumi-nodejs plugin) and the native plugin
 * (bin/pulumi-resource-neon, `neon:index:<Type>`, declared by hand-written CustomResource classes), each run by the
 * real CLI as a user runs it, against a fresh emulator of its own. One scenario: a Branch, a Compute on it, a Role and
 * a Database it owns; a resize of the compute; a rename of the database; destroy. Per command, both faces must show the
 * same steps (op per resource and the inputs an update changes, type tokens mapped), the same diagnostics (the restart
 * warning's text), the same requests (method and path, ids masked, each counted: every write and every read but the
 * polls of an operation, whose number depends on timing) and the same outputs (the stack's, and each resource's id,
 * inputs and outputs in the state; ids, times and random parts masked; the password a secret in both). The steps come
 * from the engine's events (`--event-log`), the outputs from `pulumi stack output` and the state file.
 *
 * What differs by design, asserted as a difference (README, The native plugin; docs/native.md):
 * - an update's `detailedDiff`: the native plugin names each changed property, the dynamic plugin sends none;
 * - the restart warning: the dynamic plugin's is a line of its stderr (`info#err`, no URN), the native plugin's a
 *   warning of the compute (`warning`, its URN); the text is the same;
 * - `__provider` (the dynamic provider's serialized code) in a dynamic resource's inputs and outputs, none natively;
 * - the default provider's step: the engine gives the dynamic face's provider (pulumi-nodejs) the whole stack config,
 *   so a change of the program's own config (the size, the database's name) updates it, sending nothing; the native
 *   provider has only `neon:`'s config, and stays the same.
 */
import { cliRootOrThrow } from "./cli-world";
import {
  command,
  Command,
  configChange,
  Face,
  FACES,
  FaceName,
  masked,
  Metadata,
  nameOf,
  stackOutputs,
  startFace,
  stateOf,
  typeOf,
} from "./faces-world";

const faces = {} as Record<FaceName, Face>;

beforeAll(async () => {
  const cliRoot = cliRootOrThrow();
  for (const name of FACES) faces[name] = await startFace(name, cliRoot);
});

afterAll(async () => {
  for (const face of Object.values(faces)) {
    await face.dir.dispose();
    await face.emulator.close();
  }
});

/** The same command on both faces, one after the other. */
async function both(args: string[], preview = false): Promise<Record<FaceName, Command>> {
  const out = {} as Record<FaceName, Command>;
  for (const name of FACES) out[name] = await command(faces[name], args, preview);
  return out;
}

async function configure(values: Record<string, string>): Promise<void> {
  for (const face of Object.values(faces)) {
    const pairs = Object.entries(values).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]);
    await face.dir.ok(["config", "set-all", ...pairs]);
  }
}

const PROVIDER = "default provider: ";

/**
 * Both faces' views of a command are equal (the name says which, in a failure's diff), but for the default
 * provider's step, which is `provider` here: by design, the engine gives the dynamic face's provider (pulumi-nodejs)
 * the whole stack config, so any change of the program's config updates it; the native one has only `neon:`'s.
 */
function expectSame(what: string, command: Record<FaceName, Command>, provider: Record<FaceName, string>): void {
  const view = (face: FaceName) => {
    const { steps, ...rest } = command[face].view;
    const theirs = steps.filter((s) => s.startsWith(PROVIDER)).map((s) => s.slice(PROVIDER.length));
    return { what, ...rest, steps: steps.filter((s) => !s.startsWith(PROVIDER)), provider: theirs.join("; ") };
  };
  expect(view("native")).toEqual({ ...view("dynamic"), provider: provider.native });
  expect(view("dynamic").provider).toEqual(provider.dynamic);
}

/** Each face's restart warnings, raw: severity, whether it names a URN, the text. */
function restartWarnings(command: Command): { severity: string; urn?: string; message: string }[] {
  return command.events
    .map((e) => e.diagnosticEvent)
    .filter((d) => d !== undefined && /will restart/.test(d.message))
    .map((d) => ({ severity: d!.severity, ...(d!.urn ? { urn: nameOf(d!.urn) } : {}), message: d!.message.trim() }));
}

/** The update steps' detailedDiff in a preview, by resource name (the providers' left out). */
function detailedDiffs(command: Command): Record<string, unknown> {
  const updates = command.events
    .map((e) => e.resourcePreEvent?.metadata)
    .filter((m): m is Metadata => m !== undefined && m.op === "update" && typeOf(m.type) !== "provider");
  return Object.fromEntries(updates.map((m) => [nameOf(m.urn), m.detailedDiff ?? null]));
}

const writesOf = (command: Record<FaceName, Command>) => command.dynamic.view.writes;
const sentNothing = (command: Record<FaceName, Command>) =>
  FACES.forEach((face) => expect(command[face].run.requests).toEqual([]));

it("the dynamic and the native face: the same steps, requests, warnings and outputs, command by command", async () => {
  const started = Date.now();
  for (const face of Object.values(faces)) {
    await face.dir.ok(["stack", "init", "dev"]);
    await face.dir.ok([
      ...["config", "set-all", "--plaintext", `projectId=${face.emulator.projectId}`],
      ...["--plaintext", `neon:apiUrl=${face.emulator.baseUrl}`, "--secret", `neon:apiKey=${face.emulator.apiKey}`],
      ...["--plaintext", "size=0.25", "--plaintext", "databaseName=appdb"],
    ]);
  }
  const timings: string[] = [];
  const timed = async (what: string, args: string[], provider: string | Record<FaceName, string>, preview = false) => {
    const at = Date.now();
    const result = await both(args, preview);
    timings.push(`${what} ${Date.now() - at} ms`);
    expectSame(what, result, typeof provider === "string" ? { dynamic: provider, native: provider } : provider);
    return result;
  };
  const preview = (what: string, provider: string | Record<FaceName, string>) =>
    timed(what, ["preview", "--json"], provider, true);
  const up = (what: string, provider: string | Record<FaceName, string>) =>
    timed(what, ["up", "--yes", "--skip-preview"], provider);

  // The first preview: four creates (and the default provider's), nothing sent.
  const planned = await preview("first preview", "create");
  expect(planned.dynamic.view.steps.filter((s) => s.endsWith(": create"))).toHaveLength(5); // and the provider's
  sentNothing(planned);

  const made = await up("first up", "create");
  expect(writesOf(made)).toEqual([
    "POST /projects/{project}/branches",
    "POST /projects/{project}/branches/{br:feature}/databases",
    "POST /projects/{project}/branches/{br:feature}/roles",
    "POST /projects/{project}/endpoints",
  ]);
  await expectSameOutputs("first up");
  await expectSameState("first up");

  // The perpetual-diff guard: a preview shows no change on either face, sending nothing.
  const unchanged = await timed("no change", ["preview", "--json", "--expect-no-changes"], "same", true);
  sentNothing(unchanged);

  // A resize: one update, one restart warning (of the same text) and one PATCH, in each face.
  await configure({ size: "1" });
  const resizing = await preview("resize preview", configChange("size"));
  sentNothing(resizing);
  expect(resizing.dynamic.view.steps).toContain(
    "db neon:Compute: update changed autoscalingLimitMaxCu,autoscalingLimitMinCu",
  );
  const dynamicWarning = restartWarnings(resizing.dynamic);
  const nativeWarning = restartWarnings(resizing.native);
  // By design: the dynamic plugin's warning is a line of its stderr, the native plugin's a warning of the compute.
  expect(dynamicWarning).toEqual([{ severity: "info#err", message: expect.stringMatching(/^warning: Compute "db"/) }]);
  // (The engine's event carries a warning's text alone; its display, `preview --json` included, puts "warning: " in
  // front, as the dynamic plugin's line has it already.)
  expect(nativeWarning).toEqual([{ severity: "warning", urn: "db", message: expect.stringMatching(/^Compute "db"/) }]);
  expect(masked(faces.native, `warning: ${nativeWarning[0].message}`)).toEqual(
    masked(faces.dynamic, dynamicWarning[0].message),
  );
  // By design: the native preview names each changed property; the dynamic plugin's Diff names none.
  expect(detailedDiffs(resizing.dynamic)).toEqual({ db: null });
  const update = { diffKind: "update", inputDiff: true }; // the event's form of `preview --json`'s `kind`
  expect(detailedDiffs(resizing.native)).toEqual({
    db: { autoscalingLimitMinCu: update, autoscalingLimitMaxCu: update },
  });

  const resized = await up("resize", configChange("size"));
  expect(writesOf(resized)).toEqual(["PATCH /projects/{project}/endpoints/{ep:db}"]);
  FACES.forEach((face) => expect(restartWarnings(resized[face])).toHaveLength(1));
  const outputs = await expectSameOutputs("resize");
  expect(outputs.sizes).toEqual([1, 1]);
  await expectSameState("resize");

  // A rename of the database: an update in place (one PATCH, by its old name), its id kept.
  await configure({ databaseName: "appdb2" });
  const renaming = await preview("rename preview", configChange("databaseName"));
  sentNothing(renaming);
  expect(renaming.dynamic.view.steps).toContain("appdb neon:Database: update changed name");
  expect(detailedDiffs(renaming.dynamic)).toEqual({ appdb: null });
  expect(detailedDiffs(renaming.native)).toEqual({ appdb: { name: update } });
  const renamed = await up("rename", configChange("databaseName"));
  expect(writesOf(renamed)).toEqual(["PATCH /projects/{project}/branches/{br:feature}/databases/appdb"]);
  expect(await expectSameOutputs("rename")).toMatchObject({ databaseName: "appdb2", databaseId: "{db:appdb}" });
  await expectSameState("rename");

  const destroyed = await timed("destroy", ["destroy", "--yes", "--skip-preview"], "delete");
  expect(writesOf(destroyed)).toEqual([
    "DELETE /projects/{project}/branches/{br:feature}",
    "DELETE /projects/{project}/branches/{br:feature}/databases/appdb2",
    "DELETE /projects/{project}/branches/{br:feature}/roles/app_user",
    "DELETE /projects/{project}/endpoints/{ep:db}",
  ]);
  FACES.forEach((face) => expect(stateOf(faces[face])).toEqual({}));
  console.log(`two faces through the CLI: ${Date.now() - started} ms (${timings.join(", ")})`);
});

/** Both faces' stack outputs are the same, masked; the password a secret in both, shown as a string of one shape. */
async function expectSameOutputs(what: string): Promise<Record<string, unknown>> {
  const dynamic = await stackOutputs(faces.dynamic);
  expect({ what, outputs: await stackOutputs(faces.native) }).toEqual({ what, outputs: dynamic });
  expect(dynamic.password).toEqual("[secret]");
  for (const face of FACES) {
    const shown = await stackOutputs(faces[face], true);
    expect(shown.password).toEqual(expect.stringMatching(/^[A-Za-z0-9]{12,}$/));
    expect(shown.host).toEqual(expect.stringMatching(/^\{ep:db\}\.[a-z0-9.-]+$/));
  }
  return dynamic;
}

/**
 * Both faces' states are the same, masked (each resource's type mapped, id, inputs, outputs, the password a secret in
 * both); by design, a dynamic resource's inputs and outputs carry `__provider`, a native one's do not.
 */
async function expectSameState(what: string): Promise<void> {
  const dynamic = stateOf(faces.dynamic);
  const native = stateOf(faces.native);
  const providers = (state: Record<string, unknown>) =>
    Object.values(state).map((r) => (r as { __provider: boolean }).__provider);
  expect(providers(dynamic)).toEqual([true, true, true, true]);
  expect(providers(native)).toEqual([false, false, false, false]);
  const without = (state: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(state).map(([name, r]) => [name, { ...(r as object), __provider: "-" }]));
  expect({ what, state: without(native) }).toEqual({ what, state: without(dynamic) });
  expect(dynamic.app).toMatchObject({ outputs: { password: { ciphertext: "{ciphertext}" } } });
}
