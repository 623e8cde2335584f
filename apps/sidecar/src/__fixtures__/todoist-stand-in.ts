// A loopback TLS stand-in for api.todoist.com, reached through a dispatcher that connects to
// 127.0.0.1 while verifying the certificate for api.todoist.com against a test CA. Its answers copy
// Todoist's API v1 documentation: "Get Tasks" (GET /api/v1/tasks,
// https://developer.todoist.com/api/v1/#tag/Tasks/operation/get_tasks_api_v1_tasks_get) answers
// `{ results: [Task], next_cursor }`, each task the documented Task object (trimmed of nothing the
// tasks.list op picks); "Create Task" (POST /api/v1/tasks,
// https://developer.todoist.com/api/v1/#tag/Tasks/operation/create_task_api_v1_tasks_post) answers the new Task.
import Fastify from "fastify";
import { createLoopbackDispatcher, createTestCertificates, type TestCertificates } from "@eleven-integrations/test-support";
import type { Dispatcher } from "undici";

export const TODOIST_HOST = "api.todoist.com";

/** A Task as Todoist's documentation shows it. */
export function todoistTask(id: string, content: string, projectId = "6Jf8VQXxpwv56VQ7"): Record<string, unknown> {
  return {
    id,
    user_id: "2671355",
    project_id: projectId,
    section_id: null,
    parent_id: null,
    added_by_uid: "2671355",
    assigned_by_uid: null,
    responsible_uid: null,
    labels: [],
    deadline: null,
    duration: null,
    checked: false,
    is_deleted: false,
    added_at: "2025-01-17T09:48:43.282000Z",
    completed_at: null,
    updated_at: "2025-01-17T09:48:43.282000Z",
    due: { date: "2025-01-18", timezone: null, string: "tomorrow", lang: "en", is_recurring: false },
    priority: 1,
    child_order: 1,
    content,
    description: "",
    note_count: 0,
    day_order: -1,
    is_collapsed: false,
  };
}

export interface TodoistStandIn {
  /** The tasks `GET /api/v1/tasks` lists, newest first; a test adds to it. */
  tasks: Record<string, unknown>[];
  /** Every request, in order: method and URL. */
  requests: { method: string; url: string }[];
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

let certificates: Promise<TestCertificates> | undefined;

export async function startTodoistStandIn(): Promise<TodoistStandIn> {
  certificates ??= createTestCertificates([TODOIST_HOST]);
  const { ca, key, cert } = await certificates;
  const tasks: Record<string, unknown>[] = [todoistTask("6X7rM8997g3RQmvh", "Buy Milk"), todoistTask("6X7rfFVPjhvv84XG", "Call the plumber")];
  const requests: { method: string; url: string }[] = [];
  const server = Fastify({ https: { key, cert } });
  server.addHook("onRequest", async (request) => {
    requests.push({ method: request.method, url: request.url });
  });
  server.get("/api/v1/tasks", async () => ({ results: tasks, next_cursor: null }));
  server.post("/api/v1/tasks", async (request) => {
    const { content } = request.body as { content: string };
    return todoistTask("6X7rfFVPjhvv9999", content);
  });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const dispatcher = createLoopbackDispatcher(ca, { [TODOIST_HOST]: port });
  return {
    tasks,
    requests,
    dispatcher,
    close: async () => {
      await dispatcher.close();
      await server.close();
    },
  };
}
