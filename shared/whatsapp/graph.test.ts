import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGraph } from '../../test/fake-graph';
import {
  LIBRARY_MESSAGE_MOCK,
  LIBRARY_SIGNATURE_VECTOR,
  LIBRARY_STATUS_MOCK,
  messageWebhook,
  statusWebhook,
} from '../../test/fixtures/whatsapp';
import { GraphClient, GraphError, messageBody } from './graph';
import { parseWebhook, signatureValid, verificationChallenge } from './webhook';

const CONFIG = {
  phoneNumberId: '106540352242922',
  accessToken: 'EAAG-test-token',
  appSecret: 'app-secret-1',
};
const graph = fakeGraph({ ...CONFIG, templates: [{ name: 'order_update', language: 'en' }] });
let client: GraphClient;

beforeAll(async () => {
  const graphUrl = await graph.start();
  client = new GraphClient({
    graphUrl,
    phoneNumberId: CONFIG.phoneNumberId,
    accessToken: CONFIG.accessToken,
  });
});
afterAll(() => graph.stop());

describe('messageBody', () => {
  it('writes each kind in Graph API JSON, cutting titles to Meta limits', () => {
    expect(messageBody('254712345678', { kind: 'text', text: 'Habari' })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '254712345678',
      type: 'text',
      text: { preview_url: false, body: 'Habari' },
    });
    const buttons = messageBody('254712345678', {
      kind: 'buttons',
      text: 'Which sand?',
      buttons: [
        { id: 'sand:coarse', title: 'Coarse sand (concrete and blocks)' },
        { id: 'sand:smooth', title: 'Smooth' },
        { id: 'a', title: 'a' },
        { id: 'b', title: 'b' },
      ],
    }) as { interactive: { action: { buttons: Array<{ reply: { title: string } }> } } };
    expect(buttons.interactive.action.buttons).toHaveLength(3);
    expect(buttons.interactive.action.buttons[0]!.reply.title).toHaveLength(20);
    expect(
      messageBody('254712345678', {
        kind: 'template',
        name: 'order_update',
        language: 'sw',
        parameters: ['#12'],
      }),
    ).toMatchObject({
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'sw' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: '#12' }] }],
      },
    });
    expect(messageBody('254712345678', { kind: 'location_request', text: 'Share the site' })).toMatchObject({
      interactive: { type: 'location_request_message', action: { name: 'send_location' } },
    });
  });
});

describe('GraphClient against the fake Graph API', () => {
  it('sends a template at any time and answers the wamid', async () => {
    const sent = await client.send('254712345678', {
      kind: 'template',
      name: 'order_update',
      language: 'en',
      parameters: ['#7', 'paid'],
    });
    expect(sent.messageId).toMatch(/^wamid\./);
    expect(graph.requests.at(-1)!.authorization).toBe(`Bearer ${CONFIG.accessToken}`);
  });

  it('is refused with 131047 for free-form text outside the window, and may send inside it', async () => {
    const err = await client.send('254700111222', { kind: 'text', text: 'Hi' }).catch((e) => e);
    expect(err).toBeInstanceOf(GraphError);
    expect(err).toMatchObject({ code: 131047, permanent: true, status: 400 });
    graph.openWindow('254700111222');
    await expect(client.send('254700111222', { kind: 'text', text: 'Hi' })).resolves.toMatchObject({
      waId: '254700111222',
    });
  });

  it('reads an unknown template as permanent (132001) and throughput as worth a retry (130429)', async () => {
    await expect(
      client.send('254712345678', { kind: 'template', name: 'nope', language: 'en', parameters: [] }),
    ).rejects.toMatchObject({ code: 132001, permanent: true });
    graph.refuseNext(130429, 'Rate limit hit');
    await expect(
      client.send('254712345678', { kind: 'template', name: 'order_update', language: 'en', parameters: [] }),
    ).rejects.toMatchObject({ code: 130429, permanent: false });
  });

  it('reports Graph not reachable as a retryable error', async () => {
    const down = new GraphClient({
      graphUrl: 'http://127.0.0.1:9/v23.0',
      phoneNumberId: '1',
      accessToken: 'x',
    });
    await expect(down.send('254712345678', { kind: 'text', text: 'x' })).rejects.toMatchObject({
      permanent: false,
      code: undefined,
    });
  });
});

describe('webhook signature', () => {
  const v = LIBRARY_SIGNATURE_VECTOR;
  it.each([
    ['the library vector over the raw body', Buffer.from(v.raw), v.signature, v.appSecret, true],
    ['the same text decoded and re-encoded', Buffer.from(v.decoded), v.signature, v.appSecret, false],
    ['another secret', Buffer.from(v.raw), v.signature, 'other', false],
    ['no secret set', Buffer.from(v.raw), v.signature, undefined, false],
    ['no header', Buffer.from(v.raw), undefined, v.appSecret, false],
    ['sha1 header', Buffer.from(v.raw), 'sha1=abc', v.appSecret, false],
    [
      'upper-case hex',
      Buffer.from(v.raw),
      v.signature.toUpperCase().replace('SHA256', 'sha256'),
      v.appSecret,
      true,
    ],
  ] as const)('%s', (_name, raw, header, secret, expected) => {
    expect(signatureValid(raw, header, secret)).toBe(expected);
  });
});

describe('verificationChallenge', () => {
  const q = { 'hub.mode': 'subscribe', 'hub.verify_token': 'tok', 'hub.challenge': '1158201444' };
  it.each([
    [q, 'tok', '1158201444'],
    [{ ...q, 'hub.verify_token': 'wrong' }, 'tok', null],
    [{ ...q, 'hub.mode': 'unsubscribe' }, 'tok', null],
    [q, undefined, null],
    [{ 'hub.mode': 'subscribe' }, 'tok', null],
  ])('%j with %s → %s', (query, token, expected) => {
    expect(verificationChallenge(query, token)).toBe(expected);
  });
});

describe('parseWebhook', () => {
  it("reads the library's message and status mocks", () => {
    const m = parseWebhook(LIBRARY_MESSAGE_MOCK);
    expect(m.phoneNumberId).toBe('1');
    expect(m.messages).toEqual([
      expect.objectContaining({
        id: 'wamid.ID',
        from: '2',
        kind: 'text',
        text: 'message',
        profileName: 'name',
      }),
    ]);
    // The mock's status "3" is no status Meta sends: skipped, never guessed.
    expect(parseWebhook(LIBRARY_STATUS_MOCK).statuses).toEqual([]);
  });

  it('reads replies, locations, other types and failed statuses', () => {
    const from = '254712345678';
    const read = (m: Parameters<typeof messageWebhook>[3]) =>
      parseWebhook(messageWebhook('1', from, 'wamid.X', m)).messages[0];
    expect(read({ type: 'button_reply', id: 'sand:coarse', title: 'Coarse' })).toMatchObject({
      kind: 'reply',
      replyId: 'sand:coarse',
      text: 'Coarse',
    });
    expect(read({ type: 'list_reply', id: 'trucks:3', title: '3 trucks' })).toMatchObject({
      replyId: 'trucks:3',
    });
    expect(read({ type: 'location', latitude: -1.03, longitude: 37.07, name: 'Site' })).toMatchObject({
      kind: 'location',
      location: { lat: -1.03, lng: 37.07, name: 'Site' },
    });
    expect(read({ type: 'image' })).toMatchObject({ kind: 'other', type: 'image' });
    const s = parseWebhook(
      statusWebhook('1', from, 'wamid.Y', 'failed', { code: 131026, title: 'Message undeliverable' }),
    );
    expect(s.statuses).toEqual([
      expect.objectContaining({ messageId: 'wamid.Y', status: 'failed', errorCode: 131026, recipient: from }),
    ]);
    expect(parseWebhook({ object: 'page', entry: [] })).toEqual({
      phoneNumberId: null,
      messages: [],
      statuses: [],
    });
  });
});
