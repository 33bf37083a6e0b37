import { api } from './browser';

export interface Account {
  email: string;
  password: string;
}

export interface SeededBusiness {
  suffix: string;
  adminToken: string;
  accounts: { OPS: Account; DRIVER: Account; FUEL: Account; CUSTOMER: Account };
  trucks: Array<{ id: string; plate: string; deviceId: string }>;
  drivers: Array<{ id: string; name: string }>;
  orders: { unpaid: number; submitted: number; scheduled: number; delivered: number };
  sites: { unpaid: string; submitted: string; scheduled: string; delivered: string };
}

/** Sends one OsmAnd position, as a driver's phone does (speed in knots, timestamp in epoch seconds). */
export async function reportPosition(
  baseURL: string,
  fix: { deviceId: string; lat: number; lng: number; kmh: number; at: Date },
) {
  const params = new URLSearchParams({
    id: fix.deviceId,
    lat: fix.lat.toFixed(6),
    lon: fix.lng.toFixed(6),
    timestamp: String(Math.floor(fix.at.getTime() / 1000)),
    speed: (fix.kmh / 1.852).toFixed(1),
  });
  const res = await fetch(`${baseURL}/api/telemetry/osmand?${params}`, { method: 'POST' });
  if (!res.ok) throw new Error(`telemetry ${fix.deviceId}: ${res.status} ${await res.text()}`);
}

/**
 * A working week of the business, built through the public API with the long names, e-mails and sites
 * real customers type: orders in every state, loads, costs with cents and a loss-making truck, a confirmed
 * duplicate cost and fuel log, stock, positions around Kitengela (one fresh, one stale, two on the same
 * spot), and one staff account per role.
 */
export async function seedBusiness(baseURL: string, admin: Account): Promise<SeededBusiness> {
  const suffix = Date.now().toString(36).slice(-5).toUpperCase();
  const { token } = await api<{ token: string }>(baseURL, 'POST', '/api/auth/login', admin);
  const as = <T>(method: string, path: string, body?: unknown, who = token) =>
    api<T>(baseURL, method, path, body, who);

  const drivers = [
    { id: `WD1-${suffix}`, name: 'Wanjiku Muthoni-Kariuki' },
    { id: `WD2-${suffix}`, name: 'Kiprotich Arap Langat' },
  ];
  for (const d of drivers) {
    await as('POST', '/api/admin/drivers', {
      ...d,
      email: `${d.name.toLowerCase().replace(/[^a-z]+/g, '.')}@mchanga-logistics.co.ke`,
      phone: '0722 333 444',
    });
  }
  const trucks = [
    { id: `WT1-${suffix}`, plate: `KDH ${suffix.slice(0, 3)}Q`, deviceId: `walk-1-${suffix}` },
    { id: `WT2-${suffix}`, plate: `KCY ${suffix.slice(0, 3)}M`, deviceId: `walk-2-${suffix}` },
    { id: `WT3-${suffix}`, plate: `KDA ${suffix.slice(0, 3)}T`, deviceId: `walk-3-${suffix}` },
  ];
  for (const [i, t] of trucks.entries()) {
    await as('POST', '/api/admin/trucks', {
      ...t,
      capacityT: 20,
      primaryDriverId: i < drivers.length ? drivers[i]!.id : null,
    });
  }
  await as('POST', '/api/admin/stock/receipt', {
    truckId: trucks[0]!.id,
    trucks: 6,
    category: 'coarse',
    costPerTonne: 450,
    description: 'Yard receipt',
  });

  const pw = 'walk-pass-123';
  const accounts = {
    OPS: { email: `ops.walk-${suffix}@mchanga.co.ke`, password: pw },
    DRIVER: { email: `driver.walk-${suffix}@mchanga.co.ke`, password: pw },
    FUEL: { email: `fuel.walk-${suffix}@mchanga.co.ke`, password: pw },
    CUSTOMER: {
      email: `procurement.department-${suffix.toLowerCase()}@thika-greens-builders.co.ke`,
      password: pw,
    },
  };
  await as('POST', '/api/admin/users', { name: 'Otieno Ops', ...accounts.OPS, role: 'OPS' });
  await as('POST', '/api/admin/users', {
    name: drivers[0]!.name,
    ...accounts.DRIVER,
    role: 'DRIVER',
    driverId: drivers[0]!.id,
  });
  await as('POST', '/api/admin/users', { name: 'Njeri Pump', ...accounts.FUEL, role: 'FUEL' });
  const customer = await api<{ token: string }>(baseURL, 'POST', '/api/auth/register', {
    name: 'Thika Greens Builders Cooperative',
    ...accounts.CUSTOMER,
    phone: '0711 222 333',
  });

  const sites = {
    unpaid: `Plot 1192, Membley Estate off the Eastern Bypass, Ruiru (${suffix})`,
    submitted: `Kamakis Corner, Ruiru (${suffix})`,
    scheduled: `Juja Farm phase 2, near the water tower (${suffix})`,
    delivered: `Thika Road Mall service lane (${suffix})`,
  };
  const order = (site: string, trucksOrdered: number) =>
    api<{ id: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site, sandType: 'coarse', trucks: trucksOrdered, distanceKm: 18.5 },
      customer.token,
    );
  const pay = (id: number) =>
    api(
      baseURL,
      'POST',
      `/api/orders/${id}/payment`,
      { method: 'Equity', reference: `EQ${suffix}${id}`, message: 'Paid from the site account' },
      customer.token,
    );
  const unpaid = await order(sites.unpaid, 3);
  const submitted = await order(sites.submitted, 2);
  await pay(submitted.id);
  const scheduled = await order(sites.scheduled, 3);
  await pay(scheduled.id);
  await as('POST', `/api/admin/orders/${scheduled.id}/payment-review`, { decision: 'confirm' });
  await as('POST', `/api/admin/orders/${scheduled.id}/assignments`, {
    truckId: trucks[0]!.id,
    driverId: drivers[0]!.id,
    tonnes: 20,
  });
  const moving = await as<{ id: number }>('POST', `/api/admin/orders/${scheduled.id}/assignments`, {
    truckId: trucks[1]!.id,
    driverId: drivers[1]!.id,
    tonnes: 20,
  });
  await as('PATCH', `/api/admin/assignments/${moving.id}`, { status: 'IN_TRANSIT' });
  const delivered = await order(sites.delivered, 1);
  await pay(delivered.id);
  await as('POST', `/api/admin/orders/${delivered.id}/payment-review`, { decision: 'confirm' });
  const load = await as<{ id: number }>('POST', `/api/admin/orders/${delivered.id}/assignments`, {
    truckId: trucks[0]!.id,
    driverId: drivers[0]!.id,
  });
  await as('PATCH', `/api/admin/assignments/${load.id}`, {
    status: 'DELIVERED',
    reason: 'Delivery note signed on paper',
  });

  const cost = (truckId: string, type: string, amount: number, description: string, extra = {}) =>
    as<{ id: number }>('POST', '/api/admin/costs', { truckId, type, amount, description, ...extra });
  await cost(trucks[0]!.id, 'REPAIR', 8500.5, 'Front brake pads and labour at the Juja garage');
  // A salary far above the truck's revenue: its gross profit is a loss.
  await cost(trucks[1]!.id, 'SALARY', 201_280, 'Driver salary and allowances for November');
  const first = await cost(trucks[2]!.id, 'LOADING', 1500, 'Loading crew, Juja yard');
  await cost(trucks[2]!.id, 'LOADING', 1500, 'Loading crew, Juja yard', {
    overrideDuplicate: true,
    duplicateOf: first.id,
  });

  const fuel = (odometer: number, litres: number, extra = {}) =>
    as<{ id: number }>('POST', '/api/fuel/logs', {
      truckId: trucks[0]!.id,
      litres,
      odometer,
      cost: litres * 182.5,
      note: 'Shell Juja, pump 4',
      ...extra,
    });
  await fuel(60_050, 80);
  const second = await fuel(60_500, 60);
  await fuel(60_500, 20, { overrideDuplicate: true, duplicateOf: second.id });

  const now = Date.now();
  await reportPosition(baseURL, {
    deviceId: trucks[0]!.deviceId,
    lat: -1.4733,
    lng: 36.959,
    kmh: 46.3,
    at: new Date(now),
  });
  await reportPosition(baseURL, {
    deviceId: trucks[1]!.deviceId,
    lat: -1.456,
    lng: 36.978,
    kmh: 46.3,
    at: new Date(now - 31 * 60_000),
  });
  await reportPosition(baseURL, {
    deviceId: trucks[2]!.deviceId,
    lat: -1.4734,
    lng: 36.9591,
    kmh: 0,
    at: new Date(now),
  });

  // The AI tab's text is written from these figures too (money and plurals included).
  await as('POST', '/api/admin/ai/insights/refresh');

  return {
    suffix,
    adminToken: token,
    accounts,
    trucks,
    drivers,
    orders: { unpaid: unpaid.id, submitted: submitted.id, scheduled: scheduled.id, delivered: delivered.id },
    sites,
  };
}
