// A sidecar app for inject tests: the test keys, a temporary audit file, a captured log.
import type { ExecutorLimits } from "@eleven-integrations/executor";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { MockAgent, type Dispatcher } from "undici";
import { buildApp } from "../app.js";
import type { AuditRecord } from "../audit/audit-log.js";
import { AUDIT_KEY, bot, CALLER_TOKEN, member, registry, temporaryDirectory } from "./grant-kit.js";
import { captureLogs, type LogCapture } from "./log-capture.js";
import { answerViolations } from "./openapi-answers.js";

export const authorized = { authorization: `Bearer ${CALLER_TOKEN}` } as const;

export interface TestApp {
  app: FastifyInstance;
  auditFile: string;
  logs: LogCapture;
  auditRecords(): Promise<AuditRecord[]>;
}

export async function readAudit(auditFile: string): Promise<AuditRecord[]> {
  const text = await readFile(auditFile, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as AuditRecord);
}

export async function testApp(options: { dispatcher?: Dispatcher; trustedMembers?: string[]; limits?: ExecutorLimits } = {}): Promise<TestApp> {
  const auditFile = join(await temporaryDirectory(), "audit.log");
  const logs = captureLogs();
  const app = buildApp({
    registry,
    botKeys: bot,
    trustedMembers: options.trustedMembers ?? [member.publicKey],
    callerToken: CALLER_TOKEN,
    auditFile,
    auditKey: AUDIT_KEY,
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    logger: { level: "trace", stream: logs.stream },
  });
  checkAnswersAgainstDescription(app);
  return { app, auditFile, logs, auditRecords: () => readAudit(auditFile) };
}

/** Answers of test apps that their OpenAPI description does not allow; `vitest.setup.ts` fails the test that made any. */
export const describedAnswerViolations: string[] = [];

/** Checks every JSON answer of `app` against the description of its route and status. */
export function checkAnswersAgainstDescription(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    if (typeof payload !== "string" || !String(reply.getHeader("content-type") ?? "").startsWith("application/json")) return payload;
    const route = request.routeOptions.url;
    describedAnswerViolations.push(
      ...answerViolations(request.method, route === undefined || route === "" ? undefined : route, reply.statusCode, JSON.parse(payload)),
    );
    return payload;
  });
}

export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

export interface MockProvider {
  agent: MockAgent;
  /** The dispatcher to give the app: counts every request before MockAgent answers it. */
  dispatcher: Dispatcher;
  /** Every request the executor sent upstream. */
  sent: SentRequest[];
}

function headerRecord(headers: Dispatcher.DispatchOptions["headers"]): Record<string, string> {
  const record: Record<string, string> = {};
  if (headers === undefined || headers === null) return record;
  if (Array.isArray(headers)) {
    for (let index = 0; index + 1 < headers.length; index += 2) record[String(headers[index]).toLowerCase()] = String(headers[index + 1]);
    return record;
  }
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) record[name.toLowerCase()] = String(value);
  return record;
}

/** A MockAgent for https://api.github.com with net connect disabled, behind a counter of what was sent. */
export function mockProvider(): MockProvider {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const sent: SentRequest[] = [];
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    sent.push({ method: options.method, path: options.path, headers: headerRecord(options.headers) });
    return dispatch(options, handler);
  });
  return { agent, dispatcher, sent };
}
