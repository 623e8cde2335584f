/** The OAuth app the broker holds for one integration. */
export interface OAuthApp {
  clientId: string;
  /** Sent only to the manifest's `token_url`, by HTTP Basic; never served or logged. */
  clientSecret: string;
}
