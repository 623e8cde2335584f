// `node --import <this file>`: appends every module URL the program resolves to $RECORD_IMPORTS_FILE, one per line.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from "node:fs";
const file = ${JSON.stringify(process.env.RECORD_IMPORTS_FILE)};
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(file, resolved.url + "\\n");
  return resolved;
}`)}`,
);
