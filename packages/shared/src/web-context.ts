/**
 * What the web app's loaders and actions receive as context from the server that
 * renders them: a fetch-like call into the API of the same process, with the
 * shopper's cookie and device id forwarded (docs/decisions/0004).
 */
export interface WebLoadContext {
  api(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** The storefront's API key, also handed to the browser for its own calls. */
  apiKey: string;
  publicUrl: string;
  /** CSP nonce of this response's scripts. */
  nonce: string;
}
