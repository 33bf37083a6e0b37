import { describe, expect, it } from 'vitest';
import { checkSyntax } from './check-browser-target';

describe('the ES2020 check of the built chunks (Chrome/WebView 80)', () => {
  it.each([
    ['optional chaining and ??', 'export const a = (o) => o?.b ?? 1;', null],
    ['dynamic import and import.meta', 'export const m = () => import(import.meta.url);', null],
    ['BigInt and async generators', 'export async function* g() { yield 1n; }', null],
    ['logical assignment ||= (Chrome 85)', 'let a; a ||= 1;', 'Unexpected token'],
    ['nullish assignment ??= (Chrome 85)', 'let a; a ??= 1;', 'Unexpected token'],
    ['class static block (Chrome 94)', 'class A { static { this.x = 1; } }', 'Unexpected token'],
    ['class fields (Chrome 72, ES2022)', 'class A { x = 1; }', 'Unexpected token'],
    ['top-level await (ES2022)', 'await Promise.resolve();', 'Cannot use keyword'],
  ])('%s', (_name, code, error) => {
    const message = checkSyntax(code, 'module');
    if (error === null) expect(message).toBeNull();
    else expect(message).toContain(error);
  });
});
