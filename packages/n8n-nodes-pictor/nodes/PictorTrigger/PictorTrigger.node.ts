import { verifyCallback } from "@pictor/client";
import {
  type IHookFunctions,
  type INodeType,
  type INodeTypeDescription,
  type IWebhookFunctions,
  type IWebhookResponseData,
  NodeConnectionTypes,
} from "n8n-workflow";

/**
 * Starts a workflow on each of Pictor's completion callbacks (a render's `webhook_url` set to this
 * node's webhook URL). A callback is taken only when its X-Service-Signature is the HMAC-SHA256 of
 * the raw body under the webhook secret of the credentials (verifyCallback of @pictor/client, the
 * function the server's own signing is tested against); a forged or altered one is answered 401 and
 * starts nothing.
 */
export class PictorTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: "Pictor Trigger",
    name: "pictorTrigger",
    icon: { light: "file:pictor.svg", dark: "file:pictor.dark.svg" },
    group: ["trigger"],
    version: 1,
    subtitle: "On render callback",
    description: "Starts the workflow when Pictor calls back: a render completed or failed",
    defaults: { name: "Pictor Trigger" },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: "pictorApi", required: true }],
    webhooks: [{ name: "default", httpMethod: "POST", responseMode: "onReceived", path: "pictor" }],
    properties: [
      {
        displayName:
          "Send renders' callbacks here: set their webhook_url to this node's webhook URL. The webhook secret of the credentials checks each callback's signature.",
        name: "notice",
        type: "notice",
        default: "",
      },
    ],
  };

  /**
   * Pictor keeps no register of webhooks to create or delete: each render names its own
   * `webhook_url`, so activating or deactivating the workflow changes nothing on the server.
   */
  webhookMethods = {
    default: {
      async checkExists(this: IHookFunctions): Promise<boolean> {
        return true;
      },
      async create(this: IHookFunctions): Promise<boolean> {
        return true;
      },
      async delete(this: IHookFunctions): Promise<boolean> {
        return true;
      },
    },
  };

  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    const credentials = await this.getCredentials("pictorApi");
    const secret = String(credentials.webhookSecret ?? "");
    const request = this.getRequestObject() as { rawBody?: Buffer };
    const signature = this.getHeaderData()["x-service-signature"];
    const valid =
      secret !== "" &&
      request.rawBody !== undefined &&
      verifyCallback(request.rawBody, typeof signature === "string" ? signature : undefined, secret);
    if (!valid) {
      this.getResponseObject().status(401).json({ error: "The callback's signature does not match." });
      return { noWebhookResponse: true };
    }
    return { workflowData: [[{ json: this.getBodyData() }]] };
  }
}
