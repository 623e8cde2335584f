// The chip is complete: attacks on the member's consent through the real /v1/run flow and the shipped manifests.
import { confirmDetails, renderConfirm, signConfirmation } from "@eleven-integrations/grants";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { grantFor, member, opened, registry } from "../__fixtures__/grant-kit.js";
import { authorized, mockProvider, testApp, type MockProvider, type TestApp } from "../__fixtures__/test-app.js";

let provider: MockProvider;
let harness: TestApp;

beforeEach(async () => {
  provider = mockProvider();
  harness = await testApp({ dispatcher: provider.dispatcher });
});

afterEach(async () => {
  await harness.app.close();
  await provider.agent.close();
});

interface Answer {
  status: string;
  confirm?: string;
  preview?: string;
  details?: { name: string; value: string; flags: string[]; scripts?: string[] }[];
  error?: { code: string; message: string };
}

async function run(body: Record<string, unknown>): Promise<Answer> {
  const response = await harness.app.inject({ method: "POST", url: "/v1/run", headers: authorized, payload: body });
  expect(response.statusCode).toBe(200);
  return response.json() as Answer;
}

describe("the Gandi registrant", () => {
  // The bot asks to register the member's brand, with the attacker as the domain's owner of record.
  const args = {
    domain: "member-brand.com",
    owner_type: "individual",
    given: "Mallory",
    family: "Attacker",
    email: "mallory@evil.example",
    street: "1 Evil Way",
    city: "Badtown",
    zip: "66600",
    country: "GB",
    phone: "+44.2079460000",
  };

  it("shows the owner, the contact and the charge on the chip, and the optional phone in details", async () => {
    const grant = grantFor({ integration: "gandi", access: "write" });
    const answer = await run({ grant, op: "domains.register", args });
    expect(answer.status).toBe("confirmation_required");
    expect(answer.confirm).toBe(
      "Pay Gandi to register member-brand.com for 1 year (charged to your Gandi prepaid account); the owner on record will be Mallory Attacker (individual), mallory@evil.example, 1 Evil Way, 66600 Badtown, GB",
    );
    expect(answer.details).toEqual([{ name: "phone", value: "+44.2079460000", flags: ["not_in_line"] }]);
    expect(provider.sent).toHaveLength(0);
  });

  it("refuses a tap on the old chip that hid the registrant: the signed line must be the one shown", async () => {
    const grant = grantFor({ integration: "gandi", access: "write" });
    const oldLine = "Register member-brand.com for 1 year at Gandi — this costs real money";
    const confirmation = signConfirmation({ member, grant: opened(grant), op: "domains.register", args, line: oldLine });
    const answer = await run({ grant, op: "domains.register", args, confirmation });
    expect(answer.status).toBe("error");
    expect(answer.error?.code).toBe("confirmation_invalid");
    expect(answer.error?.message).toMatch(/mismatch/);
    expect(provider.sent).toHaveLength(0);
  });
});

describe("the long GitHub comment", () => {
  it("cuts the body on the chip and gives the whole body in details, so the hidden tail is shown", async () => {
    const body = `Thanks, looks good! ${"Lorem ipsum dolor sit amet. ".repeat(6)}P.S. approving the transfer of this repository to @mallory.`;
    const args = { owner: "octocat", repo: "hello-world", issue_number: "7", body };
    const answer = await run({ grant: grantFor({ access: "write" }), op: "issues.comment", args });
    expect(answer.status).toBe("confirmation_required");
    expect(answer.confirm).toMatch(
      /^Post a comment on octocat\/hello-world#7, visible to everyone who can read that repository and notifying its subscribers and anyone it mentions: “Thanks, looks good! .*…”$/u,
    );
    expect(answer.confirm).not.toContain("mallory");
    expect(answer.details).toEqual([{ name: "body", value: body, flags: ["shortened"] }]);
  });

  it("lists an optional issue body given to issues.create in details, and flags a look-alike title", async () => {
    const args = { owner: "octocat", repo: "hello-world", title: "Upd\u0430te dependencies", body: "Also adds a deploy key." };
    const answer = await run({ grant: grantFor({ access: "write" }), op: "issues.create", args });
    expect(answer.details).toEqual([
      {
        name: "title",
        value: "Upd\u0430te dependencies",
        flags: ["mixed_script", "look_alike"],
        scripts: ["Cyrillic", "Latin"],
        skeleton: "Update dependencies",
        reads_as: "Update dependencies",
      },
      { name: "body", value: "Also adds a deploy key.", flags: ["not_in_line"] },
    ]);
  });
});

describe("every shipped write op", () => {
  const writes = registry
    .integrations()
    .flatMap((manifest) => manifest.ops.filter((operation) => operation.access === "write").map((operation) => ({ integration: manifest.id, operation })));

  it("is one of the seventeen reviewed", () => {
    expect(writes.length).toBeGreaterThanOrEqual(17);
  });

  it.each(writes.map((write) => [`${write.integration} ${write.operation.id}`, write] as const))(
    "%s: names every required arg in its line, and every other given or cut value is in details in full",
    (_name, { operation }) => {
      const template = operation.confirm as string;
      const args: Record<string, string> = {};
      for (const [name, arg] of Object.entries(operation.args ?? {})) args[name] = arg.enum?.[0] ?? `«${name}:${"v".repeat(150)}»`;
      const line = renderConfirm(template, args);
      const details = confirmDetails(template, args);
      for (const [name, arg] of Object.entries(operation.args ?? {})) {
        const shownWhole = line.includes(args[name] as string);
        const inDetails = details.find((detail) => detail.name === name);
        if (arg.required === true) expect(template, name).toContain(`{${name}}`);
        if (!shownWhole) expect(inDetails?.value, name).toBe(args[name]);
        else expect(inDetails, name).toBeUndefined();
      }
    },
  );
});

describe("Todoist (API v1)", () => {
  it("names where a new task lands and who sees it; the optional project, due date and description come in details", async () => {
    const args = { content: "Pay the invoice", project_id: "6Jf8VQXxpwv56VQ7", due_string: "tomorrow at 9am", description: "Wire 4,000 EUR to the new IBAN" };
    const answer = await run({ grant: grantFor({ integration: "todoist", access: "write" }), op: "tasks.create", args });
    expect(answer.confirm).toBe(
      "Add task “Pay the invoice” to your Todoist, seen by everyone its project is shared with (your Inbox unless a project is given)",
    );
    expect(answer.details).toEqual([
      { name: "project_id", value: "6Jf8VQXxpwv56VQ7", flags: ["not_in_line"] },
      { name: "due_string", value: "tomorrow at 9am", flags: ["not_in_line"] },
      { name: "description", value: "Wire 4,000 EUR to the new IBAN", flags: ["not_in_line"] },
    ]);
  });

  it("says a reschedule replaces the due date, and its preview shows the task and the date it replaces", async () => {
    // GET /api/v1/tasks/{task_id} as https://developer.todoist.com/api/v1/#tag/Tasks/operation/get_task_api_v1_tasks__task_id__get documents it.
    provider.agent
      .get("https://api.todoist.com")
      .intercept({ path: "/api/v1/tasks/6X7rM8997g3RQmvh", method: "GET" })
      .reply(
        200,
        {
          id: "6X7rM8997g3RQmvh",
          content: "Call the plumber",
          description: "",
          project_id: "6Jf8VQXxpwv56VQ7",
          priority: 1,
          labels: [],
          due: { date: "2024-06-03", string: "today", lang: "en", is_recurring: false },
          checked: false,
          added_at: "2024-05-30T11:20:22.123456Z",
        },
        { headers: { "content-type": "application/json" } },
      );
    const answer = await run({
      grant: grantFor({ integration: "todoist", access: "write" }),
      op: "tasks.reschedule",
      args: { task_id: "6X7rM8997g3RQmvh", due_string: "next monday" },
    });
    expect(answer.confirm).toBe("Reschedule Todoist task 6X7rM8997g3RQmvh to “next monday”, replacing its current due date");
    expect(answer.preview).toBe("“Call the plumber”, now due today (2024-06-03)");
    expect(answer.details).toEqual([]);
    expect(provider.sent.map((request) => request.method)).toEqual(["GET"]);
  });
});
