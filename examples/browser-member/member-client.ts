// What a member's web client needs to grant a bot access and tap its chips, bundled for
// the browser: member keys, a grant sealed to the bot, the chip rendered from the manifest
// the member sees, and the signed tap. Nothing here talks to the sidecar: the bot does.
import { confirmDetails, generateMemberKeys, issueGrant, ready, renderConfirm, signConfirmation, type KeyPair } from "@eleven-integrations/grants";
import { canonicalJson, type Manifest } from "@eleven-integrations/schema";
import type { ConfirmationRequired } from "@eleven-integrations/sidecar-protocol";

export { ready, generateMemberKeys };

/** The manifest's hash as the sidecar computes it: lowercase hex SHA-256 of its canonical JSON, without `$schema`. */
export async function manifestHash(manifest: Manifest): Promise<string> {
  const { $schema: _editorOnly, ...content } = manifest;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalJson(content)));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export interface GrantRequest {
  member: KeyPair;
  /** The bot's box key, from its sidecar's `GET /v1/identity` (the bot publishes it). */
  botPublicKey: string;
  manifest: Manifest;
  access: "read" | "write";
  /** The member's token for the provider; sealed to the bot, never sent anywhere by this page. */
  token: string;
  ttlSeconds: number;
}

/** A grant (`eg1.…`) for the manifest the member saw, sealed to the bot. */
export async function grantAccess(request: GrantRequest): Promise<string> {
  return issueGrant({
    member: request.member,
    botPublicKey: request.botPublicKey,
    integration: request.manifest.id,
    manifestHash: await manifestHash(request.manifest),
    access: request.access,
    credential: { kind: "pat", token: request.token },
    ttlSeconds: request.ttlSeconds,
  });
}

/** The chip a bot relays: the sidecar's `confirmation_required`, and the args it ran with. */
export interface ChipRequest {
  manifest: Manifest;
  args: Record<string, string>;
  answer: ConfirmationRequired;
}

/**
 * Renders the chip into `root` from the member's own copy of the manifest: the line is
 * rendered here, never taken from the bot, and a bot whose line differs gets no chip.
 * Resolves with the signed tap (`ec1.…`) when the member presses the button.
 */
export function showChip(root: HTMLElement, member: KeyPair, chip: ChipRequest): Promise<string> {
  const operation = chip.manifest.ops.find((candidate) => candidate.id === chip.answer.op);
  if (operation === undefined || operation.access !== "write") throw new Error(`the manifest has no write ${chip.answer.op}`);
  const template = operation.confirm ?? operation.label;
  const confirm = renderConfirm(template, chip.args);
  if (confirm !== chip.answer.confirm) throw new Error("the bot's line is not the one this manifest renders: no chip");
  const line = chip.answer.preview === undefined ? confirm : `${confirm}\n${chip.answer.preview}`;

  const card = document.createElement("section");
  card.setAttribute("aria-label", "Confirm a write");
  const text = document.createElement("p");
  text.className = "chip-line";
  text.textContent = line;
  card.append(text);
  const details = document.createElement("dl");
  for (const detail of confirmDetails(template, chip.args)) {
    const name = document.createElement("dt");
    name.textContent = detail.name;
    const value = document.createElement("dd");
    value.textContent = detail.value;
    details.append(name, value);
  }
  card.append(details);
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Confirm";
  card.append(button);
  root.replaceChildren(card);

  return new Promise((resolve) => {
    button.addEventListener(
      "click",
      () => {
        button.disabled = true;
        resolve(signConfirmation({ member, grant: { gid: chip.answer.gid, iss: member.publicKey }, op: chip.answer.op, args: chip.args, line }));
      },
      { once: true },
    );
  });
}
