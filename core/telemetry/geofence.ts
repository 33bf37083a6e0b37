import type { DbOrTx } from '../../drizzle/db';
import { isRowError } from '../../drizzle/errors';
import {
  EMPTY_FENCE_STATE,
  type Fence,
  type FenceState,
  type GeoFix,
  runFence,
  SITE_STOP_MS,
  type StopState,
  sameFence,
  sideOf,
  siteRadiusFor,
  stepStop,
  stopMs,
  tickFence,
} from '../../shared/domain/geofence';
import { localDate } from '../../shared/domain/time';
import type { OpenLoadStatus } from '../../shared/enums';
import type { JobPayload } from '../../shared/jobs';
import type { Settings } from '../../shared/settings';
import type { JobContext } from '../jobs/context';
import { applyLoadMove, lockLoads, siteFromDriver } from '../loads/loads.service';
import * as q from './geofence.queries';
import { rollUpTrips } from './trip-km';

type Payload = JobPayload<'telemetry.ingest'>;
type Position = Payload['positions'][number];
type Ctx = Pick<JobContext, 'db' | 'now' | 'settings'> & Partial<Pick<JobContext, 'log'>>;

type Kind = q.EventRow['kind'];

/** A fence watched between batches: where it is (a changed fence starts afresh) and the truck's side of it. */
interface FenceEntry {
  fence: Fence;
  state: FenceState;
}
interface SiteEntry extends FenceEntry {
  orderId: number;
  assignmentId: number;
}
interface StopEntry {
  orderId: number;
  stop: StopState | null;
}

export interface OpenLoad {
  id: number;
  orderId: number;
  status: OpenLoadStatus;
  scheduledAt: Date | null;
  inTransitAt: Date | null;
  site: Fence | null;
}

export interface TruckInput {
  truckId: string;
  /** The batch's fixes of this truck. */
  fixes: GeoFix[];
  /** When the truck reported without a fix (a heartbeat), if it did. */
  tickAt: number | null;
  /** Saved fence states by key: 'yard', 'site:<orderId>', 'stop'. */
  saved: Map<string, unknown>;
  loads: OpenLoad[];
}

export interface PlannedEvent {
  kind: Kind;
  at: number;
  confirmedAt: number;
  lat: number;
  lng: number;
  orderId: number | null;
  assignmentId: number | null;
}

export interface PlannedMove {
  assignmentId: number;
  orderId: number;
  to: 'IN_TRANSIT' | 'ARRIVED';
  /** The crossing that makes it (an index into `events`). */
  event: number;
}

export interface TruckPlan {
  save: Array<{ fence: string; state: unknown }>;
  drop: string[];
  events: PlannedEvent[];
  moves: PlannedMove[];
  /** A site point from the driver's stop where the order had none. */
  site: { orderId: number; lat: number; lng: number; radiusM: number } | null;
}

const asFenceEntry = (v: unknown): FenceEntry | null => {
  const e = v as Partial<FenceEntry> | null;
  return e && typeof e === 'object' && e.fence && e.state ? (e as FenceEntry) : null;
};

/** The saved side of a fence, or a fresh start when the fence moved (a refined site, a new yard setting). */
function entryFor(saved: unknown, fence: Fence): FenceEntry {
  const e = asFenceEntry(saved);
  return e && sameFence(e.fence, fence) ? e : { fence, state: EMPTY_FENCE_STATE };
}

function watch(entry: FenceEntry, fixes: GeoFix[], tickAt: number | null) {
  const run = runFence(entry.fence, entry.state, fixes);
  let state = run.state;
  const crossings = [...run.crossings];
  if (tickAt !== null) {
    const t = tickFence(state, tickAt);
    state = t.state;
    if (t.crossing) crossings.push(t.crossing);
  }
  return { state, crossings };
}

const byTime = (a: OpenLoad, b: OpenLoad) =>
  (a.scheduledAt?.getTime() ?? Number.POSITIVE_INFINITY) -
    (b.scheduledAt?.getTime() ?? Number.POSITIVE_INFINITY) || a.id - b.id;

/**
 * What one truck's fixes mean, without touching the database: the crossings of the yard's fence and of
 * its loads' sites (and of a site it is still inside), the loads they move — leaving the yard puts the
 * next scheduled load of the day on the road (unless one already is), entering a site marks that order's
 * load arrived — and, where an order's site has no point, the driver's first long stop away from the yard
 * becomes it.
 */
export function planTruck(input: TruckInput, yard: Fence, siteRadiusM: number): TruckPlan {
  const plan: TruckPlan = { save: [], drop: [], events: [], moves: [], site: null };
  const keep = (fence: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before ?? null) !== JSON.stringify(after)) plan.save.push({ fence, state: after });
  };
  const crossingsOf = (
    kinds: { inside: Kind; outside: Kind },
    entry: FenceEntry,
    orderId: number | null,
    assignmentId: number | null,
  ) => {
    const w = watch(entry, input.fixes, input.tickAt);
    for (const c of w.crossings)
      plan.events.push({
        kind: kinds[c.side],
        at: c.at,
        confirmedAt: c.confirmedAt,
        lat: c.lat,
        lng: c.lng,
        orderId,
        assignmentId,
      });
    return w.state;
  };

  // The yard.
  const yardBefore = input.saved.get('yard');
  const yardEntry = entryFor(yardBefore, yard);
  const yardState = crossingsOf({ inside: 'YARD_ENTRY', outside: 'YARD_EXIT' }, yardEntry, null, null);
  keep('yard', yardBefore, { fence: yard, state: yardState });

  // The sites of its open loads (one load per order: the one on the road, else the next scheduled).
  const rank = { ARRIVED: 0, IN_TRANSIT: 1, SCHEDULED: 2 } as const;
  const siteLoads = new Map<number, OpenLoad>();
  for (const l of [...input.loads].sort((a, b) => rank[a.status] - rank[b.status] || byTime(a, b)))
    if (l.site && !siteLoads.has(l.orderId)) siteLoads.set(l.orderId, l);
  const watched = new Set<string>();
  for (const [orderId, load] of siteLoads) {
    const key = `site:${orderId}`;
    watched.add(key);
    const before = input.saved.get(key);
    const entry = entryFor(before, load.site!);
    const state = crossingsOf({ inside: 'SITE_ENTRY', outside: 'SITE_EXIT' }, entry, orderId, load.id);
    keep(key, before, { fence: entry.fence, state, orderId, assignmentId: load.id } satisfies SiteEntry);
  }
  // A site it was at (or half-way out of) whose load is done: watched until it has left.
  for (const [key, before] of input.saved) {
    if (!key.startsWith('site:') || watched.has(key)) continue;
    const entry = before as SiteEntry;
    if (!asFenceEntry(entry) || (entry.state.side !== 'inside' && !entry.state.pending)) {
      plan.drop.push(key);
      continue;
    }
    const state = crossingsOf(
      { inside: 'SITE_ENTRY', outside: 'SITE_EXIT' },
      entry,
      entry.orderId,
      entry.assignmentId,
    );
    if (state.side === 'outside' && !state.pending) plan.drop.push(key);
    else keep(key, before, { ...entry, state });
  }

  // A load on the road to a site nobody has placed: its first stop of SITE_STOP_MS away from the yard.
  const unplaced = input.loads.filter((l) => l.status === 'IN_TRANSIT' && !l.site).sort(byTime)[0];
  const stopBefore = input.saved.get('stop') as StopEntry | undefined;
  if (!unplaced) {
    if (stopBefore) plan.drop.push('stop');
  } else {
    let stop = stopBefore?.orderId === unplaced.orderId ? stopBefore.stop : null;
    let placed = false;
    for (const fix of input.fixes) {
      stop = stepStop(stop, fix);
      if (stop && stopMs(stop) >= SITE_STOP_MS && sideOf(yard, { ...stop, at: stop.lastAt }) === 'outside') {
        placed = true;
        break;
      }
    }
    if (placed && stop) {
      const radiusM = siteRadiusFor('driver', siteRadiusM);
      plan.site = { orderId: unplaced.orderId, lat: stop.lat, lng: stop.lng, radiusM };
      plan.events.push({
        kind: 'SITE_ENTRY',
        at: stop.since,
        confirmedAt: stop.lastAt,
        lat: stop.lat,
        lng: stop.lng,
        orderId: unplaced.orderId,
        assignmentId: unplaced.id,
      });
      const fence = { lat: stop.lat, lng: stop.lng, radiusM };
      const inside: FenceState = { side: 'inside', pending: null, lastAt: stop.lastAt };
      plan.save.push({
        fence: `site:${unplaced.orderId}`,
        state: {
          fence,
          state: inside,
          orderId: unplaced.orderId,
          assignmentId: unplaced.id,
        } satisfies SiteEntry,
      });
      plan.drop.push('stop');
    } else keep('stop', stopBefore, { orderId: unplaced.orderId, stop } satisfies StopEntry);
  }

  // The loads the crossings move, in the order they happened.
  plan.events.sort((a, b) => a.at - b.at);
  const status = new Map(input.loads.map((l) => [l.id, l.status as string]));
  let lastSiteExit: PlannedEvent | null = null;
  for (const [i, e] of plan.events.entries()) {
    if (e.kind === 'YARD_EXIT') {
      const onRoad = input.loads.some((l) => status.get(l.id) === 'IN_TRANSIT');
      const day = localDate(new Date(e.at));
      const next = input.loads
        .filter(
          (l) => status.get(l.id) === 'SCHEDULED' && (!l.scheduledAt || localDate(l.scheduledAt) <= day),
        )
        .sort(byTime)[0];
      if (!onRoad && next) {
        plan.moves.push({ assignmentId: next.id, orderId: next.orderId, to: 'IN_TRANSIT', event: i });
        status.set(next.id, 'IN_TRANSIT');
      }
      const carried = next && !onRoad ? next : input.loads.find((l) => status.get(l.id) === 'IN_TRANSIT');
      if (carried) Object.assign(e, { assignmentId: carried.id, orderId: carried.orderId });
    } else if (e.kind === 'SITE_ENTRY' && e.orderId !== null) {
      const load = input.loads
        .filter((l) => l.orderId === e.orderId && ['IN_TRANSIT', 'SCHEDULED'].includes(status.get(l.id)!))
        .sort(
          (a, b) =>
            rank[status.get(a.id) as OpenLoad['status']] - rank[status.get(b.id) as OpenLoad['status']] ||
            byTime(a, b),
        )[0];
      if (load) {
        plan.moves.push({ assignmentId: load.id, orderId: load.orderId, to: 'ARRIVED', event: i });
        status.set(load.id, 'ARRIVED');
        e.assignmentId = load.id;
      }
    } else if (e.kind === 'SITE_EXIT') lastSiteExit = e;
    else if (e.kind === 'YARD_ENTRY' && lastSiteExit)
      Object.assign(e, { assignmentId: lastSiteExit.assignmentId, orderId: lastSiteExit.orderId });
  }
  return plan;
}

const REASONS = { IN_TRANSIT: 'The truck left the yard', ARRIVED: 'The truck entered the site' } as const;

const toDate = (v: string | Date | null) => (v === null ? null : new Date(v));

function inputsOf(
  positions: Position[],
  heartbeats: Array<{ truckId: string }>,
  receivedAt: string,
): Map<string, Pick<TruckInput, 'fixes' | 'tickAt'>> {
  const trucks = new Map<string, Pick<TruckInput, 'fixes' | 'tickAt'>>();
  const of = (id: string) => {
    const t = trucks.get(id) ?? { fixes: [], tickAt: null };
    trucks.set(id, t);
    return t;
  };
  for (const p of positions) {
    const at = Date.parse(p.fixTime);
    if (!Number.isFinite(at)) continue;
    of(p.truckId).fixes.push({ lat: p.lat, lng: p.lng, at, accuracyM: p.accuracy, speedKmh: p.speedKmh });
  }
  const tick = Date.parse(receivedAt);
  for (const h of heartbeats) if (Number.isFinite(tick)) of(h.truckId).tickAt = tick;
  for (const t of trucks.values()) t.fixes.sort((a, b) => a.at - b.at);
  return trucks;
}

/**
 * The geofence step of a telemetry.ingest job: the batch's fixes (and heartbeats, which confirm a crossing
 * begun a minute before) against the yard and the sites, the crossings recorded in geofence_events, and
 * the loads they move (SCHEDULED → IN_TRANSIT on leaving the yard, → ARRIVED on entering the site) with
 * their orders. One transaction, trucks serialised: a re-run job finds its fixes already looked at and
 * records nothing twice. Rows the database refuses are logged and skipped, never failing the job (the
 * positions are stored already).
 */
export async function applyGeofences(
  ctx: Ctx,
  positions: Position[],
  heartbeats: Array<{ truckId: string }>,
  receivedAt: string,
) {
  const inputs = inputsOf(positions, heartbeats, receivedAt);
  if (inputs.size === 0) return { events: 0, moves: 0 };
  try {
    return await ctx.db.transaction((tx) => geofenceTx(tx, ctx.settings, inputs, ctx.now()));
  } catch (err) {
    if (!isRowError(err)) throw err;
    ctx.log?.warn({ err }, 'geofence step skipped for a batch the database refused');
    return { events: 0, moves: 0 };
  }
}

async function geofenceTx(
  tx: DbOrTx,
  settings: Pick<Settings, 'yard' | 'tracking' | 'alerts' | 'trips'>,
  inputs: Map<string, Pick<TruckInput, 'fixes' | 'tickAt'>>,
  now: Date,
) {
  const truckIds = await q.lockTrucks(tx, [...inputs.keys()]);
  if (truckIds.length === 0) return { events: 0, moves: 0 };
  const [saved, open] = [await q.states(tx, truckIds), await q.openLoads(tx, truckIds)];
  const yard: Fence = { lat: settings.yard.lat, lng: settings.yard.lng, radiusM: settings.yard.radiusM };

  const save: Array<{ truck_id: string; fence: string; state: unknown }> = [];
  const drop: Array<{ truck_id: string; fence: string }> = [];
  const events: q.EventRow[] = [];
  const moves: Array<PlannedMove & { truckId: string; at: number; key: string }> = [];
  const sites: NonNullable<TruckPlan['site']>[] = [];
  for (const truckId of truckIds) {
    const { fixes, tickAt } = inputs.get(truckId)!;
    const states = new Map(saved.filter((s) => s.truck_id === truckId).map((s) => [s.fence, s.state]));
    // Nothing to confirm and nothing new: a heartbeat of a truck with no crossing under way.
    if (fixes.length === 0 && ![...states.values()].some((s) => asFenceEntry(s)?.state.pending)) continue;
    const loads: OpenLoad[] = open
      .filter((l) => l.truck_id === truckId)
      .map((l) => ({
        id: l.id,
        orderId: l.order_id,
        status: l.status,
        scheduledAt: toDate(l.scheduled_at),
        inTransitAt: toDate(l.in_transit_at),
        site:
          l.site_lat !== null && l.site_lng !== null && l.site_radius_m !== null
            ? { lat: l.site_lat, lng: l.site_lng, radiusM: l.site_radius_m }
            : null,
      }));
    const plan = planTruck(
      { truckId, fixes, tickAt, saved: states, loads },
      yard,
      settings.tracking.siteRadiusM,
    );
    for (const s of plan.save) save.push({ truck_id: truckId, fence: s.fence, state: s.state });
    for (const fence of plan.drop)
      if (!plan.save.some((s) => s.fence === fence)) drop.push({ truck_id: truckId, fence });
    if (plan.site) sites.push(plan.site);
    for (const m of plan.moves) {
      const e = plan.events[m.event]!;
      moves.push({ ...m, truckId, at: e.at, key: `${truckId}\n${e.kind}\n${new Date(e.at).toISOString()}` });
    }
    for (const e of plan.events)
      events.push({
        truck_id: truckId,
        kind: e.kind,
        order_id: e.orderId,
        assignment_id: e.assignmentId,
        at: new Date(e.at).toISOString(),
        confirmed_at: new Date(e.confirmedAt).toISOString(),
        lat: e.lat,
        lng: e.lng,
      });
  }

  await q.saveStates(tx, save, now);
  await q.dropStates(tx, drop);
  for (const site of sites) await siteFromDriver(tx, site.orderId, site, settings, now);
  // Orders, then loads, in id order (as every writer of a load locks them), before the events' foreign keys
  // take their own share of those rows.
  const locked = await lockLoads(tx, [...new Set(moves.map((m) => m.assignmentId))]);
  const written = events.length > 0 ? await q.insertEvents(tx, events) : [];
  const eventIds = new Map(
    written.map((w) => [`${w.truck_id}\n${w.kind}\n${new Date(w.at).toISOString()}`, w.id]),
  );

  // Each move through the one load-move path (alerts, history, order status as by hand), in time order.
  let moved = 0;
  for (const m of moves.sort((a, b) => a.at - b.at)) {
    const eventId = eventIds.get(m.key);
    const load = locked.get(m.assignmentId);
    // A crossing recorded before (a re-run) moved its load then; a load moved meanwhile by hand stays.
    if (eventId === undefined || !load) continue;
    const verdict = await applyLoadMove(
      tx,
      load,
      {
        to: m.to,
        actor: 'geofence',
        at: new Date(m.at),
        source: 'geofence',
        byUserId: null,
        reason: REASONS[m.to],
        geofenceEventId: eventId,
      },
      now,
      settings,
    );
    if (verdict === 'ok') moved += 1;
  }
  // The trips whose yard exit or entry was just recorded: their km rolled up (trip views read only that).
  await rollUpTrips(
    tx,
    written.flatMap((w) =>
      (w.kind === 'YARD_EXIT' || w.kind === 'YARD_ENTRY') && w.assignment_id !== null
        ? [Number(w.assignment_id)]
        : [],
    ),
  );
  return { events: written.length, moves: moved };
}
