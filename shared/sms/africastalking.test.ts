import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAfricasTalking } from '../../test/fake-africastalking';
import { AT_ACCEPTED, AtClient, parseDeliveryReport, parseIncoming } from './africastalking';

const at = fakeAfricasTalking({ username: 'mchanga', apiKey: 'at-key-1' });
let base: string;

beforeAll(async () => {
  base = await at.start();
});
afterAll(() => at.stop());

describe("AtClient against the fake Africa's Talking", () => {
  it('posts the documented form with the apiKey header and reads the recipient', async () => {
    const client = new AtClient({
      baseUrl: base,
      username: 'mchanga',
      apiKey: 'at-key-1',
      senderId: 'MCHANGA',
    });
    const r = await client.send('+254712345678', 'Mchanga: order #12 placed.');
    expect(AT_ACCEPTED.has(r.statusCode)).toBe(true);
    expect(r).toMatchObject({ number: '+254712345678', messageParts: 1 });
    expect(r.messageId).toMatch(/^ATXid_/);
    expect(at.sent.at(-1)).toMatchObject({
      username: 'mchanga',
      to: '+254712345678',
      from: 'MCHANGA',
      message: 'Mchanga: order #12 placed.',
    });
  });

  it('reads a blacklisted number as its status code, and a wrong key as permanent', async () => {
    at.script('+254700000406', 406);
    const client = new AtClient({
      baseUrl: base,
      username: 'mchanga',
      apiKey: 'at-key-1',
      senderId: undefined,
    });
    await expect(client.send('+254700000406', 'x')).resolves.toMatchObject({
      statusCode: 406,
      messageId: null,
    });
    const wrong = new AtClient({ baseUrl: base, username: 'mchanga', apiKey: 'nope', senderId: undefined });
    await expect(wrong.send('+254712345678', 'x')).rejects.toMatchObject({ status: 401, permanent: true });
    at.setDown(true);
    await expect(client.send('+254712345678', 'x')).rejects.toMatchObject({ status: 500, permanent: false });
    at.setDown(false);
  });
});

describe('callback bodies', () => {
  it('reads delivery reports and incoming messages', () => {
    expect(
      parseDeliveryReport({
        id: 'ATXid_1',
        status: 'Failed',
        phoneNumber: '+254712345678',
        failureReason: 'UserInBlackList',
        retryCount: '0',
        networkCode: '63902',
      }),
    ).toEqual({
      id: 'ATXid_1',
      status: 'Failed',
      phoneNumber: '+254712345678',
      networkCode: '63902',
      failureReason: 'UserInBlackList',
      retryCount: 0,
    });
    expect(parseDeliveryReport({ status: 'Success' })).toBeNull();
    expect(
      parseIncoming({
        id: 'in1',
        from: '+254712345678',
        to: '20880',
        text: 'STOP',
        date: '2026-11-26 10:00:00',
      }),
    ).toEqual({
      id: 'in1',
      from: '+254712345678',
      to: '20880',
      text: 'STOP',
    });
  });
});
