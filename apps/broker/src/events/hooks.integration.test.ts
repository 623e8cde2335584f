// The broker half of events against real parts: fastify on 127.0.0.1, a real redis-server,
// undici posting the providers' documented sample deliveries signed as each provider documents,
// real libsodium sealing and opening.
import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { generateBotKeys, generateMemberKeys, memberBoxKey, openSealed, ready, signRegistration, type KeyPair } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { request } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { providerFixture, signGitHub, signSlack, signTwilio } from "../__fixtures__/provider-deliveries.js";
import { testApp } from "../__fixtures__/test-app.js";
import { PUBLIC_URL, randomKey } from "../__fixtures__/test-registry.js";
import { accountBinding } from "../connect/token-proof.js";
import type { WebhookReport } from "./webhook-outcome.js";

const GITHUB_SECRET = "github-app-webhook-secret-0123456789";
const SLACK_SECRET = "slack-signing-secret-0123456789abcdef";
const TWILIO_TOKEN = "twilio-auth-token-0123456789abcdef";
const github = providerFixture("github--webhook-events-and-payloads-issues.json");
const slack = providerFixture("slack--events-app_mention.json");
const GITHUB_ACCOUNT = "2311213"; // the sample's installation.id, where the manifest reads the account

let redis: TestRedisServer;
let client: Redis;
let url: string;
let logs: string[];
let app: FastifyInstance;
const stateKey = randomKey();
const reports: WebhookReport[] = [];
/** Seconds the broker's clock is moved forward. */
let clockOffset = 0;

beforeAll(async () => {
  await ready();
  redis = await startRedisServer();
  client = new Redis(redis.url);
  client.on("error", () => undefined);
  ({ app, logs } = testApp({
    registry: loadRegistry(manifestFiles),
    oauthApps: {},
    stateKey,
    redisUrl: redis.url,
    webhookSecrets: { github: GITHUB_SECRET, slack: [SLACK_SECRET], twilio: TWILIO_TOKEN },
    onWebhook: (report) => reports.push(report),
    now: () => Math.floor(Date.now() / 1000) + clockOffset,
  }));
  await app.listen({ host: "127.0.0.1", port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
  client?.disconnect();
  await redis?.close();
});

beforeEach(async () => {
  await client.flushall();
  reports.length = 0;
  clockOffset = 0;
});

/** A member who connected `account` with the X25519 form of their key: the bundle's account_binding, as the callback seals it. */
function connectedMember(integration: string, account: string): { member: KeyPair; binding: string } {
  const member = generateMemberKeys();
  return { member, binding: accountBinding(stateKey, { integration, account, clientKey: memberBoxKey(member.publicKey) }) };
}

async function register(input: {
  member: KeyPair;
  binding: string;
  bot: string;
  integration?: string;
  account?: string;
  events?: string[];
  args?: Record<string, string>;
}) {
  const registration = signRegistration({
    member: input.member,
    ttlSeconds: 7 * 86400,
    registration: {
      sid: randomBytes(16).toString("base64url"),
      bot: input.bot,
      integration: input.integration ?? "github",
      account: input.account ?? GITHUB_ACCOUNT,
      account_binding: input.binding,
      events: input.events ?? ["issues.opened"],
      ...(input.args === undefined ? {} : { args: input.args }),
    },
  });
  const response = await request(`${url}/subscriptions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ registration }),
  });
  return { status: response.statusCode, body: (await response.body.json()) as { sid?: string; error?: { code: string } } };
}

async function postHook(path: string, headers: Record<string, string>, body: string | Buffer) {
  const response = await request(`${url}${path}`, { method: "POST", headers, body });
  const text = await response.body.text();
  return { status: response.statusCode, text, headers: response.headers };
}

const postGitHub = (body = github.body, headers: Record<string, string> = signGitHub(GITHUB_SECRET, body)) =>
  postHook("/hooks/github", { ...github.headers, ...headers }, body);

async function follow(bot: KeyPair, after?: string, asBot: KeyPair = bot) {
  const session = await request(`${url}/events/${asBot.publicKey}/session`, { method: "POST" });
  const { sealed } = (await session.body.json()) as { sealed: string };
  const token = Buffer.from(openSealed(sealed, asBot)).toString();
  const response = await request(`${url}/events/${bot.publicKey}${after === undefined ? "" : `?after=${encodeURIComponent(after)}`}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.statusCode,
    body: (await response.body.json()) as { events: { id: string; sealed: string }[]; next: string; truncated?: true; error?: { code: string } },
  };
}

const opened = (sealed: string, bot: KeyPair) => JSON.parse(Buffer.from(openSealed(sealed, bot)).toString()) as Record<string, unknown>;
const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("base64url");
const streamLength = async (bot: KeyPair) => client.xlen(`eleven:broker:events:bot:${bot.publicKey}`);

describe("POST /hooks/:integration", () => {
  it("stores GitHub's documented issues delivery sealed to the registered bot, once however often GitHub retries it", async () => {
    const bot = generateBotKeys();
    const { member, binding } = connectedMember("github", GITHUB_ACCOUNT);
    expect((await register({ member, binding, bot: bot.publicKey })).status).toBe(201);

    const first = await postGitHub();
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text)).toEqual({ received: true, outcome: "stored" });
    const retry = await postGitHub();
    expect(retry.status).toBe(200);
    expect(JSON.parse(retry.text)).toEqual({ received: true, outcome: "duplicate" });
    expect(await streamLength(bot)).toBe(1);
    expect(await client.ttl(`eleven:broker:events:delivery:github:${sha("72d3162e-cc78-11e3-81ab-4c9367dc0958")}`)).toBeGreaterThan(24 * 3600);

    const page = await follow(bot);
    expect(page.status).toBe(200);
    expect(page.body.events).toHaveLength(1);
    const event = opened((page.body.events[0] as { sealed: string }).sealed, bot);
    expect(event).toMatchObject({ integration: "github", event: github.expect.event, line: github.expect.line, data: { "issue.title": "Found a bug" } });
    expect(Object.keys(event).sort()).toEqual(["at", "data", "event", "event_id", "integration", "line", "sid"]);
    expect(String(event["event_id"])).toMatch(/^ev_/);
    const after = await follow(bot, page.body.next);
    expect(after.body.events).toEqual([]);
    expect(after.body.truncated).toBeUndefined();
    expect(reports.map((report) => report.outcome)).toEqual(["stored", "duplicate"]);
  });

  it("refuses what is not verified with 401, 400 or 413, stores nothing, counts the reason and logs neither secret nor body", async () => {
    const bot = generateBotKeys();
    const { member, binding } = connectedMember("github", GITHUB_ACCOUNT);
    await register({ member, binding, bot: bot.publicKey });
    logs.length = 0;
    const wrong = await postGitHub(github.body, signGitHub("another-secret", github.body));
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.text).error.code).toBe("webhook_unverified");
    expect((await postGitHub(github.body, {})).status).toBe(401);
    const altered = github.body.replace("Found a bug", "Found a bag");
    expect((await postGitHub(altered, signGitHub(GITHUB_SECRET, github.body))).status).toBe(401);
    // Stripe has no secret configured here: refused, never accepted unverified.
    const stripe = providerFixture("stripe--api-events-object.json");
    expect((await postHook("/hooks/stripe", stripe.headers, stripe.body)).status).toBe(401);
    // Verified bytes the manifest cannot read: 400.
    expect((await postGitHub("not json", signGitHub(GITHUB_SECRET, "not json"))).status).toBe(400);
    // Over 1 MiB: 413, decided on the length before anything is verified.
    const huge = Buffer.alloc(1024 * 1024 + 1, 0x20);
    expect((await postGitHub(huge.toString(), signGitHub(GITHUB_SECRET, huge.toString()))).status).toBe(413);
    expect((await postHook("/hooks/nosuch", { "content-type": "application/json" }, "{}")).status).toBe(404);
    // The size is decided first: before the integration is even looked up.
    expect((await postHook("/hooks/nosuch", { "content-type": "application/json" }, huge)).status).toBe(413);

    expect(await streamLength(bot)).toBe(0);
    expect(reports).toEqual([
      { integration: "github", outcome: "bad_signature" },
      { integration: "github", outcome: "missing_signature" },
      { integration: "github", outcome: "bad_signature" },
      { integration: "stripe", outcome: "no_secret" },
      { integration: "github", outcome: "malformed" },
      { integration: "github", outcome: "too_large" },
      { integration: "unknown", outcome: "unknown_integration" },
      { integration: "unknown", outcome: "too_large" },
    ]);
    const logged = logs.join("\n");
    expect(logged).not.toContain(GITHUB_SECRET);
    expect(logged).not.toContain("Found a b");
    expect(logged).toContain('"reason":"bad_signature"');
  });

  it("takes a delivery up to 1 MiB (not the broker's 64 KiB JSON limit), whatever its content type, as the bytes sent", async () => {
    const bot = generateBotKeys();
    const { member, binding } = connectedMember("github", GITHUB_ACCOUNT);
    await register({ member, binding, bot: bot.publicKey });
    // GitHub's payloads can be large: 900 KiB of JSON whitespace inside the sample's bytes.
    const big = github.body.replace('"action":"opened",', `"action":"opened",${" ".repeat(900 * 1024)}`);
    expect((await postGitHub(big, { ...signGitHub(GITHUB_SECRET, big), "X-GitHub-Delivery": "big" })).status).toBe(200);
    // A form-encoded content type is not parsed either: the signature is checked over the same bytes.
    const asForm = await postGitHub(github.body, { ...signGitHub(GITHUB_SECRET, github.body), "Content-Type": "application/x-www-form-urlencoded" });
    expect(JSON.parse(asForm.text).outcome).toBe("stored");
    expect(await streamLength(bot)).toBe(2);
  });

  it("verifies Twilio's documented incoming-message request over the URL it posted to: the broker's public URL and the path with its query", async () => {
    const twilio = providerFixture("twilio--messaging-webhook-request.json");
    const bot = generateBotKeys();
    const { member, binding } = connectedMember("twilio", "ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    expect(
      (
        await register({
          member,
          binding,
          bot: bot.publicKey,
          integration: "twilio",
          account: "ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
          events: [twilio.expect.event],
        })
      ).status,
    ).toBe(201);
    const path = "/hooks/twilio?tenant=a";
    const signed = await postHook(path, { ...twilio.headers, ...signTwilio(TWILIO_TOKEN, `${PUBLIC_URL}${path}`, twilio.body) }, twilio.body);
    expect(signed.status).toBe(200);
    const page = await follow(bot);
    expect(opened((page.body.events[0] as { sealed: string }).sealed, bot)).toMatchObject({ event: twilio.expect.event, line: twilio.expect.line });
    // Signed for another URL (the fixture's host, or without the query): refused.
    const elsewhere = await postHook(
      path,
      { ...twilio.headers, ...signTwilio(TWILIO_TOKEN, "https://broker.example/hooks/twilio?tenant=a", twilio.body) },
      twilio.body,
    );
    expect(elsewhere.status).toBe(401);
    const noQuery = await postHook(path, { ...twilio.headers, ...signTwilio(TWILIO_TOKEN, `${PUBLIC_URL}/hooks/twilio`, twilio.body) }, twilio.body);
    expect(noQuery.status).toBe(401);
  });

  it("answers a verified delivery no registration wants 200 and drops it", async () => {
    const bot = generateBotKeys();
    const { member, binding } = connectedMember("github", GITHUB_ACCOUNT);
    // Another repository than the sample's: the args filter it out.
    await register({ member, binding, bot: bot.publicKey, args: { repo: "octocat/Other" } });
    const response = await postGitHub();
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text).outcome).toBe("dropped");
    expect(await streamLength(bot)).toBe(0);
    expect(reports).toEqual([{ integration: "github", outcome: "unrouted" }]);
  });

  it("answers Slack's url_verification challenge only once it is signed, and keeps the raw bytes Slack signed", async () => {
    const body = '{"token":"Jhj5dZrVaK7ZwHHjRyZWjbDl","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}';
    const now = Math.floor(Date.now() / 1000);
    const unsigned = await postHook("/hooks/slack", { "content-type": "application/json" }, body);
    expect(unsigned.status).toBe(401);
    expect(unsigned.text).not.toContain("3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P");
    const signed = await postHook("/hooks/slack", { "content-type": "application/json", ...signSlack(SLACK_SECRET, body, now) }, body);
    expect(signed.status).toBe(200);
    expect(JSON.parse(signed.text)).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
    // Whitespace JSON parsing would drop: the signature is over the bytes as sent.
    const spaced = slack.body.replace('"type":"event_callback"', '"type" :  "event_callback"');
    const bot = generateBotKeys();
    const { member, binding } = connectedMember("slack", "T123ABC456");
    expect((await register({ member, binding, bot: bot.publicKey, integration: "slack", account: "T123ABC456", events: [slack.expect.event] })).status).toBe(
      201,
    );
    const delivered = await postHook("/hooks/slack", { ...slack.headers, ...signSlack(SLACK_SECRET, spaced, now) }, spaced);
    expect(delivered.status).toBe(200);
    const page = await follow(bot);
    expect(opened((page.body.events[0] as { sealed: string }).sealed, bot)).toMatchObject({ integration: "slack", event: slack.expect.event });
  });
});

describe("POST /subscriptions: only a member whose key connected an account routes its events", () => {
  it("refuses a binding of another account, another member's binding, and an undeclared event", async () => {
    const bot = generateBotKeys();
    const owner = connectedMember("github", GITHUB_ACCOUNT);
    const stranger = connectedMember("github", "999");
    expect((await register({ member: stranger.member, binding: stranger.binding, bot: bot.publicKey })).body.error?.code).toBe("account_not_connected");
    expect((await register({ member: stranger.member, binding: owner.binding, bot: bot.publicKey })).body.error?.code).toBe("account_not_connected");
    expect((await register({ ...owner, bot: bot.publicKey, events: ["issues.closed_nope"] })).body.error?.code).toBe("invalid_registration");
    expect((await register({ ...owner, bot: bot.publicKey, integration: "slack", events: [slack.expect.event] })).body.error?.code).toBe(
      "account_not_connected",
    );

    // The stranger's own account is routed to the stranger's bot, never GitHub's sample account.
    const strangerBot = generateBotKeys();
    expect((await register({ member: stranger.member, binding: stranger.binding, bot: strangerBot.publicKey, account: "999" })).status).toBe(201);
    expect((await postGitHub()).status).toBe(200);
    expect(await streamLength(strangerBot)).toBe(0);
    expect(await streamLength(bot)).toBe(0);
  });
});

describe("GET /events/:bot", () => {
  it("hands a bot's events only to a session sealed to that bot", async () => {
    const bot = generateBotKeys();
    const other = generateBotKeys();
    const { member, binding } = connectedMember("github", GITHUB_ACCOUNT);
    await register({ member, binding, bot: bot.publicKey });
    await postGitHub();
    expect((await follow(bot, undefined, other)).status).toBe(401);
    const bare = await request(`${url}/events/${bot.publicKey}`);
    expect(bare.statusCode).toBe(401);
    await bare.body.dump();
    expect((await follow(other)).body.events).toEqual([]);
    expect((await follow(bot)).body.events).toHaveLength(1);
    // The session is kept 10 minutes, no longer.
    const keys = await client.keys("eleven:broker:events:session:*");
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(await client.ttl(key)).toBeLessThanOrEqual(600);
  });

  it("says truncated for a cursor whose events were trimmed, not for one that read them, and for one from before Redis lost its data", async () => {
    const bot = generateBotKeys();
    const { member, binding } = connectedMember("github", GITHUB_ACCOUNT);
    await register({ member, binding, bot: bot.publicKey });
    const delivery = async (title: string) => {
      const body = github.body.replace("Found a bug", title);
      expect((await postGitHub(body, { ...signGitHub(GITHUB_SECRET, body), "X-GitHub-Delivery": `delivery-${title}` })).status).toBe(200);
    };
    await delivery("First");
    const afterFirst = (await follow(bot)).body.next;
    await delivery("Second");
    const afterSecond = (await follow(bot, afterFirst)).body.next;
    // 49 hours later a third delivery: appending trims what is older than 48 hours (the first two).
    clockOffset = 49 * 3600;
    await delivery("Third");
    const gap = await follow(bot, afterFirst);
    expect(gap.body.truncated).toBe(true);
    expect(gap.body.events.map((entry) => opened(entry.sealed, bot)["data"])).toEqual([expect.objectContaining({ "issue.title": "Third" })]);
    // A bot that had read everything trimmed lost nothing.
    const read = await follow(bot, afterSecond);
    expect(read.body.truncated).toBeUndefined();
    expect(read.body.events).toHaveLength(1);
    // Past the gap, no longer truncated.
    expect((await follow(bot, gap.body.next)).body).toEqual({ events: [], next: gap.body.next });

    // Redis restarted empty: the epoch differs, so an old cursor is a known gap.
    await client.flushall();
    const lost = await follow(bot, gap.body.next);
    expect(lost.body.truncated).toBe(true);
    expect(lost.body.next).not.toBe(gap.body.next);
  });
});

describe("Redis lost", () => {
  it("answers 503 while Redis is down (the provider retries, nothing half stored); after it comes back empty the retry is stored with the same event_id and an old cursor says truncated", async () => {
    const bot = generateBotKeys();
    const { member, binding } = connectedMember("github", GITHUB_ACCOUNT);
    await register({ member, binding, bot: bot.publicKey });
    expect(JSON.parse((await postGitHub()).text).outcome).toBe("stored");
    const first = await follow(bot);
    const firstId = opened((first.body.events[0] as { sealed: string }).sealed, bot)["event_id"];

    await redis.stop();
    const down = await postGitHub();
    expect(down.status).toBe(503);
    expect(reports.at(-1)).toEqual({ integration: "github", outcome: "unavailable" });
    await redis.start();
    await until(async () => (await request(`${url}/events/${bot.publicKey}/session`, { method: "POST" })).statusCode === 201);

    // The registration went with Redis: the member registers again (their client renews it), then GitHub retries.
    await register({ member, binding, bot: bot.publicKey });
    expect(JSON.parse((await postGitHub()).text).outcome).toBe("stored");
    const after = await follow(bot, first.body.next);
    expect(after.body.truncated).toBe(true);
    expect(after.body.events).toHaveLength(1);
    // The same delivery keeps its event_id: the sidecar, which remembers what it gave the bot, drops the copy.
    expect(opened((after.body.events[0] as { sealed: string }).sealed, bot)["event_id"]).toBe(firstId);
  });
});

async function until(ready: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("Redis did not come back");
}
