/**
 * A declaration's TypeScript: for its dynamic class (`<resource>/resource.ts`), the args interface a program fills, the
 * object types its rows name and the class's `declare readonly` outputs; for a lookup (`functions/get-*.ts`), its
 * element interface. Each member carries its row's description as JSDoc. `npm run generate` writes them between the
 * markers `classMarkers` and `elementMarkers` name (scripts/generate.ts), as it writes the docs' tables; a hand edit
 * inside them is overwritten, and `generate:check` fails while one is out of date.
 */
import { Declaration, InputRow, ObjectField, ObjectType, OutputRow, SchemaType } from "./declaration";

/** The largest width of a line the repository's prettier settings keep (`.prettierrc`). */
const WIDTH = 120;

/** The markers around a generated part of a class file: its inputs (top level) or its outputs (in the class). */
export function classMarkers(declaration: Declaration, part: "inputs" | "outputs"): { begin: string; end: string } {
  return {
    begin: `// generated: the ${declaration.name} ${part} (npm run generate, from declaration.ts)`,
    end: `// end of the generated ${declaration.name} ${part}`,
  };
}

/** The file of a declaration's class: `provider/api-key/resource.ts` for ApiKey. */
export function classFile(declaration: Declaration): string {
  const folder = declaration.name.replace(/(?<=[a-z])(?=[A-Z])/g, "-").toLowerCase();
  return `provider/${folder}/resource.ts`;
}

/** The top-level part: each object type's args interface (and its output's, where named), then the args interface. */
export function inputsPart(declaration: Declaration): string[] {
  const objects = new Map<string, ObjectType>();
  for (const row of [...Object.values(declaration.inputs), ...Object.values(declaration.outputs)]) {
    if (row.object) objects.set(row.object.token, row.object);
  }
  const lines: string[] = [];
  for (const object of objects.values()) {
    lines.push(...objectInterface(object, "args"), "");
    if (object.outputType) lines.push(...objectInterface(object, "output"), "");
  }
  const inputs = Object.entries(declaration.inputs).filter(([, row]) => !row.internal);
  const { name, docs } = declaration;
  lines.push(
    ...jsDoc(`The inputs of ${article(name)} ${name}; ${docs} says what a change of each does.`, ""),
    `export interface ${name}Args {`,
    ...inputs.flatMap(([input, row]) => [
      ...jsDoc(row.description, "  ", row.deprecation),
      `  ${input}${row.required ? "" : "?"}: pulumi.Input<${inputType(row)}>;`,
    ]),
    "}",
  );
  return lines;
}

/** The markers around a lookup's element interface (`BranchInfo`, …) in its function's file. */
export function elementMarkers(name: string): { begin: string; end: string } {
  return {
    begin: `// generated: ${name} (npm run generate, from the declaration)`,
    end: `// end of the generated ${name}`,
  };
}

/** A lookup's element interface: the rows as plain values, optional where the service may leave one out. */
export function elementPart(name: string, description: string, rows: Record<string, OutputRow>): string[] {
  return [
    ...jsDoc(description, ""),
    `export interface ${name} {`,
    ...Object.entries(rows).flatMap(([field, row]) => [
      ...jsDoc(row.description, "  ", row.deprecation),
      `  ${field}${row.optional ? "?" : ""}: ${valueType(row)}${row.nullable ? " | null" : ""};`,
    ]),
    "}",
  ];
}

/** The part inside the class: one `declare readonly` Output per output row. */
export function outputsPart(declaration: Declaration): string[] {
  return Object.entries(declaration.outputs).flatMap(([name, row]) => [
    ...jsDoc(row.description, "  ", row.deprecation),
    `  declare readonly ${name}: pulumi.Output<${outputType(row)}>;`,
  ]);
}

/** An object type's interface: the program's value (`args`, each field a `pulumi.Input`) or the recorded one. */
function objectInterface(object: ObjectType, side: "args" | "output"): string[] {
  const name = side === "args" ? object.argsType : object.outputType;
  const description = side === "args" ? object.description : `${object.description.replace(/\.$/, "")}, as recorded.`;
  return [
    ...jsDoc(description, ""),
    `export interface ${name} {`,
    ...Object.entries(object.fields).flatMap(([field, row]) => [
      ...jsDoc(row.description, "  "),
      `  ${field}?: ${fieldType(row, side)};`,
    ]),
    "}",
  ];
}

/** The TypeScript of an input's value, inside its `pulumi.Input<…>`. */
function inputType(row: InputRow): string {
  if (row.enum) return literals(row);
  if (row.object) return row.object.argsType;
  return schemaType(row.schema, true);
}

/** The TypeScript of an output's value: `| null` where the record holds null for none, `| undefined` where absent. */
function outputType(row: OutputRow): string {
  const type = valueType(row);
  return row.nullable ? `${type} | null` : row.optional ? `${type} | undefined` : type;
}

/** The TypeScript of a recorded value (an output's, a lookup field's). */
function valueType(row: OutputRow): string {
  if (row.enum) return literals(row);
  if (row.object) return row.object.outputType ?? inline(row.object);
  return schemaType(row.schema, false);
}

/** `an` before a vowel (an ApiKey), else `a`. */
const article = (noun: string): string => (/^[AEIOU]/i.test(noun) ? "an" : "a");

const literals = (row: InputRow | OutputRow): string =>
  row.enum!.values.map((v) => JSON.stringify(v.value)).join(" | ");

/** An object type's field: a `pulumi.Input` in the program's value, plain in the recorded one. */
const fieldType = (row: ObjectField, side: "args" | "output"): string =>
  side === "args" ? `pulumi.Input<${schemaType(row.schema, true)}>` : schemaType(row.schema, false);

/** A recorded object type without a name of its own, spelled in place. */
function inline(object: ObjectType): string {
  const fields = Object.entries(object.fields).map(([name, row]) => `${name}?: ${fieldType(row, "output")}`);
  return `{ ${fields.join("; ")} }`;
}

/** A schema type in TypeScript; in a program's value (`input`), the items of a list or map may be Outputs too. */
function schemaType(schema: SchemaType, input: boolean): string {
  const item = (type: string) => (input ? `pulumi.Input<${type}>` : type);
  switch (schema.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return "type" in schema.items ? `${item("string")}[]` : "unknown[]";
    case "object":
      return "additionalProperties" in schema ? `Record<string, ${item("string")}>` : "Record<string, unknown>";
  }
}

/** A JSDoc comment of the text (and a deprecation), wrapped at the repository's width; one line when it fits. */
function jsDoc(text: string, indent: string, deprecation?: string): string[] {
  const safe = (s: string) => s.replace(/\*\//g, "*\\/");
  const paragraphs = [safe(text), ...(deprecation ? [`@deprecated ${safe(deprecation)}`] : [])];
  const single = `${indent}/** ${paragraphs[0]} */`;
  if (paragraphs.length === 1 && !paragraphs[0].includes("\n") && single.length <= WIDTH) return [single];
  const lines = paragraphs.flatMap((paragraph) => wrapped(paragraph, WIDTH - indent.length - 3));
  return [`${indent}/**`, ...lines.map((line) => `${indent} * ${line}`), `${indent} */`];
}

/** The words of the text in lines of at most `width` characters (a longer word stands alone). */
function wrapped(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return line ? [...lines, line] : lines;
}
