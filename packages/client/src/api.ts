// The API client alone, without the callback helpers (which use node:crypto): for edge runtimes and
// browsers' servers. `import { Pictor } from "@pictor/client/api"`.
export { PictorConnectionError, PictorError, type PictorErrorInit, PictorTimeoutError } from "./errors.ts";
export {
  type CallOptions,
  type CreateOptions,
  type CreateRenderOptions,
  newIdempotencyKey,
  Pictor,
  type PictorOptions,
  type UploadInput,
  type WaitOptions,
} from "./pictor.ts";
export type * from "./types.ts";
