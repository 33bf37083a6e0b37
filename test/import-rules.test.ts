import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The import rules (DESIGN.md, layering) live in biome.json: `noRestrictedImports` per folder and
// `noImportCycles`. `npm run lint` applies them to the tree; this test plants imports in a scratch copy of
// the layout and checks that the configuration still catches each forbidden one and lets each allowed
// one through, so an edit of biome.json cannot switch a rule off without anyone noticing.

const RESTRICTED = 'lint/style/noRestrictedImports';
const CYCLE = 'lint/suspicious/noImportCycles';

type Case = { file: string; source: string; expect: typeof RESTRICTED | typeof CYCLE | null };

const cases: Case[] = [
  // upward imports
  { file: 'core/orders/up.ts', source: "import { router } from '../../server/trpc';", expect: RESTRICTED },
  {
    file: 'core/orders/up-type.ts',
    source: "import type { Ctx } from '../../server/context';",
    expect: RESTRICTED,
  },
  {
    file: 'core/orders/up-dyn.ts',
    source: "export const m = import('../../worker/handlers');",
    expect: RESTRICTED,
  },
  {
    file: 'core/orders/up-test.ts',
    source: "import { makeUser } from '../../test/factories';",
    expect: RESTRICTED,
  },
  {
    file: 'server/features/x/w.ts',
    source: "import { handlers } from '../../../worker/handlers';",
    expect: RESTRICTED,
  },
  {
    file: 'server/features/x/c.ts',
    source: "import { App } from '../../../client/app';",
    expect: RESTRICTED,
  },
  {
    file: 'worker/jobs/s.ts',
    source: "import { appRouter } from '../../server/router';",
    expect: RESTRICTED,
  },
  {
    file: 'drizzle/d.ts',
    source: "import { placeOrder } from '../core/orders/orders.service';",
    expect: RESTRICTED,
  },
  { file: 'shared/domain/s.ts', source: "import { db } from '../../drizzle/db';", expect: RESTRICTED },
  { file: 'shared/domain/c.ts', source: "import { x } from '../../core/errors';", expect: RESTRICTED },
  { file: 'client/features/a.ts', source: "import { x } from '../../core/errors';", expect: RESTRICTED },
  { file: 'client/features/b.ts', source: "import { db } from '../../drizzle/db';", expect: RESTRICTED },
  {
    file: 'client/features/c.ts',
    source: "import { appRouter } from '../../server/router';",
    expect: RESTRICTED,
  },
  {
    file: 'client/features/d.ts',
    source: "import { type AppRouter, t } from '../../server/router';",
    expect: RESTRICTED,
  },
  { file: 'client/features/e.ts', source: "import { trpc } from '../../server/trpc';", expect: RESTRICTED },
  // allowed imports
  { file: 'client/trpc.ts', source: "import type { AppRouter } from '../server/router';", expect: null },
  {
    file: 'client/features/f.ts',
    source: "import { ZOrder } from '../../shared/schemas/orders';",
    expect: null,
  },
  {
    file: 'client/prerender.tsx',
    source: "import { renderToString } from 'react-dom/server';",
    expect: null,
  },
  {
    file: 'server/main.ts',
    source: "import { InProcessRunner } from '../worker/transport/in-process';",
    expect: null,
  },
  { file: 'server/main.ts', source: "import { handlers } from '../worker/handlers';", expect: RESTRICTED },
  {
    file: 'server/features/x/r.ts',
    source: "import { placeOrder } from '../../../core/orders/orders.service';",
    expect: null,
  },
  {
    file: 'worker/handlers.ts',
    source: "import { placeOrder } from '../core/orders/orders.service';",
    expect: null,
  },
  {
    file: 'core/orders/ok.ts',
    source: "import { db } from '../../drizzle/db';\nimport { t } from '../../shared/jobs';",
    expect: null,
  },
  { file: 'core/orders/ok-pkg.ts', source: "import { Queue } from 'bullmq';", expect: null },
  {
    file: 'drizzle/ok.ts',
    source: "import { ORDER_STATUSES } from '../shared/domain/status';",
    expect: null,
  },
  // tests, test/, e2e/, bench/ and scripts/ may import anything
  { file: 'core/orders/x.test.ts', source: "import { router } from '../../server/trpc';", expect: null },
  { file: 'client/features/x.test.tsx', source: "import { db } from '../../drizzle/db';", expect: null },
  { file: 'e2e/x.e2e.ts', source: "import { appRouter } from '../server/router';", expect: null },
  { file: 'scripts/s.ts', source: "import { handlers } from '../worker/handlers';", expect: null },
  { file: 'test/helpers.ts', source: "import { appRouter } from '../server/router';", expect: null },
  // cycles, type-only imports included
  {
    file: 'core/a/one.ts',
    source: "import { two } from './two';\nexport const one = () => two;",
    expect: CYCLE,
  },
  {
    file: 'core/a/two.ts',
    source: "import { one } from './one';\nexport const two = () => one;",
    expect: CYCLE,
  },
  {
    file: 'core/b/rows.ts',
    source: "import type { P } from './p';\nexport type Row = { p: P };",
    expect: CYCLE,
  },
  {
    file: 'core/b/p.ts',
    source: "import type { Row } from './rows';\nexport type P = Row[];",
    expect: CYCLE,
  },
  {
    file: 'core/c/leaf.ts',
    source: "import { one } from '../a/one';\nexport const leaf = one;",
    expect: null,
  },
];

type Diagnostic = { category: string; location: { path: string; start: { line: number } } };

let dir: string;
/** categories found, by `file:line` */
const found = new Map<string, string[]>();
/** where each case's first line landed: cases naming the same file are written one after another */
const lineOf = new Map<Case, string>();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'import-rules-'));
  copyFileSync(resolve('biome.json'), join(dir, 'biome.json'));
  writeFileSync(join(dir, '.gitignore'), '');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const files = new Map<string, string[]>();
  for (const c of cases) {
    const lines = files.get(c.file) ?? [];
    lineOf.set(c, `${c.file}:${lines.length + 1}`);
    lines.push(...c.source.split('\n'));
    files.set(c.file, lines);
  }
  for (const [file, lines] of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), `${lines.join('\n')}\nexport {};\n`);
  }
  const biome = resolve('node_modules/.bin/biome');
  const only = ['--only=style/noRestrictedImports', '--only=suspicious/noImportCycles'];
  let out: string;
  try {
    out = execFileSync(biome, ['lint', '--reporter=json', '--max-diagnostics=none', ...only, '.'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    out = (e as { stdout: string }).stdout; // biome exits 1 when it finds errors, which most cases are
  }
  const report = JSON.parse(out) as { diagnostics: Diagnostic[] };
  for (const d of report.diagnostics) {
    const key = `${d.location.path}:${d.location.start.line}`;
    found.set(key, [...(found.get(key) ?? []), d.category]);
  }
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('import rules in biome.json', () => {
  it.each(cases)('$file: $source → $expect', (c) => {
    expect(found.get(lineOf.get(c) ?? '') ?? []).toEqual(c.expect ? [c.expect] : []);
  });

  it('reports nothing but the planted lines', () => {
    const expected = new Set(cases.filter((c) => c.expect).map((c) => lineOf.get(c)));
    expect([...found.keys()].filter((key) => !expected.has(key))).toEqual([]);
  });
});
