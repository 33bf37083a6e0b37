/** The logging surface server, worker and jobs share (pino's, or console in scripts). */
export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

const SECRET_FIELDS = new Set([
  'query',
  'params',
  'parameters',
  'detail',
  'where',
  'password',
  'passwordHash',
]);

/** "Failed query: <sql>\nparams: <values>" (Drizzle) → the SQL only: values never reach a log line. */
function withoutParams(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=(: )|\n {4}at |\ncaused by|$)/g, '\nparams: [redacted]');
}

/**
 * An error as a log line may carry it: name, code and message of each error in the cause chain, with
 * query parameters, row details and stack frames' embedded parameters removed.
 */
export function serializeError(err: unknown): Record<string, unknown> {
  const chain: Array<Record<string, unknown>> = [];
  for (let e = err, depth = 0; e && depth < 6; depth++) {
    if (typeof e !== 'object') {
      chain.push({ message: String(e) });
      break;
    }
    const o = e as Record<string, unknown> & { message?: unknown; name?: unknown; code?: unknown };
    const entry: Record<string, unknown> = {
      type: (o.constructor as { name?: string } | undefined)?.name ?? o.name,
      message: withoutParams(String(o.message ?? '')),
    };
    if (o.code !== undefined) entry.code = o.code;
    for (const [k, v] of Object.entries(o)) {
      if (!SECRET_FIELDS.has(k) && ['severity', 'routine', 'statusCode'].includes(k)) entry[k] = v;
    }
    chain.push(entry);
    e = o.cause;
  }
  const [head, ...causes] = chain;
  return { ...head, ...(causes.length ? { causes } : {}) };
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/** JSON lines on stdout/stderr (the worker; the server's job runner before its pino logger exists). */
export function jsonLogger(level = 'info'): Logger {
  const min = level === 'silent' ? Number.POSITIVE_INFINITY : Math.max(0, LEVELS.indexOf(level));
  const line = (lvl: string, obj: unknown, msg?: string) => {
    if (LEVELS.indexOf(lvl) < min) return;
    const fields: Record<string, unknown> =
      obj && typeof obj === 'object' ? { ...(obj as Record<string, unknown>) } : { value: obj };
    if (fields.err) fields.err = serializeError(fields.err);
    const text = JSON.stringify({ level: lvl, time: new Date().toISOString(), msg, ...fields });
    (lvl === 'info' ? console.log : console.error)(text);
  };
  return {
    info: (obj, msg) => line('info', obj, msg),
    warn: (obj, msg) => line('warn', obj, msg),
    error: (obj, msg) => line('error', obj, msg),
  };
}

/** Logs one line per kind of failure now and then: the first at once, then a count per window. */
export interface RepeatedLogger {
  (level: 'warn' | 'error', kind: string, fields: Record<string, unknown>, msg: string): void;
  /** Writes the pending counts now (a clean shutdown). */
  flush(): void;
}

/**
 * While a dependency is down every retry fails the same way, many times a second: one structured line per
 * kind of failure (its first occurrence at once), then at most one line per `intervalMs` carrying how
 * many more there were (`repeated`). A storm of identical lines (or raw stacks) hides everything else.
 */
export function repeatedLogger(log: Logger, intervalMs = 30_000): RepeatedLogger {
  const kinds = new Map<
    string,
    {
      suppressed: number;
      last: { level: 'warn' | 'error'; fields: Record<string, unknown>; msg: string };
      timer?: NodeJS.Timeout;
    }
  >();
  const write = (kind: string) => {
    const entry = kinds.get(kind);
    if (!entry) return;
    entry.timer = undefined;
    if (entry.suppressed === 0) {
      kinds.delete(kind);
      return;
    }
    const { level, fields, msg } = entry.last;
    log[level]({ ...fields, kind, repeated: entry.suppressed, windowMs: intervalMs }, msg);
    entry.suppressed = 0;
    entry.timer = setTimeout(() => write(kind), intervalMs);
    entry.timer.unref?.();
  };
  const limited = ((level, kind, fields, msg) => {
    const entry = kinds.get(kind);
    if (entry) {
      entry.suppressed += 1;
      entry.last = { level, fields, msg };
      return;
    }
    log[level]({ ...fields, kind }, msg);
    const timer = setTimeout(() => write(kind), intervalMs);
    timer.unref?.();
    kinds.set(kind, { suppressed: 0, last: { level, fields, msg }, timer });
  }) as RepeatedLogger;
  limited.flush = () => {
    for (const [kind, entry] of kinds) {
      clearTimeout(entry.timer);
      write(kind);
      clearTimeout(kinds.get(kind)?.timer);
      kinds.delete(kind);
    }
  };
  return limited;
}

/** The kind of a failure for repeatedLogger: where it happened and its code (or message). */
export function failureKind(where: string, err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  return `${where}:${String(e?.code ?? e?.message ?? err).slice(0, 80)}`;
}
