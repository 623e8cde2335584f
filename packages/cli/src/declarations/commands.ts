import { auditVerifyCommand, receiptVerifyCommand, runCommand, mcpCommand, policyCommand, searchCommand, whoamiCommand } from "./bot.js";
import type { Audience, CommandDeclaration, FlagDeclarations } from "./declare.js";
import { listCommand, registrySignCommand, registryVerifyCommand, showCommand, validateCommand } from "./maintainer.js";
import { approveCommand, confirmCommand, grantCommand, keysCommand, revokeCommand } from "./member.js";
import { graphqlCheckCommand, openapiCheckCommand, openapiImportCommand } from "./spec-tools.js";

/** The audiences in the order the help lists them, with the heading it gives each. */
export const AUDIENCES: readonly { audience: Audience; heading: string }[] = [
  { audience: "member", heading: "For a member (keys, grants, confirmations, revocations)" },
  { audience: "bot", heading: "For a bot and its operator (through a sidecar)" },
  { audience: "maintainer", heading: "For a registry maintainer" },
  { audience: "spec", heading: "Spec tools (a manifest against its provider's published description)" },
];

/** Every command, each declared once in the file of the audience that runs it. */
export const COMMANDS: readonly CommandDeclaration<FlagDeclarations>[] = [
  keysCommand,
  grantCommand,
  confirmCommand,
  approveCommand,
  revokeCommand,
  runCommand,
  whoamiCommand,
  policyCommand,
  searchCommand,
  mcpCommand,
  auditVerifyCommand,
  receiptVerifyCommand,
  validateCommand,
  listCommand,
  showCommand,
  registrySignCommand,
  registryVerifyCommand,
  openapiCheckCommand,
  openapiImportCommand,
  graphqlCheckCommand,
];
