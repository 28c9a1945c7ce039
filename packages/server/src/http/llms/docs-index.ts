import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project's docs/ (the repository root's), next to the packages. */
export const DOCS_DIR = fileURLToPath(new URL("../../../../../docs/", import.meta.url));

/**
 * The docs an agent needs to use the API, in reading order; every other page of docs/ is listed
 * under "Optional" (running, securing and developing Pictor), so a new page is never left out.
 */
const PRIMARY = [
  "api.md",
  "agents.md",
  "template-document.md",
  "recipes.md",
  "on-demand-urls.md",
  "assets.md",
  "webhooks.md",
];

export interface DocPage {
  /** File name in docs/, e.g. `api.md`; served at /llms/<file>. */
  file: string;
  title: string;
  /** The first sentence of its first paragraph. */
  summary: string;
  text: string;
  primary: boolean;
}

/** The pages of docs/ with their titles and summaries, read once; empty when docs/ is not shipped. */
export function readDocPages(dir: string = DOCS_DIR): DocPage[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((name) => name.endsWith(".md"));
  const ordered = [
    ...PRIMARY.filter((name) => files.includes(name)),
    ...files.filter((name) => !PRIMARY.includes(name)).sort(),
  ];
  return ordered.map((file) => {
    const text = readFileSync(join(dir, file), "utf8");
    return { file, ...headOf(text), text, primary: PRIMARY.includes(file) };
  });
}

function headOf(text: string): { title: string; summary: string } {
  const lines = text.split("\n");
  const title = (lines.find((line) => line.startsWith("# ")) ?? "").slice(2).trim();
  const paragraph: string[] = [];
  for (const line of lines.slice(lines.findIndex((l) => l.startsWith("# ")) + 1)) {
    if (line.trim() === "") {
      if (paragraph.length > 0) break;
      continue;
    }
    if (/^(#|```|\||- |> )/.test(line)) {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line.trim());
  }
  const joined = paragraph.join(" ").replace(/\[([^\]]+)\]\([^)]*\)/g, "$1");
  // The first sentence, unless it only leads into what follows ("…of assets:") or says little.
  const sentence = /^(.+?\.)(\s|$)/.exec(joined)?.[1];
  const summary = sentence !== undefined && sentence.length >= 40 ? sentence : joined;
  return { title, summary: summary.length > 240 ? `${summary.slice(0, 237)}…` : summary };
}

/** What Pictor is, for the summary line of /llms.txt. */
const SUMMARY =
  "Pictor is an open-source, self-hostable image render service: templates (JSON documents with text, image and colour slots and several frames) rendered over HTTP to PNG, JPEG, WebP or PDF, with the same engine in the browser editor and the API.";

/** /llms.txt (the llmstxt.org convention): the summary, then links to each page and the references. */
export function llmsTxt(pages: readonly DocPage[], base: string): string {
  const link = (page: DocPage) => `- [${page.title}](${base}/llms/${page.file}): ${page.summary}`;
  return [
    "# Pictor",
    "",
    `> ${SUMMARY}`,
    "",
    "Authenticate with `Authorization: Bearer sk_live_…`; a render costs ceil(scale²) credits, a refused request and a preflight (`POST /v1/renders/preflight`) cost nothing. AI agents can use the MCP server at `/v1/mcp` (same keys) or `pictor mcp` over stdio. Every page below is also in one file: " +
      `${base}/llms-full.txt.`,
    "",
    "## Docs",
    "",
    ...pages.filter((p) => p.primary).map(link),
    "",
    "## API reference",
    "",
    `- [OpenAPI 3.1 document](${base}/v1/openapi.json): every operation, its parameters, bodies, responses and error codes, generated from the schemas the server validates with`,
    `- [API reference page](${base}/docs): the same document as one HTML page`,
    "",
    "## Optional",
    "",
    ...pages.filter((p) => !p.primary).map(link),
    "",
  ].join("\n");
}

/** /llms-full.txt: the summary and every page of docs/, whole, in the same order as /llms.txt. */
export function llmsFullTxt(pages: readonly DocPage[], base: string): string {
  return [
    "# Pictor",
    "",
    `> ${SUMMARY}`,
    "",
    ...pages.flatMap((page) => [`<!-- ${base}/llms/${page.file} -->`, "", page.text.trimEnd(), ""]),
  ].join("\n");
}
