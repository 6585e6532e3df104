/**
 * What a command's result gives as `outputs`: a preview, the outputs the program registered (unknowns as
 * "[unknown]"); `up`, `refresh` and `destroy`, the stack's outputs as the state keeps them after the command, which
 * is what `pulumi stack output` then prints.
 *
 * Guards: `refresh()` and a failed `up()` answered `outputs: {}` although the stack kept its outputs.
 */
import { recordedStack, Recorded } from "./recorded";
import { Recorder, RecorderArgs } from "./recorder";

let recorded: Recorded;
afterEach(() => recorded?.cleanup());

describe("a command's outputs are the stack's outputs after it", () => {
  let args: RecorderArgs;
  beforeEach(() => {
    args = { value: "a", diffMode: "compare" };
    recorded = recordedStack(() => ({ out: new Recorder("r", args).out, value: args.value }));
  });

  it("refresh gives the stack's outputs, which it does not change", async () => {
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.outputs).toEqual({ out: "out-a", value: "a" });
    const refresh = await recorded.stack.refresh();
    expect(refresh.error).toBeUndefined();
    expect(refresh.outputs).toEqual({ out: "out-a", value: "a" });
    expect(refresh.outputs).toEqual(recorded.stack.outputs());
  });

  it("a failed up gives the outputs the state keeps: those of the last successful update", async () => {
    await recorded.stack.up({ skipPreview: true });
    args = { value: "b", diffMode: "compare", fail: "error" };
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error?.message).toContain("failing as asked");
    expect(up.outputs).toEqual({ out: "out-a", value: "a" });
    expect(up.outputs).toEqual(recorded.stack.outputs());
  });

  it("a preview gives the program's outputs, and destroy none", async () => {
    const preview = await recorded.stack.preview();
    expect(preview.outputs).toEqual({ out: "[unknown]", value: "a" });
    await recorded.stack.up({ skipPreview: true });
    const destroy = await recorded.stack.destroy({ skipPreview: true });
    expect(destroy.outputs).toEqual({});
  });
});
