import { config } from 'zod';

/**
 * Zod compiles object parsers with `new Function` when it may; to find out, it tries one on its first
 * parse. The app's Content-Security-Policy (server/app.ts) forbids eval, so that try was reported as a
 * CSP violation on every page that checks a form or an answer (issue 27, item 19): parse without the
 * compiled fast path instead, which needs no eval. Imported first by the entry, before any schema parses.
 */
config({ jitless: true });
