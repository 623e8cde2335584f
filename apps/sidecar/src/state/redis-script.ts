import type { Redis } from "ioredis";

/**
 * Registers a Lua script on `client` under `name` (ioredis sends it by its SHA, and
 * its text once when Redis does not have it) and returns its caller: keys first, then arguments.
 */
export function defineScript<Caller extends (...args: never[]) => Promise<unknown>>(client: Redis, name: string, numberOfKeys: number, lua: string): Caller {
  client.defineCommand(name, { numberOfKeys, lua });
  const command = (client as unknown as Record<string, Caller>)[name];
  if (command === undefined) throw new Error(`the ${name} script could not be registered`);
  return command.bind(client) as Caller;
}
