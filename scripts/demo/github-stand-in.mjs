// The demo's loopback TLS stand-in for api.github.com. Only the demo wires it in (the sidecar's
// programmatic `dispatcher` option, as the tests do); no server's env var or flag can point at it.
// Its answers copy GitHub's REST documentation, trimmed to what the manifest picks:
// GET /repos/{owner}/{repo}/issues (https://docs.github.com/en/rest/issues/issues#list-repository-issues)
// with the Link header of https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api
// (links name the repository by id), and POST /repos/{owner}/{repo}/issues, 201 with the issue
// (https://docs.github.com/en/rest/issues/issues#create-an-issue).
import Fastify from "fastify";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";

const HOST = "api.github.com";
const ISSUE_PAGES = [
  [
    { number: 7, title: "Dark mode for the catalog", state: "open", html_url: "https://github.com/octocat/hello-world/issues/7" },
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
  server.post("/repos/:owner/:repo/issues", async (request, reply) => {
    const { title } = request.body;
    return reply.code(201).send({ number: 8, title, state: "open", html_url: "https://github.com/octocat/hello-world/issues/8" });
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
