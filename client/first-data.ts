/**
 * Adopts the first data request the HTML started before the app code (shared/first-data.ts): the tRPC
 * client's batch requests go through `adoptingFetch`, which answers the calls the inline script already
 * asked for from its answer and fetches only the rest. Once, for a request with the same token, within
 * FIRST_DATA_MAX_AGE_MS of the page's start; anything else goes to the network as it would have.
 */
import {
  batchUrl,
  FIRST_DATA_MAX_AGE_MS,
  type FirstCall,
  type PrefetchedFirstData,
} from '../shared/first-data';

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

interface FirstDataWindow {
  __mchangaFirstData?: PrefetchedFirstData;
}

/** The calls of a tRPC GET batch URL, or null when it is not one. */
export function parseBatch(url: string): FirstCall[] | null {
  const parsed = new URL(url, 'http://app.invalid');
  const match = /^\/trpc\/([^/]+)$/.exec(parsed.pathname);
  if (!match || parsed.searchParams.get('batch') !== '1') return null;
  const paths = decodeURIComponent(match[1]!).split(',');
  let inputs: Record<string, unknown> = {};
  try {
    inputs = JSON.parse(parsed.searchParams.get('input') ?? '{}') as Record<string, unknown>;
  } catch {
    return null;
  }
  return paths.map((path, i) => (i in inputs ? { path, input: inputs[i] } : { path }));
}

const keyOf = (c: FirstCall) => `${c.path} ${JSON.stringify(c.input ?? null)}`;

function headerOf(init: RequestInit | undefined, name: string): string | null {
  return new Headers(init?.headers).get(name);
}

/** A fetch for httpBatchLink that adopts the HTML's first request (`scope` is `window` in the app). */
export function adoptingFetch(
  base: Fetch = (input, init) => fetch(input, init),
  scope: FirstDataWindow = globalThis as FirstDataWindow,
  now: () => number = () => performance.now(),
): Fetch {
  return async (input, init) => {
    const first = scope.__mchangaFirstData;
    const method = (init?.method ?? 'GET').toUpperCase();
    if (!first || method !== 'GET' || typeof input !== 'string') return base(input, init);
    if (now() - first.startedAt > FIRST_DATA_MAX_AGE_MS) {
      scope.__mchangaFirstData = undefined;
      return base(input, init);
    }
    const calls = parseBatch(input);
    if (!calls || headerOf(init, 'authorization') !== first.authorization) return base(input, init);
    const prefetched = first.calls.map(keyOf);
    const at = calls.map((c) => prefetched.indexOf(keyOf(c)));
    if (at.every((i) => i < 0)) return base(input, init);
    // Adopted once: a later request for the same calls is a refresh and goes to the network.
    scope.__mchangaFirstData = undefined;

    const rest = calls.filter((_, i) => at[i]! < 0);
    const [answers, restAnswers] = await Promise.all([
      first.response,
      rest.length > 0
        ? base(batchUrl(rest), init).then((r) => r.json() as Promise<unknown>)
        : Promise.resolve([] as unknown[]),
    ]);
    // A failed prefetch, or an answer that is not a batch (a refusal before tRPC): ask as usual.
    if (
      !Array.isArray(answers) ||
      answers.length !== first.calls.length ||
      !Array.isArray(restAnswers) ||
      restAnswers.length !== rest.length
    )
      return base(input, init);
    let next = 0;
    const body = calls.map((_, i) => (at[i]! >= 0 ? answers[at[i]!] : restAnswers[next++]));
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

/**
 * The answers of the HTML's first data request that succeeded, each with its call, once it has answered
 * (waiting at most `waitMs`), when it was sent with `authorization`. Taken once: the request is then no
 * longer adopted by `adoptingFetch` (a later call is a refresh and goes to the network).
 */
export async function takeFirstAnswers(
  waitMs: number,
  authorization: string | undefined,
  scope: FirstDataWindow = globalThis as FirstDataWindow,
  now: () => number = () => performance.now(),
): Promise<{ call: FirstCall; data: unknown }[]> {
  const first = scope.__mchangaFirstData;
  if (!first || first.authorization !== authorization || now() - first.startedAt > FIRST_DATA_MAX_AGE_MS)
    return [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answers = await Promise.race([
    first.response,
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (!Array.isArray(answers) || answers.length !== first.calls.length) return [];
  if (scope.__mchangaFirstData === first) scope.__mchangaFirstData = undefined;
  return first.calls.flatMap((call, i) => {
    const result = (answers[i] as { result?: { data?: unknown } } | null)?.result;
    return result && 'data' in result ? [{ call, data: result.data }] : [];
  });
}
