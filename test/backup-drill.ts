import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { uploadStore } from '../core/uploads/storage';
import { type DbOrTx, rows } from '../drizzle/db';
import type { Settings } from '../shared/settings';
import {
  makeAssignment,
  makeCost,
  makeDriver,
  makeFuelLog,
  makeOrder,
  makePayment,
  makeStock,
  makeTruck,
} from './factories';

/**
 * Every table of the database (the app's and drizzle's migration record) with its row count and an MD5 of
 * its rows in a fixed order: two databases with equal answers hold the same data.
 */
export async function tableChecksums(db: DbOrTx): Promise<Record<string, { rows: number; md5: string }>> {
  const tables = await rows<{ schema: string; name: string }>(
    db,
    sql`select table_schema as schema, table_name as name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by 1, 2`,
  );
  const out: Record<string, { rows: number; md5: string }> = {};
  for (const t of tables) {
    const id = sql.raw(`"${t.schema}"."${t.name}"`);
    const [r] = await rows<{ n: number; md5: string }>(
      db,
      sql`select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as md5
          from ${id} x`,
    );
    out[`${t.schema}.${t.name}`] = { rows: r!.n, md5: r!.md5 };
  }
  return out;
}

/** A small business: drivers, trucks, orders with loads and payments, costs, fuel with a photo, stock. */
export async function seedBusiness(db: DbOrTx, settings: Pick<Settings, 'dataDir' | 'uploadStorage'>) {
  const photos: Record<string, Buffer> = {};
  const store = uploadStore(db, settings);
  for (let i = 1; i <= 3; i++) {
    const name = `fuel-photo-${randomBytes(16).toString('hex')}.jpg`;
    photos[name] = randomBytes(2048 + i);
    await store.put(name, photos[name]!, 'image/jpeg');
  }
  const driver = await makeDriver(db, { name: 'Wanjiru Kamau', phone: '0712000111' });
  await makeStock(db, { tonnes: 200 });
  for (let i = 0; i < 3; i++) {
    const truck = await makeTruck(db, { primaryDriverId: driver.id });
    const order = await makeOrder(db, { trucks: 1 });
    await makeAssignment(db, { orderId: order.id, truckId: truck.id });
    await makePayment(db, { orderId: order.id });
    await makeCost(db, { truckId: truck.id, description: `Tyres ${i}` });
    await makeFuelLog(db, {
      truckId: truck.id,
      capturedAt: new Date(Date.UTC(2026, 10, 20 + i)),
      photoPath: Object.keys(photos)[i],
    });
  }
  return photos;
}
