import { describe, expect, it } from 'vitest';
import { checkFuelLog, consumptionBand, type FuelCheckInput, median } from './fuel-anomalies';

/** A normal fill: 150 L over 420 GPS km (35.7 L/100 km), odometer 425 km on, truck parked. */
const normal: FuelCheckInput = {
  litres: 150,
  odometer: 10_425,
  previous: { odometer: 10_000 },
  tankCapacityL: 300,
  gpsKm: 420,
  speedKmh: 0,
  history: [35, 36, 34.5, 37, 35.5, 36.2],
};
const kinds = (over: Partial<FuelCheckInput>) => checkFuelLog({ ...normal, ...over }).map((f) => f.kind);

describe('checkFuelLog: one finding per kind', () => {
  it.each([
    ['a normal fill', {}, []],
    ['odometer lower than the previous log', { odometer: 9_990 }, ['ODOMETER_BACKWARDS']],
    ['odometer equal to the previous log', { odometer: 10_000, gpsKm: 10 }, []],
    ['litres above the tank', { litres: 301, gpsKm: 843, odometer: 10_850 }, ['OVER_TANK_CAPACITY']],
    ['litres at the tank', { litres: 300, gpsKm: 843, odometer: 10_850 }, []],
    ['unknown tank capacity', { litres: 900, tankCapacityL: null, gpsKm: 2_520, odometer: 12_520 }, []],
    ['consumption far above the band', { litres: 250 }, ['CONSUMPTION_OUTLIER']],
    ['consumption far below the band', { litres: 100 }, ['CONSUMPTION_OUTLIER']],
    ['consumption with only 4 earlier fills', { litres: 250, history: [35, 36, 34, 37] }, []],
    ['an interval too short to judge', { litres: 250, gpsKm: 15, odometer: 10_015 }, []],
    ['odometer 20% more than GPS', { odometer: 10_504 }, ['ODOMETER_GPS_MISMATCH']],
    ['odometer 20% less than GPS', { odometer: 10_336 }, ['ODOMETER_GPS_MISMATCH']],
    ['odometer 14% more than GPS', { odometer: 10_479 }, []],
    ['no GPS over the interval', { odometer: 10_900, gpsKm: null }, []],
    ['moving at 30 km/h', { speedKmh: 30 }, ['TRUCK_MOVING']],
    ['creeping at 5 km/h', { speedKmh: 5 }, []],
    ['no fix near the capture', { speedKmh: null }, []],
    ['the first log of a truck', { previous: null, history: [] }, []],
  ] as Array<[string, Partial<FuelCheckInput>, string[]]>)('%s → %j', (_name, over, expected) =>
    expect(kinds(over)).toEqual(expected),
  );

  it('finds several at once, each with a readable detail', () => {
    const f = checkFuelLog({ ...normal, odometer: 9_000, litres: 400, speedKmh: 42 });
    expect(f.map((x) => x.kind)).toEqual([
      'ODOMETER_BACKWARDS',
      'OVER_TANK_CAPACITY',
      'CONSUMPTION_OUTLIER',
      'TRUCK_MOVING',
    ]);
    expect(f[0]!.detail).toBe("Odometer 9,000 km is lower than the previous log's 10,000 km.");
    expect(f[1]!.detail).toBe('400 L is more than the 300 L tank holds.');
    expect(f[3]!.detail).toBe('GPS shows the truck moving at 42 km/h when the fill was captured.');
  });
});

describe('consumptionBand', () => {
  it('is median ± 3 MAD from 5 fills', () => {
    expect(median([1, 3, 2, 10])).toBe(2.5);
    expect(consumptionBand([30, 32, 34, 36, 40])).toEqual({ median: 34, low: 28, high: 40 });
    expect(consumptionBand([30, 32, 34, 36])).toBeNull();
  });
  it('is at least ± 5% of the median when the fills are identical', () =>
    expect(consumptionBand([40, 40, 40, 40, 40])).toEqual({ median: 40, low: 38, high: 42 }));
});

describe('a week of normal fills', () => {
  it('raises nothing', () => {
    // Two trucks, two fills a day for 7 days: 300–480 km a day, 34–38 L/100 km, odometer within ±5% of GPS,
    // parked at the pump. Deterministic spread, no randomness.
    const findings: string[] = [];
    for (const truck of [0, 1]) {
      const history: number[] = [];
      let odometer = 50_000 + truck * 7_000;
      for (let fill = 0; fill < 14; fill++) {
        const gpsKm = 150 + ((fill * 37 + truck * 11) % 90);
        const rate = 34 + ((fill * 13 + truck * 7) % 40) / 10;
        const odoKm = Math.round(gpsKm * (1 + (((fill * 7) % 9) - 4) / 100));
        const litres = Math.round(((gpsKm * rate) / 100) * 10) / 10;
        const input: FuelCheckInput = {
          litres,
          odometer: odometer + odoKm,
          previous: { odometer },
          tankCapacityL: 300,
          gpsKm,
          speedKmh: fill % 3 === 0 ? null : (fill % 4) * 1.2,
          history: history.slice(-20),
        };
        findings.push(...checkFuelLog(input).map((f) => `${truck}/${fill}: ${f.kind} ${f.detail}`));
        history.push((litres / gpsKm) * 100);
        odometer += odoKm;
      }
    }
    expect(findings).toEqual([]);
  });
});
