/**
 * What the provider tells the user outside of errors. The engine shows every line a dynamic provider's plugin writes
 * to stderr as a diagnostic of the command (pulumi/pulumi `sdk/go/common/resource/plugin/plugin.go`, newPlugin:
 * dynamic plugin binaries' stderr goes to `Diag.Infoerrf`), during preview too. Lines never carry a key or a value a
 * program may have passed as a secret.
 */

/**
 * Where warnings go instead of stderr, when set. The native plugin (native/) sets it, so that a warning reaches the
 * engine's log as a warning of its resource (with the URN), which a line on stderr cannot be; the dynamic plugin never
 * sets it, and writes each warning to stderr as before.
 */
export type WarningSink = (message: string) => void;
let sink: WarningSink | undefined;

/** Sends every later warning to `to` (undefined: back to stderr). */
export function setWarningSink(to: WarningSink | undefined): void {
  sink = to;
}

/** One warning: to the sink when one is set, else one `warning: …` line on the plugin's stderr. */
export function warn(message: string): void {
  if (sink) sink(message);
  else process.stderr.write(`warning: ${message}\n`);
}

/** The echoes still to drop: `${error}: ${error.stack}` of each error `once` marked. */
const echoes = new Set<string>();
let filtering = false;

/**
 * Returns the error, marked to be shown once. The plugin writes the error of a check, diff, read or delete to its
 * stderr with its stack before returning it to the engine (`@pulumi/pulumi` cmd/dynamic-provider: `console.error(\`${e}:
 * ${e.stack}\`)`), so the engine printed it twice, the second time with a stack trace of the provider's internals. An
 * error whose message already says what happened and what to do needs neither: its echo is dropped.
 */
export function once<E extends Error>(error: E): E {
  if (!filtering) {
    filtering = true;
    const original = console.error.bind(console);
    console.error = (...args: unknown[]) => {
      if (args.length === 1 && typeof args[0] === "string" && echoes.delete(args[0])) return;
      original(...args);
    };
  }
  if (echoes.size > 100) echoes.clear(); // create and update do not echo: never grow without bound
  echoes.add(`${String(error)}: ${error.stack}`);
  return error;
}
