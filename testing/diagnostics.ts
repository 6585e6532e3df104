/**
 * What a command tells the user besides its steps: the engine's own messages (check failures, the pending-operation
 * warning, protect errors) and every line the plugin wrote to stderr, which the engine shows as diagnostics
 * (pulumi/pulumi `sdk/go/common/resource/plugin/plugin.go` newPlugin: a dynamic plugin's stderr → Infoerrf).
 */
export type Severity = "error" | "warning" | "info";

export interface Diagnostic {
  severity: Severity;
  message: string;
  urn?: string;
}

export class Diagnostics {
  readonly list: Diagnostic[] = [];

  error(message: string, urn?: string): void {
    this.list.push({ severity: "error", message, ...(urn ? { urn } : {}) });
  }

  warning(message: string, urn?: string): void {
    this.list.push({ severity: "warning", message, ...(urn ? { urn } : {}) });
  }

  info(message: string, urn?: string): void {
    this.list.push({ severity: "info", message, ...(urn ? { urn } : {}) });
  }

  /** The plugin's output, a diagnostic per line; `warning: …` lines are warnings. */
  addPluginOutput(text: string): void {
    for (const line of text.split("\n").map((l) => l.trim())) {
      if (!line) continue;
      const warning = /^warning:\s*(.*)$/i.exec(line);
      if (warning) this.warning(warning[1]);
      else this.info(line);
    }
  }
}
