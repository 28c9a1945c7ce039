import type {
  IAuthenticateGeneric,
  ICredentialTestRequest,
  ICredentialType,
  INodeProperties,
} from "n8n-workflow";

/** A Pictor server's base URL and a secret API key; the webhook secret for the trigger's signatures. */
export class PictorApi implements ICredentialType {
  name = "pictorApi";
  displayName = "Pictor API";
  icon = { light: "file:pictor.svg", dark: "file:pictor.dark.svg" } as const;
  /** This page as a Pictor server on its default port serves it (Pictor is self-hosted: no public site). */
  documentationUrl = "http://localhost:8080/llms/n8n.md";
  properties: INodeProperties[] = [
    {
      displayName: "Base URL",
      name: "baseUrl",
      type: "string",
      default: "http://localhost:8080",
      placeholder: "https://pictor.example.com",
      description: "The Pictor server, without a trailing slash",
    },
    {
      displayName: "API Key",
      name: "apiKey",
      type: "string",
      typeOptions: { password: true },
      default: "",
      description: "A secret API key, sk_live_…",
    },
    {
      displayName: "Webhook Secret",
      name: "webhookSecret",
      type: "string",
      typeOptions: { password: true },
      default: "",
      description:
        "whsec_… from GET /v1/webhook-secret: the Pictor Trigger checks each callback's X-Service-Signature with it",
    },
  ];
  authenticate: IAuthenticateGeneric = {
    type: "generic",
    properties: { headers: { Authorization: "=Bearer {{$credentials.apiKey}}" } },
  };
  test: ICredentialTestRequest = {
    request: { baseURL: "={{$credentials.baseUrl}}", url: "/v1/account" },
  };
}
