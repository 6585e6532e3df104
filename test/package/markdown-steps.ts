/**
 * A page's setup as its reader follows it: the fenced blocks of one section, in order, a block whose preceding line
 * ends with "`name`:" being that file's content (docs/testing.md's "In an empty directory", the README's Install).
 * The tests that run a page's steps read them here, so the page is what runs.
 */

export interface Step {
  /** A file to write (its name), or undefined for commands. */
  file?: string;
  lang: string;
  body: string;
}

/** The blocks of the section that starts with the heading line `heading`, up to the next `## ` heading. */
export function sectionSteps(markdown: string, heading: string): Step[] {
  const start = markdown.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const rest = markdown.slice(start + heading.length);
  const end = rest.search(/^## /m);
  const section = end >= 0 ? rest.slice(0, end) : rest;
  const found: Step[] = [];
  const pattern = /^```(\w*)\n([\s\S]*?)^```/gm;
  for (let match = pattern.exec(section); match; match = pattern.exec(section)) {
    const before = section.slice(0, match.index).trimEnd().split("\n").at(-1) ?? "";
    const file = /`([^`/]+)`:\**$/.exec(before)?.[1];
    found.push({ file, lang: match[1], body: match[2] });
  }
  return found;
}
