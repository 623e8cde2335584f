// Several sidecars of one bot, each a real fastify server on 127.0.0.1 with its
// own audit file, all sharing one state store (a real redis-server in the tests).
import { join } from "node:path";
import { generateBotKeys, signConfirmation, signRevocation, type KeyPair } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import type { Dispatcher } from "undici";
import { buildApp } from "../app.js";
import type { RateLimits } from "../state/shared-state.js";
import { CALLER_TOKEN, grantFor, lineFor, member, opened, registry, temporaryDirectory, type GrantOptions } from "./grant-kit.js";
import { httpCall } from "./http-call.js";
import { readAudit } from "./test-app.js";
import type { AuditRecord } from "../audit/audit-log.js";

/** An answer as tests read it: whichever of these fields the body has. */
export interface LooseAnswer {
  status: string;
  gid: string;
  integration: string;
  error: { code: string; message: string; next_action: string; retry_after_s?: number };
  [key: string]: unknown;
}

export interface FleetMember {
  app: FastifyInstance;
  port: number;
  auditFile: string;
  call(path: string, body?: unknown): Promise<{ statusCode: number; body: LooseAnswer }>;
  audit(): Promise<AuditRecord[]>;
}

export interface Fleet {
  bot: KeyPair;
  sidecars: FleetMember[];
  grant(options?: GrantOptions): string;
  /** The member's tap; `now` (Unix seconds) is the member's clock, when it is not this machine's. */
  confirmation(grant: string, op: string, args: Record<string, string>, now?: number): string;
  /** The member's tap on a chip whose line is given (a confirm line, a line feed and a preview). */
  confirmationOver(grant: string, op: string, args: Record<string, string>, line: string): string;
  revocation(grant: string, signer?: KeyPair): string;
  close(): Promise<void>;
}

export interface FleetOptions {
  count: number;
  dispatcher: Dispatcher;
  redisUrl?: string;
  /** Redis Sentinel instead of `redisUrl`. */
  redisSentinels?: string[];
  redisName?: string;
  rateLimits?: RateLimits;
  trustedMembers?: string[];
  /** A fresh bot per fleet, so fleets never share keys in Redis; or the given one. */
  bot?: KeyPair;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const bot = options.bot ?? generateBotKeys();
  const sidecars: FleetMember[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const auditFile = join(await temporaryDirectory("fleet-"), "audit.log");
    const app = buildApp({
      registry,
      botKeys: bot,
      trustedMembers: options.trustedMembers ?? [member.publicKey],
      callerToken: CALLER_TOKEN,
      auditFile,
      dispatcher: options.dispatcher,
      ...(options.redisUrl === undefined ? {} : { redisUrl: options.redisUrl }),
      ...(options.redisSentinels === undefined ? {} : { redisSentinels: options.redisSentinels }),
      ...(options.redisName === undefined ? {} : { redisName: options.redisName }),
      ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    sidecars.push({
      app,
      port,
      auditFile,
      async call(path, body) {
        const answer = await httpCall({
          port,
          method: body === undefined ? "GET" : "POST",
          path,
          headers: { authorization: `Bearer ${CALLER_TOKEN}` },
          ...(body === undefined ? {} : { body }),
        });
        return { statusCode: answer.statusCode, body: answer.json() as LooseAnswer };
      },
      audit: () => readAudit(auditFile),
    });
  }
  return {
    bot,
    sidecars,
    grant: (grantOptions = {}) => grantFor({ botPublicKey: bot.publicKey, ...grantOptions }),
    confirmation: (grant, op, args, now) =>
      signConfirmation({ member, grant: opened(grant, bot), op, args, line: lineFor(op, args), ...(now === undefined ? {} : { now }) }),
    confirmationOver: (grant, op, args, line) => signConfirmation({ member, grant: opened(grant, bot), op, args, line }),
    revocation: (grant, signer = member) => signRevocation({ member: signer, grant }),
    close: async () => {
      // Not dispatcher-owned: the apps were given the stand-in's dispatcher, which the test closes.
      await Promise.all(sidecars.map((sidecar) => sidecar.app.close()));
    },
  };
}
