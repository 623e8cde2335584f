// `node scripts/check-import-cycles.mjs [folder...]` (run by `pnpm lint`): exits 1 naming
// every import circle among the TypeScript and JavaScript files of each workspace package
// (default) or of the folders given. Tests and fixtures count, and so do type-only imports:
// a circle of types is still two modules that can only be read, moved or split together.
// Only relative imports are followed; a circle between packages is one pnpm and turbo refuse.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { repositoryRoot, workspaceFolders } from "./lib/workspace.mjs";

const SOURCE = /\.(ts|mts|js|mjs)$/;

function sourceFiles(dir, files = []) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, files);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) files.push(path);
  }
  return files;
}

/** The file a relative specifier names: TypeScript's `.js` is the `.ts` beside it. */
function resolveSpecifier(from, specifier) {
  const target = resolve(dirname(from), specifier);
  const candidates = [
    target.replace(/\.js$/, ".ts"),
    target.replace(/\.mjs$/, ".mts"),
    target,
    `${target}.ts`,
    `${target}.js`,
    join(target, "index.ts"),
    join(target, "index.js"),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** The import graph of the files under `dir`: file → the files it imports (static, dynamic, type-only, re-exports). */
export function importGraph(dir) {
  const graph = new Map();
  for (const file of sourceFiles(dir)) {
    const imported = ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles;
    const targets = new Set();
    for (const { fileName } of imported) {
      if (!fileName.startsWith("./") && !fileName.startsWith("../")) continue;
      const target = resolveSpecifier(file, fileName);
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every circle of the graph, as its files (a strongly connected component of two or more, or a file importing itself). */
export function importCycles(graph) {
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const cycles = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++];
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}

/** The circles under each folder, as lines naming their files relative to `root`. */
export function cycleProblems(folders, root = repositoryRoot) {
  const problems = [];
  for (const folder of folders) {
    for (const cycle of importCycles(importGraph(folder))) {
      problems.push(`import circle of ${cycle.length} file(s): ${cycle.map((file) => relative(root, file)).join(" ⇄ ")}`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const given = process.argv.slice(2).map((folder) => resolve(folder));
  const problems = cycleProblems(given.length > 0 ? given : workspaceFolders(), process.cwd());
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error("Move what the files share into a module they both import (see README.md, Formatting and linting).");
    process.exit(1);
  }
}
