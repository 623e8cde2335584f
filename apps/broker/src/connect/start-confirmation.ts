import { createHash } from "node:crypto";
import { escapeHtml, htmlDocument } from "../http/html.js";

const ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";

/**
 * The short code a member compares before a link-started flow to an app scheme
 * goes on: the first 8 symbols of SHA-256(client_key) in a 30-letter alphabet
 * without look-alikes, as `ABCD-EFGH`. The member's client shows the same code for
 * its own key; an attacker's link shows the attacker's.
 */
export function clientKeyCode(clientKey: string): string {
  const digest = createHash("sha256").update(clientKey, "utf8").digest();
  let code = "";
  for (let index = 0; index < 8; index += 1) code += ALPHABET[(digest[index] as number) % ALPHABET.length];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** True for an RFC 8252 private-use scheme (`com.example.app:/done`): every app on the device may claim it. */
export function isPrivateUseScheme(returnTo: string): boolean {
  const protocol = new URL(returnTo).protocol;
  return protocol !== "https:" && protocol !== "http:";
}

/** The page shown before a flow that returns to an app scheme goes to the provider. */
export function renderStartConfirmation(options: { integration: string; integrationName: string; returnTo: string; code: string; state: string }): string {
  return htmlDocument({
    title: `Connect ${options.integrationName}?`,
    body:
      `<main><h1>Connect ${escapeHtml(options.integrationName)}?</h1>` +
      `<p>An app asks to connect your ${escapeHtml(options.integrationName)} account. The tokens will be sent to <code>${escapeHtml(options.returnTo)}</code>, sealed to the app's key.</p>` +
      `<p>Your app shows this code: <strong><code>${escapeHtml(options.code)}</code></strong></p>` +
      `<p>Continue only if you started connecting in your own app just now and it shows exactly this code. If you followed a link someone sent you, close this page.</p>` +
      `<form method="post" action="/connect/${escapeHtml(options.integration)}/start/confirm">` +
      `<input type="hidden" name="state" value="${escapeHtml(options.state)}">` +
      `<button type="submit">The codes match: continue</button></form></main>`,
  });
}
