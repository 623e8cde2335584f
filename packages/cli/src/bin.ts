#!/usr/bin/env node
import { main } from "./main.js";
import { escapeText } from "./terminal-text.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`integrations: ${escapeText(error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = 1;
  },
);
