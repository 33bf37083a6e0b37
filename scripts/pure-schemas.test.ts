import { describe, expect, it } from 'vitest';
import { markTopLevelCallsPure } from './pure-schemas';

const PURE = '/* @__PURE__ */ (() => ';

describe('markTopLevelCallsPure', () => {
  it.each([
    [
      'an exported schema',
      'export const A = z.object({ a: z.string() });',
      `export const A = ${PURE}z.object({ a: z.string() }))();`,
    ],
    [
      'a chained one',
      'export const B = A.extend({ b: zText({ max: 5 }) }).optional();',
      `export const B = ${PURE}A.extend({ b: zText({ max: 5 }) }).optional())();`,
    ],
    [
      'a module-private one',
      'const C = z.preprocess(f, z.number());',
      `const C = ${PURE}z.preprocess(f, z.number()))();`,
    ],
    ['a constructed value', 'const D = new Set([1, 2]);', `const D = ${PURE}new Set([1, 2]))();`],
    [
      'each of several declarators',
      'const E = f(), F = 1, G = g();',
      `const E = ${PURE}f())(), F = 1, G = ${PURE}g())();`,
    ],
  ])('marks %s', (_name, code, expected) => {
    expect(markTopLevelCallsPure(code)).toBe(expected);
  });

  it.each([
    [
      'literals and arrow functions',
      'export const M = { a: 1 } ;\nexport const f = (x) => z.string().max(x);',
    ],
    ['a let or var', 'let L = f();\nvar V = g();'],
    ['calls inside functions', 'export function zText(o) { const s = z.string(); return s; }'],
    ['statements that are calls', 'z.config({ jitless: true });'],
    ['re-exports and imports', "import { z } from 'zod';\nexport { A } from './a';"],
  ])('leaves %s alone', (_name, code) => {
    expect(markTopLevelCallsPure(code)).toBeNull();
  });

  it('keeps the order and the text around what it marks', () => {
    const code =
      "import { z } from 'zod';\n// a\nexport const A = z.string();\n\nexport const B = A.min(1);\n";
    expect(markTopLevelCallsPure(code)).toBe(
      `import { z } from 'zod';\n// a\nexport const A = ${PURE}z.string())();\n\nexport const B = ${PURE}A.min(1))();\n`,
    );
  });
});
