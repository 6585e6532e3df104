/**
 * A declaration's property table for docs/resources.md: one line per property a program sets or reads, saying
 * whether it is an input or an output, what a change of it does, and its description. `npm run generate` writes it
 * between the markers `tableMarkers` names (scripts/generate.ts); a hand edit inside them is overwritten.
 */
import { Declaration, InputRow } from "./declaration";

const CHANGE_TEXT: Record<InputRow["change"], string> = {
  replace: "**replace**",
  update: "update",
  action: "an action of its own",
  record: "recorded, nothing sent",
  refused: "**refused** at preview",
};

/** What a change of the input does, in a few words. */
function changeText(row: InputRow): string {
  const connections =
    row.connections === "drop"
      ? ": connections **drop**"
      : row.connections === "may-drop"
        ? ": connections **may drop**"
        : "";
  const what = row.change === "action" && row.action ? row.action : CHANGE_TEXT[row.change];
  return `${what}${connections}`;
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The table's lines (header included). */
export function propertyTable(declaration: Declaration): string[] {
  const lines = ["| Property | In / out | A change | Meaning |", "| --- | --- | --- | --- |"];
  for (const [name, row] of Object.entries(declaration.inputs)) {
    if (row.internal) continue;
    const out = declaration.outputs[name] ? " and output" : "";
    const inOut = row.required ? `input (required)${out}` : `input${out}`;
    lines.push(`| \`${name}\` | ${inOut} | ${changeText(row)} | ${cell(row.description)} |`);
  }
  for (const [name, row] of Object.entries(declaration.outputs)) {
    if (row.internal || declaration.inputs[name]) continue;
    const inOut = row.secret ? "output (secret)" : "output";
    lines.push(`| \`${name}\` | ${inOut} | | ${cell(row.description)} |`);
  }
  return lines;
}

/** The markers around a declaration's table in docs/resources.md. */
export function tableMarkers(declaration: Declaration): { begin: string; end: string } {
  return {
    begin: `<!-- generated: the ${declaration.name} properties (npm run generate) -->`,
    end: `<!-- end of the generated ${declaration.name} properties -->`,
  };
}
