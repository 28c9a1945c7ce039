import { Type as T } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { BatchRowRequest } from "../../domain/batches.ts";
import { type Failure, fail } from "../../domain/failure.ts";
import { VALID_KEY } from "../plugins/idempotency.ts";
import { formatPath, pointerSegments } from "../plugins/validation.ts";
import { RenderRequestBody } from "./render-create.ts";

const { wait: _wait, ...rowProperties } = RenderRequestBody.properties;

/**
 * A batch row: the single-render fields, without `wait` (a batch never waits), and the row's own
 * idempotency key (same rules as the Idempotency-Key header; see render-service.ts acceptBatch).
 */
export const BatchRow = T.Object(
  {
    ...rowProperties,
    idempotency_key: T.Optional(
      T.String({
        minLength: 1,
        maxLength: 255,
        description:
          "This row's own idempotency key: 1 to 255 printable ASCII characters without spaces, kept 24 h. Within that time a row with the same key and the same content is answered with the render accepted under it (`replayed: true`, nothing charged); with other content it is refused alone (`idempotency_key_reused`). Unrelated to Idempotency-Key header values.",
      }),
    ),
  },
  { additionalProperties: false },
);

const checkRow = TypeCompiler.Compile(BatchRow);
const checkScale = TypeCompiler.Compile(BatchRow.properties.scale);

/**
 * Checks one row's shape on its own, so a malformed row fails alone instead of failing the whole
 * request (as the route's body schema would). Same rules and error shapes as POST /v1/renders:
 * the first error, its path prefixed with `renders[i]`, and any bad `scale` is invalid_scale.
 */
export function checkBatchRow(row: unknown, index: number): BatchRowRequest | Failure {
  const prefix = `renders[${index}]`;
  if (typeof row === "object" && row !== null && Object.hasOwn(row, "scale")) {
    if (!checkScale.Check((row as { scale: unknown }).scale)) {
      return fail("invalid_scale", "scale must be a number from 1 to 4 inclusive.", {
        errors: [{ path: `${prefix}.scale`, message: "must be a number from 1 to 4" }],
      });
    }
  }
  if (typeof row === "object" && row !== null && Object.hasOwn(row, "idempotency_key")) {
    const key = (row as { idempotency_key: unknown }).idempotency_key;
    if (typeof key !== "string" || !VALID_KEY.test(key)) {
      const path = `${prefix}.idempotency_key`;
      return fail("invalid_request", `${path} must be 1 to 255 printable ASCII characters without spaces.`, {
        errors: [{ path, message: "is malformed" }],
      });
    }
  }
  if (checkRow.Check(row)) return row as BatchRowRequest;
  const first = checkRow.Errors(row).First();
  const path = formatPath([`renders`, String(index), ...pointerSegments(first?.path ?? "")]);
  const message = first?.message ?? "is invalid";
  return fail("invalid_request", `${path}: ${message}`, { errors: [{ path, message }] });
}
