/**
 * `npm run generate`: writes the files derived from the resources' declarations, schema.json, the property tables
 * of docs/resources.md, the dynamic classes' args interfaces and outputs (`provider/<resource>/resource.ts`) and the
 * lookups' element interfaces (`provider/functions/get-*.ts`), the last three between their markers, then the SDKs
 * that schema.json gives (sdk/nodejs, sdk/go, sdk/python: scripts/sdks.ts, which needs Go). `--check` writes nothing
 * and fails, naming them, when any is out of date (CI runs it: `npm run generate:check`). `--no-sdks` leaves sdk/ out
 * (no Go needed). The docs and TypeScript are formatted as `npm run format` would (prettier leaves schema.json as
 * JSON.stringify writes it).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as prettier from "prettier";
import { DECLARATIONS } from "../provider/declarations";
import { Declaration } from "../provider/shared/declaration";
import { LOOKUP_ELEMENTS } from "../provider/functions/lookups-schema";
import { lookupRows } from "../provider/functions/lookup";
import {
  classFile,
  classMarkers,
  elementMarkers,
  elementPart,
  inputsPart,
  outputsPart,
} from "../provider/shared/class-of";
import { propertyTable, tableMarkers } from "../provider/shared/docs-of";
import { schemaParts } from "../provider/shared/schema-of";
import { generateSdks } from "./sdks";
import {
  FUNCTION_TYPES,
  FUNCTIONS,
  LANGUAGE,
  PACKAGE_CONFIG,
  PACKAGE_HEADER,
  PACKAGE_PROVIDER,
} from "../provider/package-schema";

/**
 * The repository, or with `--root <dir>` a copy of the files it writes: schema.json, docs/resources.md, package.json,
 * and the TypeScript files with generated parts (test/schema/generate.test.ts makes one).
 */
const rootArg = process.argv.indexOf("--root");
const ROOT = rootArg > 0 ? path.resolve(process.argv[rootArg + 1]) : path.resolve(__dirname, "..", "..");
const SCHEMA = path.join(ROOT, "schema.json");
const RESOURCES_DOC = path.join(ROOT, "docs", "resources.md");

/** schema.json's content: the package's part, then the declarations' resources and enumerations, in their order. */
function schemaOf(declarations: Declaration[], version: string): unknown {
  const { resources, types } = schemaParts(declarations);
  const { name, displayName, description, license, keywords } = PACKAGE_HEADER;
  return {
    ...{ name, displayName, description, version, license, keywords },
    config: PACKAGE_CONFIG,
    provider: PACKAGE_PROVIDER,
    types: { ...types, ...FUNCTION_TYPES },
    resources,
    functions: FUNCTIONS,
    language: LANGUAGE,
  };
}

/** The text with `lines` in place of what stands between the markers (`file` names it in the error). */
function between(text: string, file: string, { begin, end }: { begin: string; end: string }, lines: string[]): string {
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) {
    throw new Error(`${file} has no ${begin} … ${end} pair: add the two lines where it goes`);
  }
  const indent = text.slice(text.lastIndexOf("\n", to) + 1, to);
  return `${text.slice(0, from + begin.length)}\n${lines.join("\n")}\n${indent}${text.slice(to)}`;
}

/** The docs' text with each declaration's table written between its markers. */
function withTables(text: string, declarations: Declaration[]): string {
  for (const declaration of declarations) {
    text = between(text, "docs/resources.md", tableMarkers(declaration), ["", ...propertyTable(declaration), ""]);
  }
  return text;
}

/** A generated part of a TypeScript file: its markers and its lines. */
type Part = [{ begin: string; end: string }, string[]];

/** Each TypeScript file's generated parts: a class's args and outputs, a lookup's element interface. */
function typeScriptParts(): Map<string, Part[]> {
  const parts = new Map<string, Part[]>();
  const add = (file: string, part: Part) => parts.set(file, [...(parts.get(file) ?? []), part]);
  for (const declaration of DECLARATIONS) {
    add(classFile(declaration), [classMarkers(declaration, "inputs"), inputsPart(declaration)]);
    add(classFile(declaration), [classMarkers(declaration, "outputs"), outputsPart(declaration)]);
  }
  for (const { name, declaration, file, description } of LOOKUP_ELEMENTS) {
    add(file, [elementMarkers(name), elementPart(name, description, lookupRows(declaration))]);
  }
  return parts;
}

const readAt = (file: string): string => fs.readFileSync(path.join(ROOT, file), "utf8");

async function formatted(file: string, text: string): Promise<string> {
  // The repository's prettier settings, also for a copy elsewhere (--root).
  const options = await prettier.resolveConfig(path.resolve(__dirname, "..", "..", "docs", "resources.md"));
  return prettier.format(text, { ...options, filepath: file });
}

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const sdks = !process.argv.includes("--no-sdks");
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  const wanted = new Map<string, string>([
    [SCHEMA, `${JSON.stringify(schemaOf(DECLARATIONS, version), null, 2)}\n`],
    [RESOURCES_DOC, await formatted(RESOURCES_DOC, withTables(fs.readFileSync(RESOURCES_DOC, "utf8"), DECLARATIONS))],
  ]);
  for (const [file, parts] of typeScriptParts()) {
    const text = parts.reduce((at, [markers, lines]) => between(at, file, markers, lines), readAt(file));
    wanted.set(path.join(ROOT, file), await formatted(path.join(ROOT, file), text));
  }
  const stale = [...wanted].filter(([file, text]) => fs.readFileSync(file, "utf8") !== text).map(([file]) => file);
  const names = stale.map((file) => path.relative(ROOT, file));
  if (check) {
    const sdksCurrent = !sdks || checkSdks(wanted.get(SCHEMA)!);
    if (stale.length > 0) {
      process.stderr.write(`generate: ${names.join(", ")} out of date with the declarations: run npm run generate\n`);
    }
    if (stale.length > 0 || !sdksCurrent) process.exit(1);
    return;
  }
  for (const file of stale) fs.writeFileSync(file, wanted.get(file)!);
  process.stdout.write(stale.length === 0 ? "generate: up to date\n" : `generate: wrote ${names.join(", ")}\n`);
  if (sdks) writeSdks();
}

/** The SDKs the wanted schema.json (written or not) gives, against sdk/; each file that differs is named. */
function checkSdks(schemaText: string): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "neon-schema-"));
  try {
    fs.writeFileSync(path.join(dir, "schema.json"), schemaText);
    const run = generateSdks(ROOT, path.join(dir, "schema.json"), true);
    if (run.ok) return true;
    process.stderr.write(run.lines.map((line) => `generate: ${line}\n`).join(""));
    process.stderr.write("generate: sdk/ out of date with schema.json: run npm run generate\n");
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function writeSdks(): void {
  process.stdout.write("generate: sdk/nodejs, sdk/go, sdk/python from schema.json (tools/pulumi-cli/sdkgen)\n");
  const started = Date.now();
  const run = generateSdks(ROOT, SCHEMA, false);
  process.stdout.write(run.lines.map((line) => `generate: ${line}\n`).join(""));
  if (!run.ok) process.exit(1);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`generate: sdk/ ${run.lines.length === 0 ? "up to date" : "written"} (${seconds} s)\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`generate: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
