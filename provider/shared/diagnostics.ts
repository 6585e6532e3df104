/**
 * What the provider tells the user outside of errors. The engine shows every line a dynamic provider's plugin writes
 * to stderr as a diagnostic of the command (pulumi/pulumi `sdk/go/common/resource/plugin/plugin.go`, newPlugin:
 * dynamic plugin binaries' stderr goes to `Diag.Infoerrf`), during preview too. Lines never carry a key or a value a
 * program may have passed as a secret.
 */

/** One `warning: …` line on the plugin's stderr. */
export function warn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}
