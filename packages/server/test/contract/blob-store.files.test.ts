import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileBlobStore } from "../../src/adapters/files/blob-store.ts";
import { blobStoreContract } from "./blob-store.contract.ts";

blobStoreContract(
  "files",
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "pictor-blobs-"));
    return { store: createFileBlobStore(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
  }, // readFile of a directory is EISDIR, which the adapter only maps to null for ENOENT.
  { prefixGetThrows: true },
);
