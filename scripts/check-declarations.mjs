// `node scripts/check-declarations.mjs [package folder...]`: exits 1 naming every `any`
// in the built declarations (`dist/**/*.d.ts`) of each workspace package (default) or of
// the folders given. A user's code type-checks against these files, so an `any` there
// (often inferred, never written: an inherited static, a return type left to inference)
// turns their checks off. Read with TypeScript's parser: `any` in a comment or a string is
// not a type. Run after a build; each package's `pnpm lint` runs it on its own `dist`.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { repositoryRoot, workspaceFolders } from "./lib/workspace.mjs";

function declarationFiles(dir, files = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) declarationFiles(path, files);
    else if (/\.d\.[cm]?ts$/.test(name)) files.push(path);
  }
  return files;
}

/** Each `any` type in one declaration file's text, as `{ line, text }` (1-based line, the line's text). */
export function anyTypes(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ line: line + 1, text: text.split("\n")[line].trim() });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The `any` types in `<folder>/dist/**\/*.d.ts`, as lines `path:line: text` relative to `root`. */
export function declarationProblems(folder, root = repositoryRoot) {
  const dist = join(folder, "dist");
  if (!existsSync(dist)) return [];
  const problems = [];
  for (const file of declarationFiles(dist)) {
    for (const { line, text } of anyTypes(file, readFileSync(file, "utf8"))) {
      problems.push(`${relative(root, file)}:${line}: \`any\` in a built declaration: ${text}`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const given = process.argv.slice(2);
  const problems = (given.length > 0 ? given : workspaceFolders()).flatMap((folder) => declarationProblems(folder, process.cwd()));
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
}
