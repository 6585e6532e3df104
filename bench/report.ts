/** The table (Markdown, printed and written to results.md) and the chart (hand-written SVG, results.svg). */
export interface Row {
  section: string;
  figure: string;
  value: string;
  target: string;
  /** undefined: informational, no target. */
  pass?: boolean;
}

export function table(rows: Row[]): string {
  const mark = (pass?: boolean) => (pass === undefined ? "" : pass ? "pass" : "**MISS**");
  const lines = ["| # | figure | median (min–max, runs) | target | |", "|---|---|---|---|---|"];
  for (const r of rows) lines.push(`| ${r.section} | ${r.figure} | ${r.value} | ${r.target} | ${mark(r.pass)} |`);
  return lines.join("\n");
}

export interface Series {
  name: string;
  color: string;
  /** [computes, seconds]; `failed` marks a point where changes failed (hollow, labelled). */
  points: { x: number; y: number; failed?: number }[];
  dashed?: boolean;
}

const W = 820;
const H = 420;
const M = { left: 60, right: 320, top: 40, bottom: 50 };

/** Wall time against the number of computes: one line per series, the limit dashed. */
export function chart(title: string, series: Series[]): string {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const xMax = Math.max(...xs);
  const yMax = niceMax(Math.max(...ys));
  const px = (x: number) => M.left + (x / xMax) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - (y / yMax) * (H - M.top - M.bottom);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${M.left}" y="22" font-size="14" font-weight="bold">${escape(title)}</text>`,
    ...axes(xs, yMax, px, py),
  ];
  series.forEach((s, i) => out.push(...line(s, i, px, py)));
  out.push("</svg>");
  return out.join("\n");
}

function axes(xs: number[], yMax: number, px: (x: number) => number, py: (y: number) => number): string[] {
  const out = [
    `<line x1="${px(0)}" y1="${py(0)}" x2="${W - M.right}" y2="${py(0)}" stroke="black"/>`,
    `<line x1="${px(0)}" y1="${py(0)}" x2="${px(0)}" y2="${M.top}" stroke="black"/>`,
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 12}" text-anchor="middle">computes changed in one project (create + resize + destroy)</text>`,
    `<text x="16" y="${(H - M.bottom + M.top) / 2}" transform="rotate(-90 16 ${(H - M.bottom + M.top) / 2})" text-anchor="middle">wall time (s, real)</text>`,
  ];
  for (const x of [...new Set(xs)]) out.push(`<text x="${px(x)}" y="${py(0) + 16}" text-anchor="middle">${x}</text>`);
  for (let i = 0; i <= 4; i++) {
    const y = (yMax * i) / 4;
    out.push(`<line x1="${px(0)}" y1="${py(y)}" x2="${W - M.right}" y2="${py(y)}" stroke="#ddd"/>`);
    out.push(`<text x="${px(0) - 6}" y="${py(y) + 4}" text-anchor="end">${y.toFixed(0)}</text>`);
  }
  return out;
}

function line(s: Series, i: number, px: (x: number) => number, py: (y: number) => number): string[] {
  const pts = s.points.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(" ");
  const dash = s.dashed ? ` stroke-dasharray="6 4"` : "";
  const out = [`<polyline points="${pts}" fill="none" stroke="${s.color}" stroke-width="2"${dash}/>`];
  for (const p of s.points) {
    const fill = p.failed ? "white" : s.color;
    out.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="4" fill="${fill}" stroke="${s.color}" stroke-width="2"/>`);
    if (p.failed) out.push(`<text x="${px(p.x) + 6}" y="${py(p.y) - 6}" fill="${s.color}">${p.failed} failed</text>`);
  }
  const ly = M.top + 10 + i * 20;
  out.push(
    `<line x1="${W - M.right + 15}" y1="${ly}" x2="${W - M.right + 40}" y2="${ly}" stroke="${s.color}" stroke-width="2"${dash}/>`,
  );
  out.push(`<text x="${W - M.right + 46}" y="${ly + 4}">${escape(s.name)}</text>`);
  return out;
}

/** A round top of the y axis that splits into 4 round ticks (steps of 1, 2 or 5 × 10^k). */
function niceMax(v: number): number {
  const raw = (v || 1) / 4;
  const base = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * base).find((s) => s >= raw)!;
  return step * 4;
}

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
