import { displayValue } from "./confirm-text.js";
import type { GrantAccount } from "./grant-payload.js";

/**
 * An account as a palette, an audit line or a chip shows it: id and name each
 * neutralised like a confirm value (hidden characters as U+FFFD, stacks of marks
 * cut, right-to-left text isolated) and cut to 120 code points. The grant carries
 * the provider's text as given; show it only through this.
 */
export function displayAccount(account: GrantAccount): GrantAccount {
  return { id: displayValue(account.id).text, name: displayValue(account.name).text };
}
