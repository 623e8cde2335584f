// The executor against a bare undici request() + JSON.parse of the same response from
// the same loopback TLS server, at concurrency 1 and 32 (goal: at most 1.10x); pick
// alone against JSON.parse alone on a 1 MB body (goal: at most 1.25x); and peak RSS
// while 32 runs at once each receive a 50 MB body that is cut off (goal: under 200 MB).
// Two measured ops, each paying for provider truth: GitHub's repos.list (its error dialect plus
// a 2xx failure check, `failed_when`, which GitHub's answers never trigger, and Link paging,
// the answer carrying a rel="next" link) and Slack's conversations.list (a body cursor at
// response_metadata.next_cursor and Slack's `"ok": false` check on every 2xx answer); every
// run parses the cursor and signs a next_page token. Each ratio is printed twice: wall time,
// and the process's CPU time (server and client share the process, so both sides carry the
// server's work alike; CPU time does not count moments the shared machine took the core away).
import { fork } from "node:child_process";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { createExecutor } from "@eleven-integrations/executor";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";

const HOST = "api.github.com";
const SLACK = "slack.com";
const MB = 1_000_000;
const RATIO_GOAL = 1.1;
const PICK_GOAL = 1.25;
const RSS_GOAL_MB = 200;

/** A GitHub-style repository object (about 3 KB, like the API's). */
function repository(index) {
  const owner = {
    login: `octocat${index % 7}`,
    id: 583231 + index,
    node_id: "MDQ6VXNlcjE=",
    avatar_url: `https://avatars.githubusercontent.com/u/${583231 + index}?v=4`,
    gravatar_id: "",
    url: `https://api.github.com/users/octocat${index % 7}`,
    html_url: `https://github.com/octocat${index % 7}`,
    followers_url: "https://api.github.com/users/octocat/followers",
    following_url: "https://api.github.com/users/octocat/following{/other_user}",
    gists_url: "https://api.github.com/users/octocat/gists{/gist_id}",
    starred_url: "https://api.github.com/users/octocat/starred{/owner}{/repo}",
    subscriptions_url: "https://api.github.com/users/octocat/subscriptions",
    organizations_url: "https://api.github.com/users/octocat/orgs",
    repos_url: "https://api.github.com/users/octocat/repos",
    events_url: "https://api.github.com/users/octocat/events{/privacy}",
    received_events_url: "https://api.github.com/users/octocat/received_events",
    type: "User",
    site_admin: false,
  };
  const name = `repository-${index}`;
  const full = `${owner.login}/${name}`;
  const api = `https://api.github.com/repos/${full}`;
  const links = Object.fromEntries(
    [
      "forks",
      "keys",
      "collaborators",
      "teams",
      "hooks",
      "issue_events",
      "events",
      "assignees",
      "branches",
      "tags",
      "blobs",
      "git_tags",
      "git_refs",
      "trees",
    ].map((key) => [`${key}_url`, `${api}/${key}{/id}`]),
  );
  return {
    id: 1296269 + index,
    node_id: "MDEwOlJlcG9zaXRvcnkxMjk2MjY5",
    name,
    full_name: full,
    private: index % 3 === 0,
    owner,
    html_url: `https://github.com/${full}`,
    description: `Repository number ${index}, with a description of a realistic length for a project.`,
    fork: false,
    url: api,
    ...links,
    created_at: "2011-01-26T19:01:12Z",
    updated_at: "2024-05-30T08:12:44Z",
    pushed_at: "2024-05-29T17:05:01Z",
    git_url: `git://github.com/${full}.git`,
    ssh_url: `git@github.com:${full}.git`,
    clone_url: `https://github.com/${full}.git`,
    svn_url: `https://github.com/${full}`,
    homepage: "https://github.com",
    size: 108 + index,
    stargazers_count: 80,
    watchers_count: 80,
    language: "TypeScript",
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: 9,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: index % 11,
    license: { key: "mit", name: "MIT License", spdx_id: "MIT", url: "https://api.github.com/licenses/mit", node_id: "MDc6TGljZW5zZW1pdA==" },
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: ["api", "octocat", "atom", "electron"],
    visibility: "public",
    forks: 9,
    open_issues: index % 11,
    watchers: 80,
    default_branch: "main",
    permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
  };
}

export const repositories = (count) => Buffer.from(JSON.stringify(Array.from({ length: count }, (_, index) => repository(index))));

/** A Slack conversations.list answer (https://api.slack.com/methods/conversations.list): `ok`, channels, and the next cursor. */
export function slackChannels(count) {
  const channels = Array.from({ length: count }, (_, index) => ({
    id: `C0${String(1000000 + index)}`,
    name: `channel-${index}`,
    is_channel: true,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: false,
    created: 1449252889 + index,
    is_archived: false,
    is_general: index === 0,
    unlinked: 0,
    name_normalized: `channel-${index}`,
    is_shared: false,
    is_org_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    context_team_id: "T12345",
    updated: 1678229664302,
    parent_conversation: null,
    creator: "U12345",
    is_ext_shared: false,
    shared_team_ids: ["T12345"],
    pending_connected_team_ids: [],
    is_member: index % 2 === 0,
    topic: { value: `Topic of channel ${index}`, creator: "U12345", last_set: 1449709364 },
    purpose: { value: `What channel ${index} is for, in a sentence.`, creator: "U12345", last_set: 1449709364 },
    previous_names: [],
    num_members: 20 + (index % 50),
  }));
  return Buffer.from(JSON.stringify({ ok: true, channels, response_metadata: { next_cursor: "dGVhbTpDMDYxRkE1UEI=" } }));
}

const certificates = () => createTestCertificates([HOST, SLACK]);

/** The shipped registry, GitHub's dialect given a 2xx failure check too, so the measured op pays for every provider-truth step. */
function benchRegistry() {
  return loadRegistry(
    manifestFiles.map(({ file, json }) =>
      json.id === "github" ? { file, json: { ...json, errors: { ...json.errors, failed_when: { path: "message", present: true } } } } : { file, json },
    ),
  );
}

/** Connects to the loopback port, still sending SNI for and verifying the certificate of the real host. */
const loopbackDispatcher = (ca, port) => createLoopbackDispatcher(ca, { [HOST]: port, [SLACK]: port });

/** An endless body of spaces, made on demand, so the server holds almost nothing. */
function hugeBody(total) {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Alternating batches of `ours` and `floor` (each batch `size` calls, run `concurrency`
 * at a time), swapping which goes first each round; the ratio is the median of the
 * per-round ratios, so load from other processes hits both alike.
 */
async function compare(ours, floor, { rounds, size, concurrency, warmup = 5, clock = "wall" }) {
  const now =
    clock === "cpu"
      ? () => {
          const { user, system } = process.cpuUsage();
          return (user + system) / 1000;
        }
      : () => performance.now();
  const batch = async (fn) => {
    const start = now();
    for (let done = 0; done < size; done += concurrency) await Promise.all(Array.from({ length: concurrency }, fn));
    return (now() - start) / size;
  };
  for (let index = 0; index < warmup; index += 1) {
    await batch(ours);
    await batch(floor);
  }
  const oursTimes = [];
  const floorTimes = [];
  const ratios = [];
  for (let round = 0; round < rounds; round += 1) {
    const [first, second] = round % 2 === 0 ? [ours, floor] : [floor, ours];
    const a = await batch(first);
    const b = await batch(second);
    const [oursTime, floorTime] = round % 2 === 0 ? [a, b] : [b, a];
    oursTimes.push(oursTime);
    floorTimes.push(floorTime);
    ratios.push(oursTime / floorTime);
  }
  return { ours: median(oursTimes), floor: median(floorTimes), ratio: median(ratios) };
}

const fmtMs = (ms) => `${(ms * 1000).toFixed(0)} µs`;

const verdict = (ratio, goal) => `${ratio.toFixed(3)}x (goal <= ${goal.toFixed(2)}x) ${ratio <= goal ? "ok" : "OVER"}`;

export async function run() {
  // Imported here, so the child process measuring RSS loads only what the executor needs.
  const { default: Fastify } = await import("fastify");
  const { ca, key, cert } = await certificates();
  const list = repositories(100);
  const channels = slackChannels(200);
  let mode = "list";
  const app = Fastify({ https: { key, cert }, logger: false, forceCloseConnections: true });
  const link = `<https://${HOST}/user/repos?sort=updated&per_page=30&page=2>; rel="next", <https://${HOST}/user/repos?sort=updated&per_page=30&page=5>; rel="last"`;
  app.get("/api/conversations.list", (_request, reply) => reply.header("content-type", "application/json; charset=utf-8").send(channels));
  app.get("/*", (_request, reply) => {
    reply.header("content-type", "application/json; charset=utf-8");
    reply.header("link", link);
    return mode === "list" ? reply.send(list) : reply.send(hugeBody(50 * MB));
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const dispatcher = loopbackDispatcher(ca, app.server.address().port);
  const registry = benchRegistry();
  const executor = createExecutor({ registry, dispatcher });
  const operation = registry.operation("github", "repos.list");
  if (operation.paging === undefined || operation.errors?.detectsFailure !== true)
    throw new Error("the measured op must page and check for failures in 2xx answers");
  const slackOperation = registry.operation("slack", "conversations.list");
  if (slackOperation.paging?.cursorFromBody === undefined || slackOperation.errors?.detectsFailure !== true)
    throw new Error("Slack's op must page by a body cursor and check 2xx answers");
  const token = `ghp_${"x".repeat(36)}`;
  const url = `https://${HOST}/user/repos?sort=updated&per_page=30`;
  const headers = { authorization: `Bearer ${token}`, accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28", "user-agent": "bench" };
  const slackToken = `xoxb-${"1".repeat(12)}-${"x".repeat(24)}`;

  const ours = async () => {
    const envelope = await executor.run({ integration: "github", op: "repos.list", args: { sort: "updated" }, credential: { token } });
    if (envelope.status !== "ok" || envelope.next_page === undefined) throw new Error(`executor run failed: ${JSON.stringify(envelope)}`);
  };
  const bare = async () => {
    const { statusCode, body } = await dispatcher.request({ origin: `https://${HOST}`, path: url.slice(`https://${HOST}`.length), method: "GET", headers });
    const parsed = JSON.parse(await body.text());
    if (statusCode !== 200 || parsed.length !== 100) throw new Error("bare request failed");
  };
  const oursSlack = async () => {
    const envelope = await executor.run({ integration: "slack", op: "conversations.list", args: {}, credential: { token: slackToken } });
    if (envelope.status !== "ok" || envelope.next_page === undefined) throw new Error(`executor run failed: ${JSON.stringify(envelope)}`);
  };
  const bareSlack = async () => {
    const { statusCode, body } = await dispatcher.request({
      origin: `https://${SLACK}`,
      path: "/api/conversations.list?types=public_channel&exclude_archived=true&limit=200",
      method: "GET",
      headers: { authorization: `Bearer ${slackToken}` },
    });
    const parsed = JSON.parse(await body.text());
    if (statusCode !== 200 || parsed.ok !== true) throw new Error("bare Slack request failed");
  };

  try {
    console.log(
      `github repos.list: 100 GitHub-style repositories, ${(list.length / 1024).toFixed(0)} KiB, pick (${operation.operation.pick.fields.length} fields), error dialect ${JSON.stringify(operation.errors.declaration)}, paging ${JSON.stringify(operation.paging.declaration)}, every answer with a rel="next" link`,
    );
    console.log(
      `slack conversations.list: 200 channels, ${(channels.length / 1024).toFixed(0)} KiB, pick (${slackOperation.operation.pick.fields.length} fields), failed_when ${JSON.stringify(slackOperation.errors.declaration.failed_when)}, paging ${JSON.stringify(slackOperation.paging.declaration)}`,
    );
    for (const [name, measured, floor] of [
      ["github repos.list", ours, bare],
      ["slack conversations.list", oursSlack, bareSlack],
    ]) {
      for (const concurrency of [1, 32]) {
        const options = { rounds: concurrency === 1 ? 61 : 25, size: concurrency === 1 ? 4 : 64, concurrency };
        const wall = await compare(measured, floor, options);
        const cpu = await compare(measured, floor, { ...options, clock: "cpu" });
        console.log(
          `${name}, concurrency ${concurrency}: executor.run ${(wall.ours * 1000).toFixed(0)} µs/run (${(cpu.ours * 1000).toFixed(0)} µs CPU), bare request + JSON.parse ${(wall.floor * 1000).toFixed(0)} µs/run (${(cpu.floor * 1000).toFixed(0)} µs CPU)`,
        );
        console.log(`${name}, concurrency ${concurrency} ratio: wall ${verdict(wall.ratio, RATIO_GOAL)}; CPU ${verdict(cpu.ratio, RATIO_GOAL)}`);
      }
    }

    // Latency of single runs (concurrency 1), interleaved with the floor: the overhead a caller sees.
    for (const [name, measured, floor] of [
      ["github repos.list", ours, bare],
      ["slack conversations.list", oursSlack, bareSlack],
    ]) {
      const latencies = { ours: [], floor: [] };
      for (let index = 0; index < 440; index += 1) {
        for (const [side, fn] of index % 2 === 0
          ? [
              ["ours", measured],
              ["floor", floor],
            ]
          : [
              ["floor", floor],
              ["ours", measured],
            ]) {
          const start = performance.now();
          await fn();
          if (index >= 40) latencies[side].push(performance.now() - start);
        }
      }
      const at = (list, q) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * q))];
      const line = (q) =>
        `p${Math.round(q * 100)} ${fmtMs(at(latencies.ours, q))} vs ${fmtMs(at(latencies.floor, q))} (overhead ${fmtMs(at(latencies.ours, q) - at(latencies.floor, q))})`;
      console.log(`${name}, single runs, executor vs bare request + JSON.parse: ${line(0.5)}; ${line(0.99)}`);
    }

    const big = repositories(Math.ceil((1 * MB) / (list.length / 100)));
    const text = big.toString("utf8");
    const parsed = JSON.parse(text);
    const pickResult = await compare(
      async () => void operation.pick(parsed),
      async () => void JSON.parse(text),
      { rounds: 41, size: 4, concurrency: 1 },
    );
    console.log(
      `pick on ${parsed.length} repositories (${(big.length / MB).toFixed(2)} MB): ${(pickResult.ours * 1000).toFixed(0)} µs, JSON.parse ${(pickResult.floor * 1000).toFixed(0)} µs`,
    );
    console.log(`pick ratio: ${verdict(pickResult.ratio, PICK_GOAL)}`);

    mode = "huge";
    const rss = await measureInChild(ca, app.server.address().port);
    console.log(
      `32 runs at once, each sent 50 MB: ${rss.codes} in ${rss.ms} ms, ${rss.cpuMs} ms CPU (limits: ${rss.maxResponseMiB} MiB per response, ${rss.maxBufferedMiB} MiB buffered in all)`,
    );
    console.log(
      `peak RSS of the process running them: ${rss.peakMB} MB (${rss.baselineMB} MB before) (goal < ${RSS_GOAL_MB} MB) ${rss.peakMB < RSS_GOAL_MB ? "ok" : "OVER"}`,
    );
  } finally {
    await executor.close();
    await dispatcher.close();
    await app.close();
  }
}

/**
 * Runs the 32 cut-off runs in a child process, so its RSS is the executor's alone: the
 * server stays in this process, and no earlier benchmark has grown the child's heap.
 */
function measureInChild(ca, port) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ["--rss-child"], {
      execArgv: ["--expose-gc"],
      env: { ...process.env, BENCH_CA: ca, BENCH_PORT: String(port) },
    });
    child.once("message", resolve);
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? undefined : reject(new Error(`the RSS child exited with ${code}`))));
  });
}

async function rssChild() {
  const dispatcher = loopbackDispatcher(process.env.BENCH_CA, Number(process.env.BENCH_PORT));
  const executor = createExecutor({ registry: loadRegistry(manifestFiles), dispatcher });
  const token = `ghp_${"x".repeat(36)}`;
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const envelopes = await Promise.all(Array.from({ length: 32 }, () => executor.run({ integration: "github", op: "repos.list", credential: { token } })));
  const ms = Math.round(performance.now() - started);
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await dispatcher.close();
  process.send({
    codes: [...new Set(envelopes.map((envelope) => envelope.error?.code ?? envelope.status))].join(", "),
    ms,
    cpuMs: Math.round((used.user + used.system) / 1000),
    baselineMB: Math.round(baseline / MB),
    peakMB: Math.round(peak / MB),
    maxResponseMiB: executor.limits.maxResponseBytes / 2 ** 20,
    maxBufferedMiB: executor.limits.maxBufferedBytes / 2 ** 20,
  });
}

if (process.argv.includes("--rss-child")) await rssChild();
else if (import.meta.url === `file://${process.argv[1]}`) await run();
