import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeRgba,
  differingBytes,
  pdfImages,
  pdfInfo,
  popplerRequired,
  rasterisePages,
} from "../../../render-node/test/support/poppler.ts";
import { runPictor } from "./serve-process.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const certificate = join(root, "examples/templates/certificate.json");
const socialPost = join(root, "examples/templates/social-post.json");

// `pictor render … --format pdf` as a user runs it: the real binary, read back with poppler.
(popplerRequired ? describe.concurrent : describe.skip)("pictor render --format pdf", () => {
  let dir: string;
  const pictor = (args: string[]) => runPictor(args, { cwd: dir });
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pictor-cli-pdf-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("renders the certificate as an A4 landscape page (-o x.pdf, --dpi 150) whose pixels are the PNG's", async () => {
    const pdfRun = await pictor(["render", certificate, "--dpi", "150", "-o", "certificate.pdf"]);
    expect(pdfRun.stderr).toBe("");
    expect(pdfRun.code).toBe(0);
    expect(pdfRun.stdout).toMatch(
      /^wrote .*certificate\.pdf \(1 page: a4-landscape; first page 1754x1240 px at 150 dpi, .* ms\)\n$/,
    );
    const pdf = await readFile(join(dir, "certificate.pdf"));
    const info = await pdfInfo(pdf);
    expect(info).toMatchObject({ pages: 1, title: "Certificate of completion", creator: "Pictor" });
    expect(info.pageSizes).toEqual([{ width: 841.92, height: 595.2 }]); // A4: 841.89 x 595.28

    const pngRun = await pictor(["render", certificate, "-o", "certificate.png"]);
    expect(pngRun.code).toBe(0);
    const [page] = await rasterisePages(pdf, 150);
    const png = await decodeRgba(await readFile(join(dir, "certificate.png")));
    expect(page && differingBytes(page, png)).toBe(0);
  });

  it("--frames gives pages in that order; --all-frames one page per frame; --quality JPEG pages", async () => {
    const ordered = await pictor([
      "render",
      socialPost,
      "--format",
      "pdf",
      "--frames",
      "story,post",
      "-o",
      "a.pdf",
    ]);
    expect(ordered.code).toBe(0);
    expect((await pdfInfo(await readFile(join(dir, "a.pdf")))).pageSizes).toEqual([
      { width: 810, height: 1440 },
      { width: 810, height: 810 },
    ]);
    const all = await pictor(["render", socialPost, "--all-frames", "--quality", "70", "-o", "b.pdf"]);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/\(2 pages: post, story;/);
    const b = await readFile(join(dir, "b.pdf"));
    expect((await pdfInfo(b)).pages).toBe(2);
    expect((await pdfImages(b)).map((i) => i.enc)).toEqual(["jpeg", "jpeg"]);
  });

  it.each([
    [
      ["--format", "pdf", "--frames", "post,nope"],
      "pictor: the template has no frame 'nope'; its frames: post, story",
    ],
    [
      ["--format", "pdf", "--frames", "post,post"],
      "pictor: --frames names 'post' twice; each frame is one page",
    ],
    [
      ["--frames", "post"],
      "pictor: --frames makes a PDF of several pages; add --format pdf (or -o FILE.pdf)",
    ],
    [
      ["--dpi", "300", "-o", "x.png"],
      "pictor: --dpi sets a PDF's page size; add --format pdf (or -o FILE.pdf)",
    ],
    [["--format", "pdf", "-o", "x.png"], "pictor: -o x.png says png but --format says pdf; make them agree"],
  ])("%j exits 2: %s", async (args, message) => {
    const run = await pictor(["render", socialPost, ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(message);
  });
});
