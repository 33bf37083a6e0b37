import { describe, expect, it } from 'vitest';
import { normaliseMsisdn } from './mpesa';
import { normaliseKenyanPhone, phoneLinks, whatsappLink } from './phone';
import { directionsUrl, siteMapUrl } from './place-links';

describe('Kenyan phone numbers', () => {
  it.each([
    ['0712345678', '254712345678', true],
    ['0712 345 678', '254712345678', true],
    ['712345678', '254712345678', true],
    ['+254 712-345-678', '254712345678', true],
    ['254712345678', '254712345678', true],
    ['(0712) 345678', '254712345678', true],
    ['  0722.000.111 ', '254722000111', true],
    ['0110000126', '254110000126', true],
    ['+254110000126', '254110000126', true],
    ['020 765 4321', '254207654321', false],
    ['(041) 222 3344', '254412223344', false],
    ['+254 57 202 1234', '254572021234', false],
    ['0812345678', null, false],
    ['0912345678', null, false],
    ['071234567', null, false],
    ['07123456789', null, false],
    ['+255712345678', null, false],
    ['+1 415 555 0100', null, false],
    ['0712a45678', null, false],
    ['tel:0712345678', null, false],
    ['', null, false],
    [null, null, false],
    [undefined, null, false],
  ])('%j → %s (mobile %s)', (typed, international, mobile) => {
    const phone = normaliseKenyanPhone(typed);
    expect(phone?.international ?? null).toBe(international);
    if (phone) expect(phone.mobile).toBe(mobile);
    // M-Pesa takes the same number, mobiles only.
    expect(normaliseMsisdn(typed)).toBe(mobile ? international : null);
  });
});

describe('tap-to-call and WhatsApp links', () => {
  it.each([
    [
      '0712 345 678',
      { display: '+254 712 345 678', tel: 'tel:+254712345678', whatsapp: 'https://wa.me/254712345678' },
    ],
    [
      '254722000111',
      { display: '+254 722 000 111', tel: 'tel:+254722000111', whatsapp: 'https://wa.me/254722000111' },
    ],
    ['020 765 4321', { display: '+254 207 654 321', tel: 'tel:+254207654321', whatsapp: null }],
    ['', null],
    ['not a phone', null],
    [null, null],
  ])('%j → %j', (typed, links) => expect(phoneLinks(typed)).toEqual(links));

  it.each([
    ['254722000111', 'https://wa.me/254722000111'],
    ['+254 722 000 111', 'https://wa.me/254722000111'],
    ['0722000111', 'https://wa.me/254722000111'],
    ['https://wa.me/254722000111', 'https://wa.me/254722000111'],
    ['https://wa.me/c/254722000111', 'https://wa.me/c/254722000111'],
    // A fixed line has no WhatsApp; words are not a link.
    ['020 765 4321', null],
    ['WhatsApp us', null],
    ['http://wa.me/254722000111', null],
    ['', null],
    [undefined, null],
  ])('WhatsApp setting %j → %s', (value, link) => expect(whatsappLink(value)).toBe(link));
});

describe('directions', () => {
  it.each([
    [{ lat: -1.1449, lng: 36.9612 }, 'https://www.google.com/maps/dir/?api=1&destination=-1.1449,36.9612'],
    [
      { lat: -1.123456789, lng: 37.0000001 },
      'https://www.google.com/maps/dir/?api=1&destination=-1.123457,37',
    ],
  ])('%j → %s', (point, url) => expect(directionsUrl(point)).toBe(url));

  it('pins the point on OpenStreetMap', () =>
    expect(siteMapUrl({ lat: -1.1466, lng: 36.9609 })).toBe(
      'https://www.openstreetmap.org/?mlat=-1.1466&mlon=36.9609#map=16/-1.1466/36.9609',
    ));
});
