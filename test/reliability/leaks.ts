/**
 * The secret search: no API key (the console key, every key created, every bystander key) may appear in plain text
 * anywhere a user or a backend keeps text:
 *
 * - the state as a backend writes it (`exportState()`: secrets encrypted), pending operations included;
 * - every command's diagnostics (the engine's messages and every line the plugin wrote, its preview's too), its
 *   error (message, stack, serialized), its step errors and the outputs it printed;
 * - every error a test collected, the `__provider` text of each resource in state, and the emulator's state file.
 */
import { readFileSync } from "fs";
import { CommandResult, LocalStack } from "../../testing";
import { inState } from "./audit";
import { API_KEY, Rig } from "./rig";

export interface Haystack {
  where: string;
  text: string;
}

/** What is searched: a stack, the commands run on it, and the emulator's state file if any (a {@link Rig} is one). */
export interface Searched {
  stack: LocalStack;
  results: readonly CommandResult[];
  stateFile?: string;
}

/** Everything a user or a backend keeps that must never hold a key in plain text. */
export function haystacks(rig: Searched, errors: readonly Error[]): Haystack[] {
  const out: Haystack[] = [
    { where: "state", text: rig.stack.exportState() },
    ...rig.results.flatMap((result, i) => commandTexts(result, `${result.command} #${i}`)),
    ...errors.map((e, i) => ({ where: `error #${i}`, text: errorText(e) })),
  ];
  for (const resource of rig.stack.state.resources) {
    const text = String(resource.inputs.__provider ?? "");
    if (text) out.push({ where: `__provider of ${resource.urn}`, text });
  }
  try {
    if (rig.stateFile) out.push({ where: "emulator state file", text: readFileSync(rig.stateFile, "utf8") });
  } catch {
    // no state file written yet
  }
  return out;
}

/** What a command showed the user: diagnostics (its preview's too), steps' errors, outputs, its error. */
function commandTexts(result: CommandResult, label: string): Haystack[] {
  const diagnostics = [...result.diagnostics, ...(result.preview?.diagnostics ?? [])];
  const out = [
    { where: `${label} diagnostics`, text: diagnostics.map((d) => d.message).join("\n") },
    { where: `${label} steps`, text: result.steps.map((s) => s.error ?? "").join("\n") },
    { where: `${label} outputs`, text: JSON.stringify(result.outputs) },
  ];
  if (result.error) out.push({ where: `${label} error`, text: errorText(result.error) });
  return out;
}

function errorText(error: Error): string {
  return `${error.message}\n${error.stack ?? ""}\n${JSON.stringify(error)}`;
}

/** Plain-text hits of any secret in the haystacks: "where: key …last4". */
export function leaks(rig: Searched, errors: readonly Error[], secrets: Iterable<string>): string[] {
  const hits: string[] = [];
  const texts = haystacks(rig, errors);
  for (const secret of new Set(secrets)) {
    if (!secret || secret.length < 16) continue;
    for (const { where, text } of texts) if (text.includes(secret)) hits.push(`${where}: key …${secret.slice(-4)}`);
  }
  return hits;
}

/** Secrets of every key in state (decrypted, as the engine hands them to the provider). */
export function secretsInState(rig: Rig): string[] {
  return inState(rig, API_KEY)
    .map((r) => String(r.outputs.key ?? ""))
    .filter(Boolean);
}
