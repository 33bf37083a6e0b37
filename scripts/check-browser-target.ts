/**
 * Parses every JavaScript file of the built client (`dist/client` by default) as ES2020, the syntax of
 * the oldest browser the app supports (Chrome/Android WebView 80; vite.config.ts BROWSER_TARGET). A file
 * with newer syntax (`||=`, `??=`, class static blocks, `#x in o`, …) would leave those phones with a blank
 * screen: the check names the file, line and construct and exits 1. CI runs it after `npm run build`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ecmaVersion, parse } from 'acorn';

/** The newest ECMAScript syntax the supported browsers all parse. */
export const TARGET_ECMA_VERSION: ecmaVersion = 2020;

export interface SyntaxProblem {
  file: string;
  message: string;
}

/** The syntax error an ES2020 parser finds in the code, or null when it parses. */
export function checkSyntax(code: string, sourceType: 'module' | 'script'): string | null {
  try {
    parse(code, { ecmaVersion: TARGET_ECMA_VERSION, sourceType, allowHashBang: true });
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsFiles(path);
    return name.endsWith('.js') || name.endsWith('.mjs') ? [path] : [];
  });
}

/** Every built file's problem: the chunks are ES modules, the service worker a classic script. */
export function checkBuild(dir: string): { files: number; problems: SyntaxProblem[] } {
  const files = jsFiles(dir);
  const problems: SyntaxProblem[] = [];
  for (const file of files) {
    const name = relative(dir, file);
    const sourceType = /^(sw|workbox-[\w-]+)\.js$/.test(name) ? 'script' : 'module';
    const message = checkSyntax(readFileSync(file, 'utf8'), sourceType);
    if (message) problems.push({ file: name, message });
  }
  return { files: files.length, problems };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2] ?? 'dist/client';
  const { files, problems } = checkBuild(dir);
  if (files === 0) {
    console.error(`No JavaScript in ${dir}: run \`npm run build\` first.`);
    process.exit(1);
  }
  for (const p of problems) console.error(`${p.file}: not ES${TARGET_ECMA_VERSION}: ${p.message}`);
  if (problems.length > 0) process.exit(1);
  console.log(`${files} built files parse as ES${TARGET_ECMA_VERSION} (Chrome/WebView 80 and later).`);
}
