import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createMediaUploadInspector } from "../../src/adapters/media/upload-inspector.ts";
import { createAccount } from "../../src/domain/accounts.ts";
import { uploadAsset } from "../../src/domain/assets/upload.ts";
import { openDataDir } from "../../src/main/data-dir.ts";
import { pngBytes } from "./support.ts";

const dir = mkdtempSync(join(tmpdir(), "pictor-upload-race-"));
const data = openDataDir(dir, { examplesDir: join(dir, "no-examples") });
afterAll(() => {
  data.close();
  rmSync(dir, { recursive: true, force: true });
});

it("the loser of two identical concurrent uploads returns the winner and removes its own copy of the bytes", async () => {
  const { accountId } = await createAccount(data, { name: "race" });
  const deps = {
    library: data.assetLibrary,
    blobs: data.blobs,
    clock: data.clock,
    inspector: createMediaUploadInspector(),
  };
  const png = await pngBytes(24);
  const winner = await uploadAsset(deps, { accountId, bytes: png });
  // The loser looked for these bytes before the winner's record existed, so it writes and inserts too.
  let looked = false;
  const lateLibrary = {
    ...data.assetLibrary,
    findBySha256: async (account: string, sha256: string) => {
      if (looked) return data.assetLibrary.findBySha256(account, sha256);
      looked = true;
      return null;
    },
  };
  const loser = await uploadAsset({ ...deps, library: lateLibrary }, { accountId, bytes: png });
  expect(winner).toMatchObject({ ok: true, created: true });
  expect(loser).toMatchObject({ ok: true, created: false });
  if (!winner.ok || !loser.ok) throw new Error("both uploads should succeed");
  expect(loser.asset.id).toBe(winner.asset.id);
  expect(readdirSync(join(data.paths.blobs, "uploads", accountId))).toEqual([`${winner.asset.id}.png`]);
});
