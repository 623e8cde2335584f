// A loopback TLS stand-in for api.github.com, reached through a dispatcher that
// connects to 127.0.0.1 while verifying the certificate for api.github.com against a test CA.
// Its answers copy GitHub's REST documentation, trimmed to the fields the manifest picks:
// GET /user/repos (https://docs.github.com/en/rest/repos/repos#list-repositories-for-the-authenticated-user),
// GET /user (https://docs.github.com/en/rest/users/users#get-the-authenticated-user, its example user),
// POST /repos/{owner}/{repo}/issues (https://docs.github.com/en/rest/issues/issues#create-an-issue),
// GET and PATCH /repos/{owner}/{repo}/issues/{issue_number} (https://docs.github.com/en/rest/issues/issues#get-an-issue
// and #update-an-issue: the example issue "Found a bug", opened by octocat, closed by the PATCH),
// GET /repos/{owner}/{repo}/issues and its Link header (the pagination page named below), and the
// `{ message, documentation_url }` error body (https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api).
import Fastify from "fastify";
import { createLoopbackDispatcher, createTestCertificates, type TestCertificates } from "@eleven-integrations/test-support";
import type { Dispatcher } from "undici";

export const PROVIDER_HOST = "api.github.com";

/** GitHub's "Get an issue" example, trimmed to what issues.get and issues.close pick. */
const ISSUE_1347 = {
  number: 1347,
  title: "Found a bug",
  state: "open",
  body: "I'm having a problem with this.",
  html_url: "https://github.com/octocat/Hello-World/issues/1347",
  user: { login: "octocat", id: 1 },
  labels: [{ name: "bug" }],
  assignees: [{ login: "octocat" }],
  comments: 0,
  created_at: "2011-04-22T13:33:48Z",
  updated_at: "2011-04-22T13:33:48Z",
};

export interface StandInRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  body: unknown;
}

export interface ProviderStandIn {
  /** Every request the stand-in received, in order. */
  requests: StandInRequest[];
  /** Reaches the stand-in for https://api.github.com only; any other host fails to connect. */
  dispatcher: Dispatcher;
  port: number;
  /** Milliseconds `GET /user/repos` waits before answering (for shutdown tests). */
  setReposDelay(ms: number): void;
  /** Milliseconds `POST .../issues` waits before answering (a write still running). */
  setWriteDelay(ms: number): void;
  /** While on, `POST .../issues` reads the whole request, then destroys the connection without answering (a reset after the write arrived). */
  setHangUpOnWrite(on: boolean): void;
  close(): Promise<void>;
}

export const REPOSITORIES = [
  {
    full_name: "octocat/hello-world",
    private: false,
    description: "My first repository",
    html_url: "https://github.com/octocat/hello-world",
    default_branch: "main",
    open_issues_count: 2,
    pushed_at: "2024-01-01T00:00:00Z",
    node_id: "dropped by pick",
  },
  {
    full_name: "octocat/spoon-knife",
    private: true,
    description: null,
    html_url: "https://github.com/octocat/spoon-knife",
    default_branch: "main",
    open_issues_count: 0,
    pushed_at: "2024-02-01T00:00:00Z",
    node_id: "dropped by pick",
  },
];

/**
 * Three pages of `GET /repos/octocat/hello-world/issues`, linked the way GitHub documents it
 * (https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api):
 * the links name the repository by id, `/repositories/1300192/issues?page=N`.
 */
export const ISSUE_PAGES = [
  [{ number: 5, title: "Fifth", state: "open", html_url: "https://github.com/octocat/hello-world/issues/5", node_id: "dropped by pick" }],
  [{ number: 4, title: "Fourth", state: "open", html_url: "https://github.com/octocat/hello-world/issues/4", node_id: "dropped by pick" }],
  [{ number: 3, title: "Third", state: "open", html_url: "https://github.com/octocat/hello-world/issues/3", node_id: "dropped by pick" }],
];

function issuesLink(page: number): string {
  const link = (n: number, rel: string) => `<https://api.github.com/repositories/1300192/issues?per_page=20&page=${n}>; rel="${rel}"`;
  const links = [];
  if (page > 1) links.push(link(page - 1, "prev"));
  if (page < ISSUE_PAGES.length) links.push(link(page + 1, "next"), link(ISSUE_PAGES.length, "last"));
  links.push(link(1, "first"));
  return links.join(", ");
}

let certificates: Promise<TestCertificates> | undefined;

/** A dispatcher that opens every api.github.com connection to `port` on 127.0.0.1, TLS verified for api.github.com against `ca` alone. */
export function loopbackDispatcher(ca: string, port: number): Dispatcher {
  return createLoopbackDispatcher(ca, { [PROVIDER_HOST]: port });
}

/** Starts the stand-in: `GET /user/repos` and `POST /repos/:owner/:repo/issues`, counting every request. */
export async function startProviderStandIn(): Promise<ProviderStandIn> {
  certificates ??= createTestCertificates([PROVIDER_HOST]);
  const { ca, key, cert } = await certificates;
  const requests: StandInRequest[] = [];
  let reposDelayMs = 0;
  let hangUpOnWrite = false;
  let writeDelayMs = 0;
  const server = Fastify({ https: { key, cert } });
  server.addHook("onRequest", async (request) => {
    requests.push({ method: request.method, url: request.url, authorization: request.headers.authorization, body: undefined });
  });
  server.addHook("preHandler", async (request) => {
    const last = requests[requests.length - 1];
    if (last !== undefined) last.body = request.body;
  });
  server.get("/user", async () => ({
    login: "octocat",
    id: 1,
    node_id: "MDQ6VXNlcjE=",
    name: "monalisa octocat",
    html_url: "https://github.com/octocat",
    type: "User",
  }));
  server.get("/user/repos", async () => {
    if (reposDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, reposDelayMs));
    return REPOSITORIES;
  });
  server.get("/repos/:owner/:repo/issues", async (request, reply) => {
    const page = Number((request.query as { page?: string }).page ?? "1");
    const items = ISSUE_PAGES[page - 1];
    if (items === undefined) return reply.code(404).send({ message: "Not Found", documentation_url: "https://docs.github.com/rest" });
    return reply.header("link", issuesLink(page)).send(items);
  });
  // An issue this stand-in closed reads as closed afterwards, as GitHub's does; the PATCH takes effect before its (delayed) answer.
  const closed = new Map<string, { state_reason: string | undefined }>();
  const issueKey = (params: unknown) => {
    const { owner, repo, number } = params as { owner: string; repo: string; number: string };
    return `${owner}/${repo}#${number}`;
  };
  server.get("/repos/:owner/:repo/issues/:number", async (request, reply) => {
    const number = Number((request.params as { number: string }).number);
    // An issue that does not exist: GitHub answers 404 with its documentation link (https://docs.github.com/en/rest/issues/issues#get-an-issue).
    if (number === 404) return reply.code(404).send({ message: "Not Found", documentation_url: "https://docs.github.com/rest/issues/issues#get-an-issue" });
    const closing = closed.get(issueKey(request.params));
    if (closing === undefined) return { ...ISSUE_1347, number };
    return { ...ISSUE_1347, number, state: "closed", state_reason: closing.state_reason, closed_at: "2011-04-22T13:33:48Z" };
  });
  server.patch("/repos/:owner/:repo/issues/:number", async (request) => {
    const { state_reason } = request.body as { state_reason?: string };
    closed.set(issueKey(request.params), { state_reason });
    if (writeDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, writeDelayMs));
    return { ...ISSUE_1347, number: Number((request.params as { number: string }).number), state: "closed", state_reason, closed_at: "2011-04-22T13:33:48Z" };
  });
  server.post("/repos/:owner/:repo/issues/:number/labels", async (request) => {
    const { labels } = request.body as { labels: string[] };
    return labels.map((name, index) => ({ id: 208045946 + index, name, color: "f29513", default: false }));
  });
  server.post("/repos/:owner/:repo/issues", async (request, reply) => {
    if (hangUpOnWrite) {
      request.raw.socket.destroy();
      return reply.hijack();
    }
    if (writeDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, writeDelayMs));
    const { title } = request.body as { title: string };
    return reply.code(201).send({ number: 42, title, state: "open", html_url: "https://github.com/octocat/hello-world/issues/42", id: 1 });
  });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const dispatcher = loopbackDispatcher(ca, port);
  return {
    requests,
    dispatcher,
    port,
    setReposDelay: (ms) => {
      reposDelayMs = ms;
    },
    setWriteDelay: (ms) => {
      writeDelayMs = ms;
    },
    setHangUpOnWrite: (on) => {
      hangUpOnWrite = on;
    },
    close: async () => {
      await dispatcher.close();
      await server.close();
    },
  };
}
