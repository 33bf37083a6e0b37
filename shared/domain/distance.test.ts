import { describe, expect, it } from 'vitest';
import { findPlace, haversineKm, normalisePlaceText, roadDistanceKm } from './distance';
import { PLACES } from './gazetteer';

const JUJA_YARD = { lat: -1.099, lng: 37.014 };

describe('findPlace', () => {
  it.each([
    ['Plot 12, Membley estate, Ruiru', 'Membley'],
    ['ruiru bypass near Kamakis', 'Kamakis'],
    ['Juja Farm, behind the shopping centre', 'Juja Farm'],
    ['JUJA', 'Juja'],
    ["Murang'a town", "Murang'a"],
    ['Muranga', "Murang'a"],
    ['Kahawa West, near the market', 'Kahawa West'],
    ['Ongata Rongai, Tumaini', 'Rongai'],
    ['site at Nyali, Mombasa', 'Mombasa'],
    ['Thika Landless phase 2', 'Landless'],
  ])('%s → %s', (text, name) => expect(findPlace(text)?.name).toBe(name));

  it.each(['', 'somewhere out there', 'plot 4 kamakaziland'])('finds nothing in %j', (text) =>
    expect(findPlace(text)).toBeUndefined(),
  );

  it('does not match inside longer words', () => {
    expect(normalisePlaceText('Kikuyu-Road')).toBe(' kikuyu road ');
    expect(findPlace('Thikaville')).toBeUndefined();
  });
});

describe('distances from the Juja yard', () => {
  it('puts Ruiru near and Mombasa far', () => {
    const ruiru = roadDistanceKm(JUJA_YARD, findPlace('Ruiru')!);
    const thika = roadDistanceKm(JUJA_YARD, findPlace('Thika')!);
    const nairobi = roadDistanceKm(JUJA_YARD, findPlace('Nairobi CBD')!);
    const mombasa = roadDistanceKm(JUJA_YARD, findPlace('Mombasa')!);
    expect(ruiru).toBeGreaterThan(5);
    expect(ruiru).toBeLessThan(15);
    expect(thika).toBeLessThan(15);
    expect(nairobi).toBeGreaterThan(25);
    expect(nairobi).toBeLessThan(45);
    expect(mombasa).toBeGreaterThan(500);
  });

  it('haversine is symmetric and zero at the same point', () => {
    const a = { lat: -1.1, lng: 37 };
    const b = { lat: -4, lng: 39.6 };
    expect(haversineKm(a, a)).toBe(0);
    expect(haversineKm(a, b)).toBeCloseTo(haversineKm(b, a), 6);
  });

  it('every gazetteer entry lies inside Kenya', () => {
    for (const p of PLACES) {
      expect(p.lat, p.name).toBeGreaterThan(-4.8);
      expect(p.lat, p.name).toBeLessThan(5.1);
      expect(p.lng, p.name).toBeGreaterThan(33.9);
      expect(p.lng, p.name).toBeLessThan(41.9);
    }
  });
});
