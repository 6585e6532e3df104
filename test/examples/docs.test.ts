/**
 * The documentation's links: the README is short and sends the reader to docs/, so every relative link of README.md
 * and docs/*.md must reach a file of the repository, and a `#` link a heading of that file (as GitHub makes its
 * anchors); the README must link every page of docs/.
 *
 * Guards: the README's sections moved to docs/ pages (resources, faults, configuration, troubleshooting, testing,
 * examples, emulator, development, benchmarks, changes), whose links to `bench/`, `emulator/`, `testing/` and
 * `examples/` changed with their depth; a page nobody links; an anchor renamed with its heading.
 */
import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../plugin/world";

const DOCS = path.join(REPO_ROOT, "docs");
const PAGES = [
  "README.md",
  ...fs
    .readdirSync(DOCS)
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The markdown without its fenced blocks and inline code (whose brackets are not links). */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "``");
}

/** The targets of the page's links and images. */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]);
}

/** GitHub's anchor of a heading (github-slugger): lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a markdown file's headings, a repeated one with -1, -2, … as GitHub numbers them. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

describe("the documentation's links", () => {
  it.each(PAGES)("%s: every relative link reaches a file, and its heading", (page) => {
    const markdown = fs.readFileSync(path.join(REPO_ROOT, page), "utf8");
    const broken: string[] = [];
    for (const target of links(markdown)) {
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split("#");
      const resolved = file ? path.resolve(path.dirname(path.join(REPO_ROOT, page)), file) : path.join(REPO_ROOT, page);
      if (!resolved.startsWith(REPO_ROOT) || !fs.existsSync(resolved)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      const markdownTarget = fs.statSync(resolved).isDirectory() ? path.join(resolved, "README.md") : resolved;
      if (!markdownTarget.endsWith(".md") || !anchors(fs.readFileSync(markdownTarget, "utf8")).has(anchor)) {
        broken.push(`${target}: no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the README links every page of docs/", () => {
    const linked = new Set(
      links(fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8")).map((t) => t.split("#")[0]),
    );
    const pages = PAGES.filter((page) => page.startsWith("docs/"));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it("the README stays a newcomer's page: what it is, install, the tour, the CLI, the native plugin, the map", () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    expect([...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1])).toEqual([
      "Install",
      "A five-minute tour",
      "The real Pulumi CLI",
      "The native plugin (preview)",
      "Documentation",
    ]);
    expect(readme).toContain("`npm ci && npm run demo`");
    expect(readme).toContain("`npm ci && npm test`");
  });
});
