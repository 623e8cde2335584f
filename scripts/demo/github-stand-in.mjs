// The demo's loopback TLS stand-in for api.github.com. Only the demo wires it in (the sidecar's
// programmatic `dispatcher` option, as the tests do); no server's env var or flag can point at it.
// Its answers copy GitHub's REST documentation, trimmed to what the manifest picks:
// GET /repos/{owner}/{repo}/issues (https://docs.github.com/en/rest/issues/issues#list-repository-issues)
// with the Link header of https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api
// (links name the repository by id), GET /repos/{owner}/{repo}/issues/{issue_number}
// (https://docs.github.com/en/rest/issues/issues#get-an-issue), and PATCH of the same path, 200
// with the updated issue (https://docs.github.com/en/rest/issues/issues#update-an-issue).
import Fastify from "fastify";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";

const HOST = "api.github.com";
const ISSUE_PAGES = [
  [
    { number: 7, title: "Dark mode for the catalog", state: "open", comments: 3, html_url: "https://github.com/octocat/hello-world/issues/7" },
    { number: 6, title: "Search ignores accents", state: "open", html_url: "https://github.com/octocat/hello-world/issues/6" },
  ],
  [{ number: 5, title: "Document the grant lifetime", state: "open", html_url: "https://github.com/octocat/hello-world/issues/5" }],
];

function link(page) {
  const at = (n, rel) => `<https://api.github.com/repositories/1300192/issues?per_page=30&page=${n}>; rel="${rel}"`;
  const links = [];
  if (page > 1) links.push(at(page - 1, "prev"));
  if (page < ISSUE_PAGES.length) links.push(at(page + 1, "next"), at(ISSUE_PAGES.length, "last"));
  links.push(at(1, "first"));
  return links.join(", ");
}

/** Starts the stand-in on a free loopback port; `requests` counts what reached it. */
export async function startGitHubStandIn() {
  const { ca, key, cert } = await createTestCertificates([HOST]);
  const requests = [];
  const server = Fastify({ https: { key, cert } });
  server.addHook("onRequest", async (request) => {
    requests.push({ method: request.method, url: request.url });
  });
  const issuesPage = async (request, reply) => {
    const page = Number(request.query.page ?? "1");
    const items = ISSUE_PAGES[page - 1];
    if (items === undefined) return reply.code(404).send({ message: "Not Found", documentation_url: "https://docs.github.com/rest" });
    return reply.header("link", link(page)).send(items);
  };
  server.get("/repos/:owner/:repo/issues", issuesPage);
  server.get("/repositories/:id/issues", issuesPage);
  const issueAt = (number) => ISSUE_PAGES.flat().find((issue) => String(issue.number) === number);
  server.get("/repos/:owner/:repo/issues/:number", async (request, reply) => {
    const issue = issueAt(request.params.number);
    if (issue === undefined)
      return reply.code(404).send({ message: "Not Found", documentation_url: "https://docs.github.com/rest/issues/issues#get-an-issue" });
    return reply.send({ ...issue, user: { login: "octocat", id: 583231 }, comments: issue.comments ?? 0 });
  });
  server.patch("/repos/:owner/:repo/issues/:number", async (request, reply) => {
    const issue = issueAt(request.params.number);
    if (issue === undefined)
      return reply.code(404).send({ message: "Not Found", documentation_url: "https://docs.github.com/rest/issues/issues#update-an-issue" });
    Object.assign(issue, { state: request.body.state, state_reason: request.body.state_reason, closed_at: "2026-12-02T09:00:00Z" });
    return reply.send({ ...issue, user: { login: "octocat", id: 583231 } });
  });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const dispatcher = createLoopbackDispatcher(ca, { [HOST]: server.server.address().port });
  return {
    requests,
    dispatcher,
    close: async () => {
      await dispatcher.close();
      await server.close();
    },
  };
}
