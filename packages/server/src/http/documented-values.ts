import { CURRENT_VERSION } from "@pictor/engine";
import { Type as T } from "@sinclair/typebox";
import { API_ERROR_CODES } from "./errors.ts";
import {
  TEMPLATE_DOCUMENT_COMPONENT,
  templateDocumentComponents,
  templateDocumentSchemaFile,
} from "./plugins/documented-schemas.ts";
import { BatchRow } from "./routes/batch-row-shape.ts";
import { Job } from "./schemas.ts";

/**
 * What the OpenAPI document says of the values routes check in their own code (placeholders titled
 * as below; see plugins/documented-schemas.ts), and the components those schemas refer to.
 */
const documentRef = { $ref: `#/components/schemas/${TEMPLATE_DOCUMENT_COMPONENT}` };

const EarlierTemplateDocument = {
  title: "EarlierTemplateDocument",
  type: "object",
  description: `A template document of an earlier version (no \`version\`, or 1 to ${CURRENT_VERSION - 1}; their JSON Schemas ship as packages/engine/schema/template-vN.schema.json): accepted and stored migrated to version ${CURRENT_VERSION}.`,
  properties: {
    version: { type: "integer", enum: Array.from({ length: CURRENT_VERSION - 1 }, (_, i) => i + 1) },
  },
};

const BatchRowError = T.Object(
  {
    index: T.Integer({ minimum: 0, description: "The row's position in the request" }),
    error: T.Object(
      {
        code: T.Union(
          [...API_ERROR_CODES, "not_accepted"].map((code) => T.Literal(code)),
          {
            description:
              "The code a single render would get; `not_accepted` (GET /v1/batches/{id}): the batch was interrupted while this row was being charged, and it was not charged",
          },
        ),
        message: T.String(),
      },
      {
        additionalProperties: true,
        description:
          "Why the row was refused (nothing charged): the error a single render would get with its details, without `request_id` (a row is not a request)",
      },
    ),
  },
  { title: "BatchRowError" },
);

const BatchRowAccepted = T.Intersect(
  [
    Job,
    T.Object({
      index: T.Integer({ minimum: 0, description: "The row's position in the request" }),
      replayed: T.Optional(
        T.Literal(true, {
          description: "The row's idempotency_key named a render accepted earlier: that render",
        }),
      ),
    }),
  ],
  { title: "BatchRowAccepted" },
);

export const DOCUMENTED_VALUES: Readonly<Record<string, Record<string, unknown>>> = {
  TemplateDocument: documentRef,
  TemplateDocumentInput: { anyOf: [documentRef, EarlierTemplateDocument] },
  BatchRow: { ...BatchRow, title: "BatchRow" },
  BatchRowResult: { title: "BatchRowResult", anyOf: [BatchRowAccepted, BatchRowError] },
};

/** Built when the OpenAPI document is first served (reads the engine's exported schema file). */
export const documentedComponents = () =>
  templateDocumentComponents(templateDocumentSchemaFile(CURRENT_VERSION));
