import sodium from "libsodium-wrappers";

let loaded = false;
const loading = sodium.ready.then(() => {
  loaded = true;
});
// Reported by ready(); without this handler a failed load would also crash the process on import.
loading.catch(() => undefined);

/** Resolves once libsodium is loaded; every other function of this package needs it first. */
export async function ready(): Promise<void> {
  await loading;
}

/** The loaded libsodium, or a clear error for a caller that forgot `await ready()`. */
export function lib(): typeof sodium {
  if (!loaded) throw new Error("@eleven-integrations/grants: await ready() before using this package");
  return sodium;
}
