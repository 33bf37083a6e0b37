import { describe, expect, it } from 'vitest';
import { type ModuleGraph, planSharedChunks } from './shared-chunks';

/**
 * A small client: the entry starts the app and the pages lazily; the app and the pages share React; the
 * sign-in page and two staff screens share the API layer; the staff screens share the UI kit, two of them
 * a map library; the landing page shares a format module with a screen.
 */
const IMPORTS: Record<string, string[]> = {
  boot: [],
  main: ['react', 'session'],
  react: [],
  session: [],
  landing: ['format', 'landingHero'],
  landingHero: [],
  format: [],
  login: ['react', 'api'],
  orders: ['react', 'api', 'ui', 'format', 'ordersTable'],
  ordersTable: ['ui'],
  driver: ['react', 'api', 'ui', 'maplibre'],
  fuel: ['react', 'api', 'maplibre'],
  api: ['query'],
  query: [],
  ui: [],
  maplibre: [],
};
const LAZY = new Set(['main', 'landing', 'login', 'orders', 'driver', 'fuel']);

const graph: ModuleGraph = {
  ids: Object.keys(IMPORTS),
  imports: (id) => IMPORTS[id] ?? [],
  isLazy: (id) => LAZY.has(id),
};
const plan = planSharedChunks(graph, {
  app: 'main',
  landing: 'landing',
  keepApart: /maplibre/,
  customerPages: /^(landing|login)$/,
});

describe('planSharedChunks', () => {
  it.each([
    ['api', 'shared', 'the sign-in page and the screens import it'],
    ['query', 'shared', 'the sign-in page and the screens import it through the API layer'],
    ['ui', 'screens', 'only staff screens import it: a customer’s page does not load it'],
    ['format', 'landing-shared', 'the landing page and a screen import it: the landing page loads it first'],
    ['react', undefined, 'the app imports it: the app has its own chunk'],
    ['session', undefined, 'only the app imports it'],
    ['maplibre', undefined, 'kept apart: only the screens with a map load it'],
    ['ordersTable', undefined, 'one screen imports it: it stays with that screen'],
    ['landingHero', undefined, 'only the landing page imports it'],
    ['orders', undefined, 'a screen is nobody’s import'],
  ])('%s → %s (%s)', (id, chunk, _why) => {
    expect(plan.get(id)).toBe(chunk);
  });

  it('leaves everything to the bundler when there is no app or landing page and nothing is shared', () => {
    const lone: ModuleGraph = { ids: ['a', 'b'], imports: () => [], isLazy: () => true };
    expect(planSharedChunks(lone, { app: 'x', landing: 'y', keepApart: /z/, customerPages: /a/ }).size).toBe(
      0,
    );
  });
});
