import type { Role } from '../shared/roles';
import { STATEMENT_ROUTES } from './features/accounts/statement.route';
import { DOCUMENT_ROUTES } from './features/documents/documents.route';
import {
  SMS_DELIVERY_PATH,
  SMS_INBOUND_PATH,
  WHATSAPP_WEBHOOK_PATH,
} from './features/messaging/messaging.routes';
import type { RestMethod } from './trpc';

/**
 * The few `/api` routes that cannot be procedures (binary answers, trackers' form bodies, this document), with
 * their OpenAPI operations. server/openapi.ts adds them to the document; server/trpc.access.test.ts calls
 * each one anonymously and with every role it refuses.
 */
export interface RawRoute {
  method: RestMethod;
  /** OpenAPI path syntax. */
  path: string;
  /**
   * Who may call: anyone (`public`), a tracker by its device id (`device`), whoever knows the secret path
   * segment (`secret`: Daraja's and Africa's Talking's callbacks; any other segment is 404), whoever signs
   * the body (`signature`: Meta's webhook, X-Hub-Signature-256; unsigned is 401), or these roles.
   */
  access: 'public' | 'device' | 'secret' | 'signature' | readonly Role[];
  /** What a refused role gets: 403, or 404 where a 403 would confirm that the thing exists. */
  refusedWith?: 403 | 404;
  /** A request that exercises the access check (path filled in). */
  probe: { path: string; body?: unknown };
  operation: Record<string, unknown>;
}

const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
const err = (description: string) => ({ description, content: json('Error') });

const secretParam = {
  name: 'secret',
  in: 'path',
  required: true,
  description: 'MPESA_CALLBACK_SECRET; any other value (or none set) answers 404',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,128}$' },
  example: 'b3f1c0d9a8e7f6a5b4c3d2e1f0a9b8c7',
};
const notFound = err('Wrong secret, no secret set, or an address outside MPESA_CALLBACK_IPS');
const ack = { description: 'Stored; processed after this answer', content: json('MpesaAccepted') };
/** A paybill payment as Daraja posts it since March 2026 (masked MSISDN), for the C2B examples. */
const c2bExample = (BillRefNumber: string, OrgAccountBalance: string) => ({
  TransactionType: 'Pay Bill',
  TransID: 'RKL51ZDR4F',
  TransTime: '20261123121325',
  TransAmount: '64000.00',
  BusinessShortCode: '600966',
  BillRefNumber,
  InvoiceNumber: '',
  OrgAccountBalance,
  ThirdPartyTransID: '',
  MSISDN: '2547 ***** 126',
  FirstName: 'MARY',
  MiddleName: '',
  LastName: 'NJERI',
});

/** Safaricom Daraja's callbacks: each body is stored as it came, answered at once and processed after. */
const MPESA_ROUTES: RawRoute[] = [
  {
    method: 'POST',
    path: '/api/payments/mpesa/stk/{secret}',
    access: 'secret',
    probe: { path: '/api/payments/mpesa/stk/wrong-secret-0123456789', body: {} },
    operation: {
      operationId: 'mpesa.stkCallback',
      summary: 'Daraja: the result of an M-Pesa payment prompt (STK push)',
      description:
        'Idempotent by CheckoutRequestID: a prompt is settled once however often its result is delivered. ResultCode 0 records the payment (MpesaReceiptNumber, Amount, TransactionDate, PhoneNumber masked) against the order the prompt was for; any other code records the failure the customer then reads.',
      security: [],
      parameters: [secretParam],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/MpesaStkCallback' },
            example: {
              Body: {
                stkCallback: {
                  MerchantRequestID: '29115-34620561-1',
                  CheckoutRequestID: 'ws_CO_191220191020363925',
                  ResultCode: 0,
                  ResultDesc: 'The service request is processed successfully.',
                  CallbackMetadata: {
                    Item: [
                      { Name: 'Amount', Value: 64000 },
                      { Name: 'MpesaReceiptNumber', Value: 'NLJ7RT61SV' },
                      { Name: 'TransactionDate', Value: 20191219102115 },
                      { Name: 'PhoneNumber', Value: 254708374149 },
                    ],
                  },
                },
              },
            },
          },
        },
      },
      responses: { 200: ack, 400: err('The body is not JSON'), 404: notFound, 413: err('Too large') },
    },
  },
  {
    method: 'POST',
    path: '/api/payments/mpesa/c2b/validation/{secret}',
    access: 'secret',
    probe: { path: '/api/payments/mpesa/c2b/validation/wrong-secret-0123456789', body: {} },
    operation: {
      operationId: 'mpesa.c2bValidation',
      summary: 'Daraja: may this paybill payment go through?',
      description:
        'Accepted, unless MPESA_VALIDATE_ACCOUNT=true and the account number (BillRefNumber, read ignoring spaces, dashes and letter case) is no order’s: then refused with C2B00012 (Invalid Account Number).',
      security: [],
      parameters: [secretParam],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/MpesaC2bPayment' },
            example: c2bExample('MCH42', ''),
          },
        },
      },
      responses: {
        200: { description: 'Accepted or refused', content: json('MpesaValidationAnswer') },
        400: err('The body is not JSON'),
        404: notFound,
        413: err('Too large'),
      },
    },
  },
  {
    method: 'POST',
    path: '/api/payments/mpesa/c2b/confirmation/{secret}',
    access: 'secret',
    probe: { path: '/api/payments/mpesa/c2b/confirmation/wrong-secret-0123456789', body: {} },
    operation: {
      operationId: 'mpesa.c2bConfirmation',
      summary: 'Daraja: a paybill payment was made',
      description:
        'Works with MPESA_CALLBACK_SECRET alone. Idempotent by TransID. Matched to the order whose account number MCH<id> the payer typed (spaces, dashes and letter case ignored): paid in full confirms the payment and moves the order to Received as an ops confirmation does; a part is recorded with the balance; an overpayment is recorded as a credit; an unknown account waits in the unmatched list for ops. The payer’s phone is masked.',
      security: [],
      parameters: [secretParam],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/MpesaC2bPayment' },
            example: c2bExample('mch 42', '1250000.00'),
          },
        },
      },
      responses: { 200: ack, 400: err('The body is not JSON'), 404: notFound, 413: err('Too large') },
    },
  },
];

const atSecretParam = {
  ...secretParam,
  description: 'AT_CALLBACK_SECRET; any other value (or none set) answers 404',
};
const received = { description: 'Stored; processed after this answer', content: json('CallbackReceived') };
const whatsappMessage = {
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '254700000000', phone_number_id: '106540352242922' },
            contacts: [{ profile: { name: 'Mary Njeri' }, wa_id: '254712345678' }],
            messages: [
              {
                from: '254712345678',
                id: 'wamid.HBgMMjU0NzEyMzQ1Njc4FQIAEhgUM0VCMDRGRTk4QkYxNTYxMjQ0RjAA',
                timestamp: '1795650000',
                type: 'text',
                text: { body: 'Nataka trips tatu hadi Juja' },
              },
            ],
          },
        },
      ],
    },
  ],
};

/** WhatsApp Cloud API's webhook and Africa's Talking's callbacks (issue 29). */
const MESSAGING_ROUTES: RawRoute[] = [
  {
    method: 'GET',
    path: WHATSAPP_WEBHOOK_PATH,
    access: 'public',
    probe: { path: `${WHATSAPP_WEBHOOK_PATH}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1` },
    operation: {
      operationId: 'whatsapp.verify',
      summary: "Meta's webhook subscription handshake",
      description:
        'Echoes hub.challenge when hub.mode is subscribe and hub.verify_token is WHATSAPP_VERIFY_TOKEN; 403 otherwise, and while the token is unset.',
      security: [],
      parameters: [
        {
          name: 'hub.mode',
          in: 'query',
          required: true,
          schema: { type: 'string', enum: ['subscribe'] },
          example: 'subscribe',
        },
        {
          name: 'hub.verify_token',
          in: 'query',
          required: true,
          schema: { type: 'string' },
          example: 'my-verify-token',
        },
        {
          name: 'hub.challenge',
          in: 'query',
          required: true,
          schema: { type: 'string' },
          example: '1158201444',
        },
      ],
      responses: {
        200: { description: 'The challenge', content: { 'text/plain': { schema: { type: 'string' } } } },
        403: err('Wrong mode or verify token, or no token set'),
      },
    },
  },
  {
    method: 'POST',
    path: WHATSAPP_WEBHOOK_PATH,
    access: 'signature',
    probe: { path: WHATSAPP_WEBHOOK_PATH, body: whatsappMessage },
    operation: {
      operationId: 'whatsapp.webhook',
      summary: "WhatsApp Cloud API: customers' messages and reports on ours",
      description:
        "Checked first: X-Hub-Signature-256 must be sha256= the HMAC-SHA256 of the raw body with WHATSAPP_APP_SECRET (constant-time; refused while the secret is unset). Stored as it came and answered at once; processed after, once per message id (Meta's retries and replays are ignored): the conversation answers, and status reports (sent, delivered, read, failed with Meta's code) update the messages we sent.",
      security: [],
      parameters: [
        {
          name: 'X-Hub-Signature-256',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
          example: 'sha256=0363007aabdf1ab579f35936651a460fb5fa1aaf40df98b1264446b72cc96688',
        },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { type: 'object' }, example: whatsappMessage } },
      },
      responses: {
        200: received,
        400: err('The body is not JSON'),
        401: err('No signature, a wrong one, or WHATSAPP_APP_SECRET unset'),
        413: err('Too large'),
      },
    },
  },
  {
    method: 'GET',
    path: '/api/track/{token}/proof/{loadId}',
    access: 'public',
    probe: { path: '/api/track/00000000000000000000000000000000/proof/1' },
    operation: {
      operationId: 'tracking.proofPhoto',
      summary: "A delivered load's proof photo, for the holder of the order's tracking link",
      description:
        'The photo the driver took at the hand-over (re-encoded JPEG). The tracking token is the permission (the WhatsApp image of the delivered news links here); any other token or load answers 404.',
      security: [],
      parameters: [
        {
          name: 'token',
          in: 'path',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,100}$' },
          example: '0123456789abcdef0123456789abcdef',
        },
        { name: 'loadId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 }, example: 7 },
      ],
      responses: {
        200: {
          description: 'The photo',
          content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
        },
        404: err('No such photo for this token'),
      },
    },
  },
  {
    method: 'POST',
    path: `${SMS_DELIVERY_PATH}/{secret}`,
    access: 'secret',
    probe: { path: `${SMS_DELIVERY_PATH}/wrong-secret-0123456789`, body: 'id=ATXid_1&status=Success' },
    operation: {
      operationId: 'sms.delivery',
      summary: "Africa's Talking: an SMS delivery report",
      description:
        "Africa's Talking signs nothing: the secret last segment and AT_CALLBACK_IPS protect it (anything else is 404). Stored and answered at once; the message with this id becomes DELIVERED (Success) or FAILED with the status and failureReason (Rejected, Failed, AbsentSubscriber, Expired); UserInBlackList stops SMS to that number.",
      security: [],
      parameters: [atSecretParam],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: { $ref: '#/components/schemas/SmsDeliveryReport' },
            example: {
              id: 'ATXid_00000001',
              status: 'Success',
              phoneNumber: '+254712345678',
              networkCode: '63902',
              retryCount: '0',
            },
          },
        },
      },
      responses: {
        200: received,
        404: err('Wrong secret, no secret set, or an address outside AT_CALLBACK_IPS'),
        413: err('Too large'),
      },
    },
  },
  {
    method: 'POST',
    path: `${SMS_INBOUND_PATH}/{secret}`,
    access: 'secret',
    probe: {
      path: `${SMS_INBOUND_PATH}/wrong-secret-0123456789`,
      body: 'id=1&from=%2B254712345678&text=STOP',
    },
    operation: {
      operationId: 'sms.inbound',
      summary: "Africa's Talking: an SMS a customer sent",
      description:
        'Protected like the delivery report. Recorded on the number’s conversation; STOP (STOPALL, UNSUBSCRIBE, QUIT, SITISHA, SIMAMISHA) stops SMS to the number, START (ANZA) allows them again.',
      security: [],
      parameters: [atSecretParam],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: { $ref: '#/components/schemas/SmsIncoming' },
            example: {
              id: 'a8b7c6d5',
              from: '+254712345678',
              to: '20880',
              text: 'STOP',
              date: '2026-11-26 09:30:00',
              linkId: '',
            },
          },
        },
      },
      responses: {
        200: received,
        404: err('Wrong secret, no secret set, or an address outside AT_CALLBACK_IPS'),
        413: err('Too large'),
      },
    },
  },
];

export const RAW_ROUTES: RawRoute[] = [
  {
    method: 'GET',
    path: '/api/uploads/{name}',
    access: ['ADMIN', 'OPS', 'FUEL', 'DRIVER'],
    refusedWith: 404,
    probe: { path: '/api/uploads/fuel-photo-00000000000000000000000000000000.jpg' },
    operation: {
      operationId: 'uploads.get',
      summary: 'An uploaded image',
      description:
        'Driver documents go to ADMIN and to the driver they belong to; fuel photos to FUEL, OPS and ADMIN; delivery photos (proofs of delivery) to ADMIN, OPS and the driver of the load. Anyone else gets 404, so that a file is not confirmed to exist.',
      parameters: [
        {
          name: 'name',
          in: 'path',
          required: true,
          schema: {
            type: 'string',
            pattern: '^(national-id|driver-photo|fuel-photo|delivery-photo)-[a-f0-9]{32}\\.jpg$',
          },
          example: 'fuel-photo-0123456789abcdef0123456789abcdef.jpg',
        },
      ],
      responses: {
        200: {
          description: 'The image, re-encoded as JPEG',
          content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
        },
        401: err('Not signed in'),
        404: err('No such file, or not yours'),
      },
    },
  },
  {
    method: 'GET',
    path: '/api/telemetry/osmand',
    access: 'device',
    probe: { path: '/api/telemetry/osmand?id=unknown-device&lat=-1.1&lon=37.0&timestamp=1700000000' },
    operation: {
      operationId: 'telemetry.ingestQuery',
      summary: 'A tracker position in the OsmAnd protocol (Traccar Client)',
      description:
        'Authenticated by the device identifier set on a truck. Answered 200 once the fix is durably queued (503 within ~300 ms when it cannot be); a report without lat/lon is a heartbeat (battery and last-seen, the position kept); an implausible fix is answered 200 and discarded, never refused, because a tracker resends a refused request forever. An unknown device gets 404; an address that has had 20 of those in 15 minutes gets 429 for any device it has not sent from before.',
      security: [],
      parameters: [
        { name: 'id', in: 'query', required: true, schema: { type: 'string' }, example: 'dev-t1' },
        { name: 'lat', in: 'query', required: false, schema: { type: 'number' }, example: -1.0921 },
        { name: 'lon', in: 'query', required: false, schema: { type: 'number' }, example: 37.0142 },
        {
          name: 'timestamp',
          in: 'query',
          required: false,
          schema: { type: 'string', description: 'Unix seconds or milliseconds, or ISO 8601' },
          example: '1795430000',
        },
        { name: 'speed', in: 'query', required: false, schema: { type: 'number' }, example: 12.5 },
        { name: 'bearing', in: 'query', required: false, schema: { type: 'number' }, example: 84 },
        { name: 'altitude', in: 'query', required: false, schema: { type: 'number' }, example: 1520 },
        { name: 'accuracy', in: 'query', required: false, schema: { type: 'number' }, example: 8 },
        { name: 'batt', in: 'query', required: false, schema: { type: 'number' }, example: 87 },
      ],
      responses: {
        200: { description: 'Accepted', content: json('TelemetryAccepted') },
        400: err('No device id'),
        404: err('Unknown device'),
        429: err('Too many unknown device ids from this address'),
        503: err('Positions cannot be queued right now; the device retries'),
      },
    },
  },
  {
    method: 'POST',
    path: '/api/telemetry/osmand',
    access: 'device',
    probe: {
      path: '/api/telemetry/osmand',
      body: {
        device_id: 'unknown-device',
        location: { timestamp: '2026-11-23T07:30:00.000Z', coords: { latitude: -1.09, longitude: 37.01 } },
      },
    },
    operation: {
      operationId: 'telemetry.ingestBody',
      summary: 'Tracker positions: OsmAnd form or query, or Traccar Client JSON (one or a list)',
      description: 'Authenticated by the device identifier set on a truck; answered as the query form above.',
      security: [],
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: { oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }] },
            example: {
              device_id: 'dev-t1',
              location: {
                timestamp: '2026-11-23T07:30:00.000Z',
                coords: { latitude: -1.0921, longitude: 37.0142, speed: 3.4, heading: 84, accuracy: 8 },
                battery: { level: 0.87, is_charging: false },
              },
            },
          },
          'application/x-www-form-urlencoded': {
            schema: { type: 'object', additionalProperties: { type: 'string' } },
            example: { id: 'dev-t1', lat: '-1.0921', lon: '37.0142', timestamp: '1795430000' },
          },
        },
      },
      responses: {
        200: { description: 'Accepted', content: json('TelemetryAccepted') },
        400: err('No device id'),
        404: err('Unknown device'),
        413: err('Too large'),
        429: err('Too many unknown device ids from this address'),
        503: err('Positions cannot be queued right now; the device retries'),
      },
    },
  },
  {
    method: 'GET',
    path: '/api/openapi.json',
    access: 'public',
    probe: { path: '/api/openapi.json' },
    operation: {
      operationId: 'openapi.get',
      summary: 'This document',
      security: [],
      responses: {
        200: {
          description: 'OpenAPI 3.0 document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  },
  ...MPESA_ROUTES,
  ...MESSAGING_ROUTES,
  ...DOCUMENT_ROUTES,
  ...STATEMENT_ROUTES,
];

export const RAW_SCHEMAS = {
  CallbackReceived: {
    type: 'object',
    required: ['received'],
    properties: { received: { type: 'boolean', enum: [true] } },
  },
  SmsDeliveryReport: {
    type: 'object',
    required: ['id', 'status'],
    properties: {
      id: { type: 'string', description: "Africa's Talking's message id" },
      status: {
        type: 'string',
        enum: [
          'Sent',
          'Submitted',
          'Buffered',
          'Rejected',
          'Success',
          'Failed',
          'AbsentSubscriber',
          'Expired',
        ],
      },
      phoneNumber: { type: 'string' },
      networkCode: { type: 'string' },
      failureReason: { type: 'string' },
      retryCount: { type: 'string' },
    },
  },
  SmsIncoming: {
    type: 'object',
    required: ['id', 'from', 'text'],
    properties: {
      id: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      text: { type: 'string' },
      date: { type: 'string' },
      linkId: { type: 'string' },
      networkCode: { type: 'string' },
    },
  },
  MpesaAccepted: {
    type: 'object',
    required: ['ResultCode', 'ResultDesc'],
    properties: {
      ResultCode: { type: 'integer', enum: [0] },
      ResultDesc: { type: 'string', enum: ['Accepted'] },
    },
  },
  MpesaValidationAnswer: {
    type: 'object',
    required: ['ResultCode', 'ResultDesc'],
    properties: {
      ResultCode: {
        oneOf: [
          { type: 'integer', enum: [0] },
          { type: 'string', enum: ['C2B00012'] },
        ],
        description: '0 accepts; C2B00012 (Invalid Account Number) refuses',
      },
      ResultDesc: { type: 'string', enum: ['Accepted', 'Rejected'] },
    },
  },
  MpesaStkCallback: {
    type: 'object',
    required: ['Body'],
    properties: {
      Body: {
        type: 'object',
        required: ['stkCallback'],
        properties: {
          stkCallback: {
            type: 'object',
            required: ['CheckoutRequestID', 'ResultCode'],
            properties: {
              MerchantRequestID: { type: 'string' },
              CheckoutRequestID: { type: 'string' },
              ResultCode: { type: 'integer', description: '0 paid; 1, 1032, 1037, 2001, 1019, … failed' },
              ResultDesc: { type: 'string' },
              CallbackMetadata: {
                type: 'object',
                description: 'Only when ResultCode is 0',
                properties: {
                  Item: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['Name'],
                      properties: {
                        Name: {
                          type: 'string',
                          enum: ['Amount', 'MpesaReceiptNumber', 'Balance', 'TransactionDate', 'PhoneNumber'],
                        },
                        Value: { oneOf: [{ type: 'string' }, { type: 'number' }] },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  MpesaC2bPayment: {
    type: 'object',
    required: ['TransID', 'TransAmount'],
    properties: {
      TransactionType: { type: 'string' },
      TransID: { type: 'string', description: 'The M-Pesa receipt' },
      TransTime: { type: 'string', description: 'YYYYMMDDHHmmss, Nairobi time' },
      TransAmount: { type: 'string' },
      BusinessShortCode: { type: 'string' },
      BillRefNumber: { type: 'string', description: 'The account number as the payer typed it' },
      InvoiceNumber: { type: 'string' },
      OrgAccountBalance: { type: 'string' },
      ThirdPartyTransID: { type: 'string' },
      MSISDN: { type: 'string', description: 'Masked since March 2026: 2547 ***** 126' },
      FirstName: { type: 'string' },
      MiddleName: { type: 'string' },
      LastName: { type: 'string' },
    },
  },
  TelemetryAccepted: {
    type: 'object',
    required: ['accepted', 'discarded'],
    properties: {
      accepted: { type: 'integer', minimum: 0, description: 'Fixes durably queued for the history' },
      discarded: {
        type: 'integer',
        minimum: 0,
        description:
          'Implausible fixes (time, position or speed out of range) answered but not stored, counted per device',
      },
    },
  },
};
