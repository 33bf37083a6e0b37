import { parse } from 'acorn';

/**
 * The shared schema modules (shared/schemas/*.ts) build their zod schemas at the top level, each one a
 * call (`z.object(…)`, `Base.extend(…)`, `zText(…)`). A bundler cannot tell that such a call has no side
 * effects, so the browser's build kept every schema of every module the app imports (also the answers'
 * schemas, which the client only takes types from) and built them all while the app's code was
 * evaluated, before its first render (issue 28).
 *
 * This marks each top-level `const` built by a call as pure: its initializer becomes
 * `/* @__PURE__ *\/ (() => initializer)()`, which the bundler drops when nothing uses the constant, and
 * which otherwise runs as before, in the same order. It is for modules whose top-level calls only build
 * values (the schema modules: no registry, no global configuration). Takes the module once TypeScript
 * has been stripped; returns the new code, or null when there is nothing to mark.
 */
export function markTopLevelCallsPure(code: string): string | null {
  const program = parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
  const initializers: { start: number; end: number }[] = [];
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
    for (const { init } of declaration.declarations)
      if (init?.type === 'CallExpression' || init?.type === 'NewExpression') initializers.push(init);
  }
  if (initializers.length === 0) return null;
  let marked = '';
  let at = 0;
  for (const { start, end } of initializers) {
    marked += `${code.slice(at, start)}/* @__PURE__ */ (() => ${code.slice(start, end)})()`;
    at = end;
  }
  return marked + code.slice(at);
}
