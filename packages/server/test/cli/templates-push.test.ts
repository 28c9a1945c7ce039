import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { api } from "../api/support.ts";
import { exited, PICTOR_BIN, scratchForPictor, spawnServe } from "./serve-process.ts";

const run = promisify(execFile);
const OG_CARD = fileURLToPath(new URL("../../../../examples/templates/og-card.json", import.meta.url));
const { dir, children } = scratchForPictor("pictor-push-");
const env = { ...process.env, PICTOR_LOG_LEVEL: "warn" };
const pictor = (...args: string[]) => run(process.execPath, [PICTOR_BIN, ...args, "--data", dir], { env });

it("templates push imports the images a document names by relative path, once, and the template renders", async () => {
  const account = JSON.parse((await pictor("accounts", "create", "--name", "push", "--json")).stdout);
  const imageAssets = () => {
    const db = new DatabaseSync(join(dir, "pictor.db"), { readOnly: true });
    try {
      return Number(
        db
          .prepare("SELECT COUNT(*) AS n FROM assets WHERE account_id = ? AND folder LIKE 'templates/%'")
          .get(account.account_id)?.n,
      );
    } finally {
      db.close();
    }
  };
  const pushed = await pictor("templates", "push", OG_CARD, "--account", account.account_id, "--publish");
  expect(pushed.stdout).toMatch(
    /^Updated blog-og-card \(tpl_\w+\), published version 2, 1 new image asset\(s\)\.$/m,
  );
  expect(imageAssets()).toBe(1);
  // Pushing again reuses the stored bytes, and says so; the same document publishes no new version.
  const again = await pictor("templates", "push", OG_CARD, "--account", account.account_id, "--publish");
  expect(again.stdout).toContain(
    "version 2 already published as it is, 0 new image asset(s), 1 already there.",
  );
  expect(imageAssets()).toBe(1);

  const serving = await spawnServe(dir, env, children);
  const res = await api(serving, "POST", "/v1/renders", {
    key: account.api_key,
    body: { template: "blog-og-card", modifications: [], wait: true },
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: "completed", template_version: 2, width: 1200, height: 630 });
  serving.child.kill("SIGTERM");
  // The server writes the database while it drains: read it only once the process is gone.
  await exited(serving.child);

  // An invalid document is refused before its images are stored.
  mkdirSync(join(dir, "docs"));
  mkdirSync(join(dir, "images"));
  // Bytes the account does not have yet (desk.jpg would be deduplicated and prove nothing).
  copyFileSync(
    fileURLToPath(new URL("../../../../examples/images/concert.jpg", import.meta.url)),
    join(dir, "images/concert.jpg"),
  );
  const invalid = JSON.parse(
    readFileSync(OG_CARD, "utf8").replaceAll("../images/desk.jpg", "../images/concert.jpg"),
  );
  invalid.key = "invalid-card";
  invalid.frames[0].width = -1;
  writeFileSync(join(dir, "docs/invalid.json"), JSON.stringify(invalid));
  const before = imageAssets();
  const invalidPush = await pictor(
    "templates",
    "push",
    join(dir, "docs/invalid.json"),
    "--account",
    account.account_id,
  ).then(
    () => null,
    (error: { code: number; stderr: string }) => error,
  );
  expect(invalidPush?.code).toBe(2);
  expect(invalidPush?.stderr).toMatch(/frames\[0\]\.width/);
  expect(imageAssets()).toBe(before);

  // A document naming an image that is not there is refused before anything is stored.
  const broken = join(dir, "broken.json");
  writeFileSync(broken, readFileSync(OG_CARD, "utf8").replaceAll("../images/desk.jpg", "../images/nope.jpg"));
  const refused = await pictor("templates", "push", broken, "--account", account.account_id).then(
    () => null,
    (error: { code: number; stderr: string }) => error,
  );
  expect(refused?.code).toBe(2);
  expect(refused?.stderr).toContain(
    "names images that are not there (paths are relative to the file): ../images/nope.jpg",
  );

  // Refused after some images were stored (a later image is not an image; the document names an
  // asset the account lacks): the images this push stored are removed again.
  writeFileSync(join(dir, "images/fake.jpg"), "not a jpeg at all");
  const twoImages = JSON.parse(readFileSync(join(dir, "docs/invalid.json"), "utf8"));
  twoImages.frames[0].width = 1200;
  twoImages.key = "two-images";
  const photo = twoImages.frames[0].layers.find((l: { type: string }) => l.type === "image");
  twoImages.frames[0].layers.push({ ...photo, id: "second", src: "../images/fake.jpg" });
  writeFileSync(join(dir, "docs/two-images.json"), JSON.stringify(twoImages));
  const foreign = { ...twoImages, key: "foreign" };
  foreign.frames[0].layers = foreign.frames[0].layers.map((l: { id: string }) =>
    l.id === "second" ? { ...l, src: "asset://ast_doesnotexist" } : l,
  );
  writeFileSync(join(dir, "docs/foreign.json"), JSON.stringify(foreign));
  for (const [file, message] of [
    ["docs/two-images.json", "Image ../images/fake.jpg: "],
    ["docs/foreign.json", "ast_doesnotexist"],
  ] as const) {
    const push = await pictor("templates", "push", join(dir, file), "--account", account.account_id).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(push?.code, file).toBe(2);
    expect(push?.stderr).toContain(message);
    expect(imageAssets(), file).toBe(before);
  }
});
