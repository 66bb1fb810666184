// Import circles make load order matter and hide which module owns a type, so `npm run lint` refuses
// them. Every static `import`/`export ... from` counts, `import type` included; `import()` does not,
// since a lazy load is how a module is meant to break a dependency on purpose.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Module name to the names it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The import graph of every `.ts` file under `root` (tests excluded), keyed by path relative to `base`. */
function importGraph(root: string, base = root): Map<string, string[]> {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(root, f));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const targets = new Set<string>();
    for (const statement of source.statements) {
      const specifier =
        ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
      if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier.text);
      if (known.has(target)) targets.add(relative(base, target));
    }
    graph.set(relative(base, file), [...targets].sort());
  }
  return graph;
}

/**
 * The strongly connected components with more than one module (or a module importing itself),
 * by Tarjan's algorithm; each is sorted, and the list is sorted by its first module.
 */
export function findCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One import path around a component, `a.ts -> b.ts -> a.ts`, to show where to cut it. */
export function describeCycle(graph: ImportGraph, component: readonly string[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const path = [start];
  const seen = new Set([start]);
  // Walk inside the component until the path closes: every member reaches every other, so it does.
  for (let at = start; ;) {
    const to = (graph.get(at) ?? []).filter((n) => members.has(n));
    const back = to.find((n) => n === start);
    if (back !== undefined && path.length > 1) return [...path, start].join(' -> ');
    const fresh = to.find((n) => !seen.has(n)) ?? back ?? to[0]!;
    if (fresh === start) return [...path, start].join(' -> ');
    path.push(fresh);
    seen.add(fresh);
    at = fresh;
    if (path.length > members.size + 1) return [...path].join(' -> ');
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const graph = importGraph(join(repo, 'src'), repo);
  const cycles = findCycles(graph);
  for (const component of cycles) {
    console.log(`cycle of ${component.length} files: ${describeCycle(graph, component)}`);
    for (const file of component) console.log(`  ${file}`);
  }
  console.log(`${cycles.length} import cycle(s) in ${graph.size} files under src/`);
  if (cycles.length > 0) process.exitCode = 1;
}
