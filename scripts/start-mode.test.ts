import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * `npm start` is the app as it runs for the business (the README's first command; the Dockerfile sets
 * the same): its server runs with NODE_ENV=production whatever its caller's, so React draws the staff
 * screens it sends (server/screen-html.ts) with its production build. With the development build a
 * server-drawn screen took 27 → 21.5 ms (/ops/orders), 29 → 22 (/ops/finance), 14.7 → 9.3 (/ops),
 * median of 100 (issue 28).
 */
describe('npm start', () => {
  it('runs the server with NODE_ENV=production, and only the server', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const steps = pkg.scripts.start!.split('&&').map((s) => s.trim());
    expect(steps.at(-1)).toBe('NODE_ENV=production tsx server/main.ts');
    // The client build runs as it did (it sets its own NODE_ENV: scripts/ensure-client.ts).
    expect(steps.slice(0, -1)).toEqual(['tsx scripts/ensure-client.ts']);
  });
});
