import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costs } from '../../../drizzle/schema';
import { makeCost, makeFuelLog, makeTruck } from '../../../test/factories';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';

let t: TestApp;
const now = new Date('2026-11-20T09:00:00Z'); // Friday 12:00 in Nairobi

beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(() => t.close());

/** A confirmed duplicate cost and a confirmed duplicate fuel log (with its linked cost) on one truck. */
async function flaggedPair(by: { cost: SignedIn; fuel: SignedIn }) {
  const db = t.database.db;
  const truck = await makeTruck(db);
  const firstCost = await makeCost(db, { truckId: truck.id, amountCents: 450_050, incurredAt: now });
  await makeCost(db, {
    truckId: truck.id,
    amountCents: 450_050,
    incurredAt: now,
    description: 'Clutch again',
    isDuplicate: true,
    duplicateOf: firstCost.id,
    createdById: by.cost.user.id,
    confirmedById: by.cost.user.id,
    confirmedAt: now,
  });
  const firstLog = await makeFuelLog(db, {
    truckId: truck.id,
    litres: 80,
    odometer: 10_000,
    costCents: 1_400_000,
    capturedAt: new Date(now.getTime() - 48 * 3600_000),
  });
  const linked = await makeCost(db, {
    truckId: truck.id,
    type: 'FUEL',
    source: 'FUEL',
    amountCents: 200_000,
    incurredAt: now,
    isDuplicate: true,
  });
  await makeFuelLog(db, {
    truckId: truck.id,
    litres: 10,
    odometer: 10_000,
    costCents: 200_000,
    capturedAt: now,
    costId: linked.id,
    isDuplicate: true,
    duplicateOf: firstLog.id,
    createdById: by.fuel.user.id,
    confirmedById: by.fuel.user.id,
    confirmedAt: now,
  });
  return truck;
}

describe('duplicate audit', () => {
  it('lists, reviews and voids duplicates with who and when; voids leave every total, with the fuel cascade', async () => {
    const admin = await t.signIn('ADMIN');
    const fuel = await t.signIn('FUEL');
    const truck = await flaggedPair({ cost: await t.signIn('OPS'), fuel });
    const audit = (query: string) =>
      t.call('GET', `/api/admin/audit/duplicates?truckId=${truck.id}&${query}`, admin);

    const list = await audit('limit=400');
    expect(list.statusCode).toBe(200);
    const records = list.json();
    expect(records.map((r: { entity: string }) => r.entity).sort()).toEqual(['COST', 'FUEL']);
    const fuelRecord = records.find((r: { entity: string }) => r.entity === 'FUEL');
    expect(fuelRecord).toMatchObject({
      status: 'pending',
      type: 'FUEL',
      truckPlate: truck.plate,
      litres: 10,
      cost: 2000,
      createdByName: fuel.user.name,
      confirmedByName: fuel.user.name,
      linkedCostId: expect.any(Number),
    });
    expect((await audit('entity=cost')).json()).toHaveLength(1);
    expect((await audit('status=voided')).json()).toHaveLength(0);
    expect((await audit('from=2030-01-01')).json()).toHaveLength(0);

    const costRecord = records.find((r: { entity: string }) => r.entity === 'COST');
    const reviewed = await t.call('POST', `/api/admin/audit/duplicates/cost/${costRecord.id}/review`, admin, {
      note: 'Two clutches, both real',
    });
    expect(reviewed.statusCode).toBe(200);
    const afterReview = (await audit('status=reviewed')).json();
    expect(afterReview[0]).toMatchObject({
      id: costRecord.id,
      reviewNote: 'Two clutches, both real',
      reviewedByName: admin.user.name,
      reviewedAt: now.toISOString(),
    });

    const summary = async () =>
      (await t.call('GET', '/api/admin/finance/summary?from=2026-11-01&to=2026-11-30', admin)).json();
    const before = await summary();
    const noReason = await t.call('POST', `/api/admin/audit/duplicates/fuel/${fuelRecord.id}/void`, admin, {
      reason: '',
    });
    expect(noReason.json()).toEqual({ error: 'Provide a reason before voiding the duplicate record.' });
    const voided = await t.call('POST', `/api/admin/audit/duplicates/fuel/${fuelRecord.id}/void`, admin, {
      reason: 'Entered twice',
      cascadeCost: true,
    });
    expect(voided.statusCode).toBe(200);
    const [linked] = await t.database.db.select().from(costs).where(eq(costs.id, fuelRecord.linkedCostId));
    expect(linked?.voidedAt).not.toBeNull();
    const after = await summary();
    expect(before.costTotal - after.costTotal).toBe(2000);
    expect(
      (
        await t.call('POST', `/api/admin/audit/duplicates/fuel/${fuelRecord.id}/void`, admin, {
          reason: 'again',
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await t.call('POST', `/api/admin/audit/duplicates/fuel/${fuelRecord.id}/review`, admin, {}))
        .statusCode,
    ).toBe(409);
  });

  it('answers 404 for a record that is not flagged, and only to ADMIN', async () => {
    const admin = await t.signIn('ADMIN');
    expect(
      (await t.call('POST', '/api/admin/audit/duplicates/cost/999999/review', admin, {})).statusCode,
    ).toBe(404);
    expect((await t.call('GET', '/api/admin/audit/duplicates', await t.signIn('OPS'))).statusCode).toBe(403);
  });
});
