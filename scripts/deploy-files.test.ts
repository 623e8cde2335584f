import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brokerEnvironmentSchema } from "@eleven-integrations/broker";
import { sidecarEnvironmentSchema } from "@eleven-integrations/sidecar";
import { afterAll, describe, expect, it } from "vitest";
import { composeEnvironments, dockerStages, envNames, parseCopy, parseDockerfile, unitEnvironmentNames, unitSettings } from "./lib/deploy-files.mjs";
import { repositoryRoot } from "./lib/workspace.mjs";

const APPS = {
  broker: { names: Object.keys(brokerEnvironmentSchema.shape), home: "/var/lib/eleven-broker" },
  sidecar: { names: Object.keys(sidecarEnvironmentSchema.shape), home: "/var/lib/eleven-sidecar" },
} as const;
type App = keyof typeof APPS;
const read = (path: string) => readFileSync(join(repositoryRoot, path), "utf8");
const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** The names of `names` the app's environment schema does not have. */
const unknownTo = (app: App, names: string[]) => names.filter((name) => !(APPS[app].names as readonly string[]).includes(name));

describe.each(Object.keys(APPS) as App[])("deploy/docker/%s.Dockerfile", (app) => {
  const instructions = parseDockerfile(read(`deploy/docker/${app}.Dockerfile`));
  const stages = dockerStages(instructions);
  const final = stages.at(-1);

  it("is multi-stage: the last stage copies the built folder from an earlier one, and nothing from the build context", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const copies = final?.instructions.filter((item) => item.instruction === "COPY").map((item) => parseCopy(item.args)) ?? [];
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) expect(stages.slice(0, -1).map((stage) => stage.name)).toContain(copy.from);
  });

  it("copies only sources that exist in the repository, and runs the scripts it names", () => {
    for (const item of instructions.filter((entry) => entry.instruction === "COPY")) {
      const copy = parseCopy(item.args);
      if (copy.from !== undefined) continue;
      for (const source of copy.sources) expect(existsSync(join(repositoryRoot, source)), `line ${item.line}: ${source}`).toBe(true);
    }
    const scripts = instructions
      .filter((item) => item.instruction === "RUN")
      .flatMap((item) => [...item.args.matchAll(/node (\S+\.mjs)/g)].map((match) => match[1]));
    expect(scripts).toContain("scripts/deploy-app.mjs");
    for (const script of scripts) expect(existsSync(join(repositoryRoot, script ?? "")), script).toBe(true);
  });

  it("sets only variables the app's environment schema reads", () => {
    const names = instructions.filter((item) => item.instruction === "ENV").flatMap((item) => envNames(item.args));
    const finalNames = final?.instructions.filter((item) => item.instruction === "ENV").flatMap((item) => envNames(item.args)) ?? [];
    expect(finalNames.length).toBeGreaterThan(0);
    // CI=true in the build stage is for pnpm, not the app.
    expect(
      unknownTo(
        app,
        names.filter((name) => name !== "CI"),
      ),
    ).toEqual([]);
    expect(unknownTo(app, finalNames)).toEqual([]);
  });

  it("runs as its own user with the home as its volume and a HEALTHCHECK on the probe", () => {
    const last = (name: string) => final?.instructions.filter((item) => item.instruction === name).at(-1)?.args;
    expect(last("USER")).toBe(`eleven-${app}`);
    expect(last("VOLUME")).toBe(`["${APPS[app].home}"]`);
    expect(last("HEALTHCHECK")).toMatch(/\/healthz/);
    expect(last("CMD")).toContain(`/opt/eleven-${app}/dist/server.js`);
    expect(final?.instructions.find((item) => item.instruction === "RUN")?.args).toContain(`install -d -o eleven-${app}`);
  });
});

describe("deploy/compose.yaml", () => {
  const services = composeEnvironments(read("deploy/compose.yaml"));

  it("has the broker, a sidecar and Redis", () => {
    expect(Object.keys(services).sort()).toEqual(["broker", "redis", "sidecar"]);
  });

  it.each(Object.keys(APPS) as App[])("gives the %s only variables its environment schema reads", (app) => {
    const names = Object.keys(services[app]?.environment ?? {});
    expect(names.length).toBeGreaterThan(0);
    expect(unknownTo(app, names)).toEqual([]);
  });

  it("runs each app read-only, without capabilities or new privileges", () => {
    for (const app of Object.keys(APPS)) expect(services[app]?.keys).toEqual(expect.arrayContaining(["read_only", "cap_drop", "security_opt", "volumes"]));
  });

  it("catches a variable no schema has (the check is not vacuous)", () => {
    const text = read("deploy/compose.yaml").replace("      SIDECAR_HOME:", "      SIDECAR_HOEM: x\n      SIDECAR_HOME:");
    expect(unknownTo("sidecar", Object.keys(composeEnvironments(text).sidecar?.environment ?? {}))).toEqual(["SIDECAR_HOEM"]);
  });
});

const HARDENING: Record<string, string> = {
  NoNewPrivileges: "yes",
  ProtectSystem: "strict",
  ProtectHome: "yes",
  PrivateTmp: "yes",
  PrivateDevices: "yes",
  CapabilityBoundingSet: "",
  UMask: "0077",
  RestrictAddressFamilies: "AF_UNIX AF_INET AF_INET6",
  RestrictSUIDSGID: "yes",
  ProtectKernelTunables: "yes",
  ProtectControlGroups: "yes",
};

/** Runs `systemd-analyze verify` on `unit` with `/opt/eleven-<app>` pointed at a folder holding a node binary and dist/server.js. */
function verifyUnit(app: App, unit: string): { status: number | null; output: string } {
  const root = mkdtempSync(join(tmpdir(), "eleven-unit-"));
  temporary.push(root);
  const folder = join(root, `eleven-${app}`);
  mkdirSync(join(folder, "dist"), { recursive: true });
  symlinkSync(process.execPath, join(folder, "node"));
  writeFileSync(join(folder, "dist", "server.js"), "");
  const file = join(root, `eleven-${app}.service`);
  writeFileSync(file, unit.replaceAll(`/opt/eleven-${app}`, folder));
  const result = spawnSync("systemd-analyze", ["verify", "--man=no", file], { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

describe.each(Object.keys(APPS) as App[])("deploy/systemd/eleven-%s.service", (app) => {
  const unit = read(`deploy/systemd/eleven-${app}.service`);
  const settings = unitSettings(unit);

  it("is accepted by systemd-analyze verify, with nothing to say", () => {
    expect(verifyUnit(app, unit)).toEqual({ status: 0, output: "" });
  });

  it("is refused by the same check when a directive is misspelt (the check is not vacuous)", () => {
    expect(verifyUnit(app, unit.replace("ProtectSystem=strict", "ProtectSistem=strict")).output).toContain("Unknown key 'ProtectSistem'");
  });

  it("is hardened: its own user, the home the only writable path, no capabilities, @system-service calls", () => {
    expect(settings.User).toEqual([`eleven-${app}`]);
    for (const [key, value] of Object.entries(HARDENING)) expect(settings[key], key).toEqual([value]);
    expect(settings.ReadWritePaths).toEqual([APPS[app].home]);
    expect(settings.StateDirectory).toEqual([`eleven-${app}`]);
    expect(settings.SystemCallFilter?.[0]).toBe("@system-service");
    expect(settings.ExecStart).toEqual([`/opt/eleven-${app}/node /opt/eleven-${app}/dist/server.js`]);
  });

  it("sets only variables the app's environment schema reads, the home among them", () => {
    const names = unitEnvironmentNames(settings);
    expect(unknownTo(app, names)).toEqual([]);
    if (app === "sidecar") expect(settings.Environment).toContain(`SIDECAR_HOME=${APPS.sidecar.home}`);
    else expect(settings.Environment).toContain(`BROKER_CONFIG_FILE=${APPS.broker.home}/config.json`);
  });
});

it("systemd-analyze is on the machine (the unit checks above need it)", () => {
  expect(execFileSync("systemd-analyze", ["--version"], { encoding: "utf8" })).toMatch(/^systemd \d+/);
});
